"""Datasets and a batching DataLoader.

:class:`DataLoader` over a :class:`TensorDataset` gathers each batch with one
``index_select`` per tensor on the tensors' device; shuffling draws a
permutation with :func:`gtensor.randperm` from gtensor's seeded generator
(on the data's device), so ``gt.manual_seed`` makes epochs reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from ..generator import Generator
from ..ops.creation import tensor
from ..ops.layout.copies import stack
from ..ops.random_extra import randperm
from ..tensor import Tensor


class Dataset(Protocol):
    """What a DataLoader reads: ``len(ds)`` and ``ds[i]``."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> Any: ...


class TensorDataset:
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


def default_collate(samples: Sequence[Any]) -> Any:
    """Stack a list of samples into a batch (tensors, numbers, or tuples/dicts of them).

    Example:
        >>> default_collate([(gt.zeros(2), 1), (gt.ones(2), 0)])[0].shape  # doctest: +SKIP
        (2, 2)
    """
    first = samples[0]
    if isinstance(first, Tensor):
        return stack(list(samples))
    if isinstance(first, (bool, int, float)):
        return tensor(list(samples))
    if isinstance(first, dict):
        return {k: default_collate([s[k] for s in samples]) for k in first}
    if isinstance(first, (tuple, list)):
        return type(first)(default_collate(list(col)) for col in zip(*samples, strict=True))
    return list(samples)


class DataLoader:
    """Iterate over a dataset in batches, optionally shuffled each epoch.

    Args:
        dataset: a :class:`TensorDataset` (fast path: batched gathers on the device)
            or any object with ``__len__`` and ``__getitem__``.
        batch_size: samples per batch.
        shuffle: draw a new permutation each epoch.
        drop_last: drop the last batch when it is smaller than ``batch_size``.
        generator: the random stream for shuffling (the default generator of
            the data's device when None).
        collate_fn: builds a batch from a list of samples (general datasets only).

    Example:
        >>> import gtensor as gt
        >>> ds = TensorDataset(gt.randn(10, 3), gt.arange(10))
        >>> [len(y) for _, y in DataLoader(ds, batch_size=4)]
        [4, 4, 2]
    """

    def __init__(self, dataset: Dataset, batch_size: int = 1, shuffle: bool = False,
                 drop_last: bool = False, generator: Generator | None = None,
                 collate_fn: Callable[[Sequence[Any]], Any] | None = None) -> None:
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"[DataLoader] batch_size must be a positive int, got {batch_size}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.generator = generator
        self.collate_fn = collate_fn or default_collate

    def __len__(self) -> int:
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)

    def _order(self, n: int, dev: Any) -> Tensor | None:
        if not self.shuffle:
            return None
        where = dev if self.generator is None else self.generator.device
        perm = randperm(n, generator=self.generator, device=where)
        return perm if perm.device == dev else perm.to(dev)

    def __iter__(self) -> Iterator[Any]:
        n = len(self.dataset)
        stop = n - n % self.batch_size if self.drop_last else n
        if isinstance(self.dataset, TensorDataset):
            yield from self._tensor_batches(self.dataset, stop)
            return
        order = self._order(n, self.generator.device if self.generator else "cpu")
        idx = list(range(n)) if order is None else order.tolist()
        for start in range(0, stop, self.batch_size):
            batch = idx[start:start + self.batch_size]
            yield self.collate_fn([self.dataset[i] for i in batch])

    def _tensor_batches(self, ds: TensorDataset, stop: int) -> Iterator[tuple[Tensor, ...]]:
        order = self._order(len(ds), ds.tensors[0].device)
        for start in range(0, stop, self.batch_size):
            size = min(self.batch_size, stop - start)
            if order is None:
                yield tuple(t.narrow(0, start, size) for t in ds.tensors)
            else:
                rows = order.narrow(0, start, size)
                yield tuple(t.index_select(0, rows) for t in ds.tensors)
