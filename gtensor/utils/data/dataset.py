"""Map-style datasets: the protocol, tensors as rows, subsets, concatenation, random splits."""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ...generator import Generator
from ...ops.random_extra import randperm
from ...tensor import Tensor


class Dataset(Protocol):
    """What a DataLoader reads: ``len(ds)`` and ``ds[i]``; subclasses also get ``ds1 + ds2``."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> Any: ...

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Samples are the rows ``(t[i] for t in tensors)`` of tensors with one first dimension.

    Args:
        *tensors: tensors whose first dimensions are equal.

    Example:
        >>> import gtensor as gt
        >>> ds = TensorDataset(gt.zeros(5, 3), gt.arange(5))
        >>> len(ds), ds[2][1].item()
        (5, 2)
    """

    def __init__(self, *tensors: Tensor) -> None:
        if not tensors:
            raise ValueError("[TensorDataset] needs at least one tensor")
        for t in tensors:
            if not isinstance(t, Tensor) or t.ndim == 0:
                raise TypeError("[TensorDataset] expects tensors with at least one dimension")
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            raise ValueError("[TensorDataset] size mismatch between tensors: first dimensions "
                             f"are {[t.shape[0] for t in tensors]}")
        devices = {t.device for t in tensors}
        if len(devices) > 1:
            raise ValueError(f"[TensorDataset] tensors are on different devices: {devices}")
        self.tensors = tuple(tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order.

    Example:
        >>> len(Subset(range(10), [7, 1])), Subset(range(10), [7, 1])[0]
        (2, 7)
    """

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other.

    Raises:
        ValueError: no dataset was given (PyTorch asserts).

    Example:
        >>> ds = ConcatDataset([range(3), range(10, 12)])
        >>> len(ds), ds[3], ds.cumulative_sizes
        (5, 10, [3, 5])
    """

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("[ConcatDataset] datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        n = len(self)
        if idx < 0:
            if -idx > n:
                raise ValueError("[ConcatDataset] absolute value of index should not exceed "
                                 "dataset length")
            idx += n
        if idx >= n:
            raise IndexError(f"[ConcatDataset] index {idx} is out of range for length {n}")
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


def _split_lengths(n: int, lengths: Sequence[float]) -> list[int]:
    """Turn fractions summing to 1 into counts, the remainder dealt round-robin (PyTorch's rule)."""
    counts = []
    for i, frac in enumerate(lengths):
        if not 0 <= frac <= 1:
            raise ValueError(f"[random_split] fraction at index {i} is not between 0 and 1")
        counts.append(math.floor(n * frac))
    for i in range(n - sum(counts)):
        counts[i % len(counts)] += 1
    for i, c in enumerate(counts):
        if c == 0:
            warnings.warn(f"[random_split] length of split at index {i} is 0; this might result "
                          "in an empty dataset", stacklevel=3)
    return counts


def random_split(dataset: Any, lengths: Sequence[float],
                 generator: Generator | None = None) -> list[Subset]:
    """Split ``dataset`` into non-overlapping random subsets of the given lengths.

    Args:
        dataset: any object with ``__len__`` and ``__getitem__``.
        lengths: sizes summing to ``len(dataset)``, or fractions summing to 1
            (each split gets ``floor(n * frac)`` samples, and the remainder is
            dealt one by one from the first split on).
        generator: the random stream of the permutation (the default cpu
            generator when None, so ``gt.manual_seed`` fixes the split).

    Raises:
        ValueError: the lengths do not add up to the dataset's length.

    Example:
        >>> import gtensor as gt
        >>> [len(s) for s in random_split(range(10), [0.5, 0.3, 0.2])]
        [5, 3, 2]
    """
    n = len(dataset)
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        lengths = _split_lengths(n, lengths)
    if sum(lengths) != n:
        raise ValueError("[random_split] sum of input lengths does not equal the length of the "
                         "input dataset")
    dev = "cpu" if generator is None else generator.device
    order = randperm(n, generator=generator, device=dev).tolist()
    return [Subset(dataset, order[end - int(k):end])
            for end, k in zip(itertools.accumulate(int(k) for k in lengths), lengths,
                              strict=True)]
