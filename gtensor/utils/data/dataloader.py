"""DataLoader: batches of a dataset, in a sampler's order.

Over a :class:`TensorDataset` (or a :class:`Subset` of one) with the default
collation each batch is gathered with one ``index_select`` per tensor on the
tensors' device. A TensorDataset read in its own order is cut with ``narrow``,
or, when shuffled, gathered at a permutation that :func:`gtensor.randperm`
draws on the data's device. Other datasets are read sample by sample in the
batch sampler's order and batched by ``collate_fn``. Shuffling draws from
gtensor's generators, so ``gt.manual_seed`` makes epochs reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ...generator import Generator
from ...ops.creation import tensor
from ...ops.random_extra import randperm
from ...tensor import Tensor
from .collate import default_collate
from .dataset import Dataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


def _rows_source(ds: Any) -> tuple[TensorDataset, list[int] | None] | None:
    """The TensorDataset under ``ds`` and the map from ``ds``'s indices to its rows, if any."""
    rows: list[int] | None = None
    while isinstance(ds, Subset):
        idx = list(ds.indices)
        rows = idx if rows is None else [idx[i] for i in rows]
        ds = ds.dataset
    return (ds, rows) if isinstance(ds, TensorDataset) else None


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
        collate_fn: builds a batch from a list of samples (the TensorDataset
            fast path applies when it is None).
        sampler: the order of sample indices (excludes ``shuffle``).
        batch_sampler: yields whole lists of indices (excludes ``batch_size``,
            ``shuffle``, ``sampler`` and ``drop_last``).

    Raises:
        ValueError: a bad ``batch_size`` or an excluded combination of options.

    Example:
        >>> import gtensor as gt
        >>> ds = TensorDataset(gt.randn(10, 3), gt.arange(10))
        >>> [len(y) for _, y in DataLoader(ds, batch_size=4)]
        [4, 4, 2]
    """

    def __init__(self, dataset: Dataset, batch_size: int = 1, shuffle: bool = False,
                 drop_last: bool = False, generator: Generator | None = None,
                 collate_fn: Callable[[Sequence[Any]], Any] | None = None, *,
                 sampler: Sampler | Iterable[Any] | None = None,
                 batch_sampler: Sampler | Iterable[list[Any]] | None = None) -> None:
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"[DataLoader] batch_size must be a positive int, got {batch_size}")
        if sampler is not None and shuffle:
            raise ValueError("[DataLoader] sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None
                                          or drop_last):
            raise ValueError("[DataLoader] batch_sampler option is mutually exclusive with "
                             "batch_size, shuffle, sampler, and drop_last")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.generator = generator
        self._default_collate = collate_fn is None
        self.collate_fn = collate_fn or default_collate
        self._own_order = sampler is None and batch_sampler is None
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else \
                SequentialSampler(dataset)
        self.sampler = sampler
        self.batch_sampler = batch_sampler if batch_sampler is not None else \
            BatchSampler(sampler, batch_size, drop_last)

    def __len__(self) -> int:
        return len(self.batch_sampler)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Any]:
        source = _rows_source(self.dataset) if self._default_collate else None
        if source is not None and self._own_order and source[1] is None:
            yield from self._tensor_batches(source[0])
            return
        for batch in self.batch_sampler:
            if source is None:
                yield self.collate_fn([self.dataset[i] for i in batch])
            else:
                yield self._gather(source[0], batch if source[1] is None else
                                   [source[1][i] for i in batch])

    @staticmethod
    def _gather(ds: TensorDataset, rows: list[int]) -> tuple[Tensor, ...]:
        dev = ds.tensors[0].device
        index = tensor(rows, device=dev)
        return tuple(t.index_select(0, index) for t in ds.tensors)

    def _order(self, n: int, dev: Any) -> Tensor | None:
        if not self.shuffle:
            return None
        where = dev if self.generator is None else self.generator.device
        perm = randperm(n, generator=self.generator, device=where)
        return perm if perm.device == dev else perm.to(dev)

    def _tensor_batches(self, ds: TensorDataset) -> Iterator[tuple[Tensor, ...]]:
        n = len(ds)
        stop = n - n % self.batch_size if self.drop_last else n
        order = self._order(n, ds.tensors[0].device)
        for start in range(0, stop, self.batch_size):
            size = min(self.batch_size, stop - start)
            if order is None:
                yield tuple(t.narrow(0, start, size) for t in ds.tensors)
            else:
                rows = order.narrow(0, start, size)
                yield tuple(t.index_select(0, rows) for t in ds.tensors)
