"""TensorDataset and DataLoader: batching, drop_last, seeded shuffling, general datasets."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.utils.data import DataLoader, TensorDataset


def _rows(loader: DataLoader) -> list[list[int]]:
    return [y.tolist() for _, y in loader]


def test_sequential_batches(device: str) -> None:
    x = gt.arange(20, dtype=gt.float32).reshape(10, 2).to(device)
    ds = TensorDataset(x, gt.arange(10).to(device))
    loader = DataLoader(ds, batch_size=4)
    assert len(loader) == 3 and _rows(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    xb, yb = next(iter(loader))
    assert xb.device.type == device and xb.tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]
    dropped = DataLoader(ds, batch_size=4, drop_last=True)
    assert len(dropped) == 2 and _rows(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_shuffle_is_a_seeded_permutation(device: str) -> None:
    ds = TensorDataset(gt.arange(9).to(device), gt.arange(9).to(device))
    gt.manual_seed(5)
    first = _rows(DataLoader(ds, batch_size=4, shuffle=True))
    gt.manual_seed(5)
    again = _rows(DataLoader(ds, batch_size=4, shuffle=True))
    assert first == again
    assert [len(b) for b in first] == [4, 4, 1]
    flat = sum(first, [])
    assert sorted(flat) == list(range(9)) and flat != list(range(9))
    loader = DataLoader(ds, batch_size=9, shuffle=True)
    assert _rows(loader) != _rows(loader)  # a new permutation every epoch


def test_rows_stay_aligned_when_shuffled() -> None:
    x = gt.arange(12).reshape(6, 2)
    ds = TensorDataset(x, gt.arange(6))
    g = gt.Generator().manual_seed(1)
    for xb, yb in DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True):
        np.testing.assert_array_equal(xb.numpy()[:, 0], 2 * yb.numpy())


def test_generic_dataset_and_collate() -> None:
    class Squares:
        def __len__(self) -> int:
            return 5

        def __getitem__(self, i: int) -> tuple[gt.Tensor, int]:
            return gt.full((2,), float(i * i)), i

    batches = list(DataLoader(Squares(), batch_size=2))
    assert len(batches) == 3
    xb, yb = batches[1]
    assert xb.tolist() == [[4.0, 4.0], [9.0, 9.0]] and yb.tolist() == [2, 3]
    gt.manual_seed(0)
    ys = sum((y.tolist() for _, y in DataLoader(Squares(), batch_size=2, shuffle=True)), [])
    assert sorted(ys) == [0, 1, 2, 3, 4]


def test_errors() -> None:
    with pytest.raises(ValueError, match="size mismatch"):
        TensorDataset(gt.zeros(3), gt.zeros(4))
    with pytest.raises(ValueError, match="batch_size"):
        DataLoader(TensorDataset(gt.zeros(3)), batch_size=0)
