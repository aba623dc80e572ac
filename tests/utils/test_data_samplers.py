"""Samplers, Subset, ConcatDataset, random_split and the DataLoader's sampler options vs PyTorch."""

import warnings

import numpy as np
import pytest

import gtensor as gt
from gtensor.utils import data

tdata = pytest.importorskip("torch.utils.data")
torch = pytest.importorskip("torch")


def _seeded(seed=3):
    return gt.Generator().manual_seed(seed)


def _raises_like(torch_call, gt_call):
    with pytest.raises(Exception) as want:
        torch_call()
    with pytest.raises(want.type):
        gt_call()


def test_sequential_and_batch_samplers_match_torch():
    assert list(data.SequentialSampler(range(4))) == list(tdata.SequentialSampler(range(4)))
    for size, drop in ((3, False), (3, True), (5, False), (7, True)):
        got = data.BatchSampler(data.SequentialSampler(range(5)), size, drop)
        want = tdata.BatchSampler(tdata.SequentialSampler(range(5)), size, drop)
        assert list(got) == list(want) and len(got) == len(want)
    for size, drop in ((0, False), (True, False), (2, 1)):
        _raises_like(lambda: tdata.BatchSampler(range(3), size, drop),
                     lambda: data.BatchSampler(range(3), size, drop))


def test_random_sampler_is_seeded_and_covers():
    first = list(data.RandomSampler(range(6), generator=_seeded()))
    assert first == list(data.RandomSampler(range(6), generator=_seeded()))
    assert sorted(first) == list(range(6))
    sampler = data.RandomSampler(range(6), generator=_seeded())
    assert list(sampler) != list(sampler)  # each iter() draws anew
    repeated = list(data.RandomSampler(range(3), num_samples=7, generator=_seeded()))
    assert len(repeated) == 7 and sorted(repeated[:6]) == [0, 0, 1, 1, 2, 2]
    drawn = data.RandomSampler(range(4), replacement=True, num_samples=20, generator=_seeded())
    values = list(drawn)
    assert len(drawn) == 20 and len(values) == 20 and set(values) <= {0, 1, 2, 3}
    assert len(set(values)) > 1
    gt.manual_seed(1)
    default_gen = list(data.RandomSampler(range(5)))
    gt.manual_seed(1)
    assert list(data.RandomSampler(range(5))) == default_gen
    for kwargs in ({"num_samples": 0}, {"replacement": 1}):
        _raises_like(lambda: tdata.RandomSampler(range(3), **kwargs),
                     lambda: data.RandomSampler(range(3), **kwargs))


def test_subset_and_weighted_samplers():
    picked = list(data.SubsetRandomSampler([9, 4, 7], generator=_seeded()))
    assert sorted(picked) == [4, 7, 9]
    assert picked == list(data.SubsetRandomSampler([9, 4, 7], generator=_seeded()))
    weights = [0.0, 1.0, 0.0, 3.0]
    drawn = list(data.WeightedRandomSampler(weights, 12, generator=_seeded()))
    assert len(drawn) == 12 and set(drawn) == {1, 3}
    assert sorted(data.WeightedRandomSampler(gt.tensor(weights), 2, replacement=False)) == [1, 3]
    for args in (([[1.0, 2.0]], 2), ([1.0, 2.0], 0), ([1.0, 2.0], 2, 1)):
        _raises_like(lambda: tdata.WeightedRandomSampler(*args),
                     lambda: data.WeightedRandomSampler(*args))


def test_subset_and_concat_match_torch():
    base = list(range(10, 20))
    for got, want in ((data.Subset(base, [7, 0, 3]), tdata.Subset(base, [7, 0, 3])),
                      (data.ConcatDataset([base[:3], base[3:], base]),
                       tdata.ConcatDataset([base[:3], base[3:], base]))):
        assert len(got) == len(want)
        assert [got[i] for i in range(-len(got), len(got))] == \
            [want[i] for i in range(-len(want), len(want))]
    assert data.ConcatDataset([base[:3], base]).cumulative_sizes == [3, 13]
    with pytest.raises(ValueError):
        data.ConcatDataset([])
    with pytest.raises(ValueError):
        data.ConcatDataset([base])[-11]
    with pytest.raises(IndexError):
        data.ConcatDataset([base])[10]
    joined = data.TensorDataset(gt.arange(2)) + data.TensorDataset(gt.arange(5, 8))
    assert [joined[i][0].item() for i in range(len(joined))] == [0, 1, 5, 6, 7]


def test_random_split():
    for lengths in ([3, 7], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]):
        parts = data.random_split(range(11 if isinstance(lengths[0], float) else 10), lengths,
                                  generator=_seeded())
        n = sum(len(p) for p in parts)
        want = tdata.random_split(range(n), lengths, generator=torch.Generator().manual_seed(0))
        assert [len(p) for p in parts] == [len(p) for p in want]
        flat = [p[i] for p in parts for i in range(len(p))]
        assert sorted(flat) == list(range(n))
    again = data.random_split(range(11), [0.5, 0.5], generator=_seeded())
    assert [list(p.indices) for p in again] == \
        [list(p.indices) for p in data.random_split(range(11), [0.5, 0.5], generator=_seeded())]
    _raises_like(lambda: tdata.random_split(range(5), [2, 2]),
                 lambda: data.random_split(range(5), [2, 2]))
    _raises_like(lambda: tdata.random_split(range(5), [1.5, -0.5]),
                 lambda: data.random_split(range(5), [1.5, -0.5]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [len(p) for p in data.random_split(range(2), [0.9, 0.1, 0.0])] == [2, 0, 0]
    assert any("is 0" in str(w.message) for w in caught)


def test_dataloader_sampler_options(device):
    x = gt.arange(16, device=device).reshape(8, 2)
    ds = data.TensorDataset(x, gt.arange(8, device=device))
    order = [5, 0, 7, 2, 2]
    batches = list(data.DataLoader(ds, batch_size=2, sampler=order))
    assert [yb.tolist() for _, yb in batches] == [[5, 0], [7, 2], [2]]
    assert batches[0][0].device == x.device and batches[0][0].tolist() == [[10, 11], [0, 1]]
    groups = [[1, 3, 5], [0], [6, 7]]
    loader = data.DataLoader(ds, batch_sampler=groups)
    assert len(loader) == 3 and [yb.tolist() for _, yb in loader] == groups
    train, _ = data.random_split(ds, [0.75, 0.25], generator=_seeded())
    seen = []
    for xb, yb in data.DataLoader(train, batch_size=4, shuffle=True, generator=_seeded(5)):
        np.testing.assert_array_equal(xb.cpu().numpy()[:, 0], 2 * yb.cpu().numpy())
        seen += yb.tolist()
    assert sorted(seen) == sorted(train.indices)
    stacked = data.DataLoader(ds, batch_size=3, collate_fn=lambda rows: len(rows),
                              sampler=data.SequentialSampler(ds))
    assert list(stacked) == [3, 3, 2]


def test_dataloader_exclusive_options():
    ds = data.TensorDataset(gt.arange(4))
    for kwargs in ({"sampler": [0, 1], "shuffle": True},
                   {"batch_sampler": [[0]], "batch_size": 2},
                   {"batch_sampler": [[0]], "drop_last": True},
                   {"batch_sampler": [[0]], "sampler": [0]}):
        _raises_like(lambda: tdata.DataLoader(range(4), **kwargs),
                     lambda: data.DataLoader(ds, **kwargs))
