"""DataLoader: batches of a dataset, in a sampler's order.

Over a :class:`TensorDataset` (or a :class:`Subset` of one) with the default
collation each batch is gathered with one ``index_select`` per tensor on the
tensors' device. A TensorDataset read in its own order is cut with ``narrow``,
or, when shuffled, gathered at a permutation that :func:`gtensor.randperm`
draws on the data's device. Other datasets are read sample by sample in the
batch sampler's order and batched by ``collate_fn``. Shuffling draws from
gtensor's generators, so ``gt.manual_seed`` makes epochs reproducible.

With ``num_workers > 0`` worker processes build whole batches (see
:mod:`.multiprocess`); with 0 everything happens in the calling process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ...generator import Generator, default_generator
from ...ops.random import randint
from ...ops.random_extra import randperm
from ...tensor import Tensor
from .collate import default_collate
from .dataset import Dataset, TensorDataset
from .fetch import BatchFetcher, gather, rows_source
from .multiprocess import MultiProcessIter, WorkerPool
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


def _check_workers(num_workers: Any, timeout: Any, prefetch_factor: Any,
                   persistent_workers: bool) -> int | None:
    """Validate the worker options as PyTorch does; return the prefetch factor in effect."""
    if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 0:
        raise ValueError("[DataLoader] num_workers option should be a non-negative int; use "
                         f"num_workers=0 to disable multiprocessing, got {num_workers!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
        raise ValueError(f"[DataLoader] timeout option should be non-negative, got {timeout!r}")
    if num_workers == 0:
        if prefetch_factor is not None:
            raise ValueError("[DataLoader] prefetch_factor option could only be specified in "
                             "multiprocessing; let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None")
        if persistent_workers:
            raise ValueError("[DataLoader] persistent_workers option needs num_workers > 0")
        return None
    if prefetch_factor is None:
        return 2
    if isinstance(prefetch_factor, bool) or not isinstance(prefetch_factor, int) \
            or prefetch_factor <= 0:
        raise ValueError("[DataLoader] prefetch_factor option should be a positive int, got "
                         f"{prefetch_factor!r}")
    return prefetch_factor


def _context(context: Any, num_workers: int) -> Any:
    """The multiprocessing context that starts the workers (spawn unless told otherwise)."""
    if context is None:
        return multiprocessing.get_context("spawn") if num_workers else None
    if not num_workers:
        raise ValueError("[DataLoader] multiprocessing_context can only be used with "
                         "multi-process loading (num_workers > 0), but got num_workers=0")
    if isinstance(context, str):
        methods = multiprocessing.get_all_start_methods()
        if context not in methods:
            raise ValueError(f"[DataLoader] multiprocessing_context relies on start method "
                             f"{context!r}; the supported ones are {methods}")
        return multiprocessing.get_context(context)
    if not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError("[DataLoader] multiprocessing_context option should be a start method "
                        f"name or a multiprocessing context, got {type(context).__name__}")
    return context


class DataLoader:
    """Iterate over a dataset in batches, optionally shuffled each epoch, optionally in workers.

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
        num_workers: how many worker processes build batches (0: the calling
            process does). Each worker gets a pickled copy of the dataset and
            ``collate_fn``, so both must pickle (module-level definitions).
        pin_memory: accepted for PyTorch compatibility; a no-op (cpu tensors
            are already in host memory that device copies read).
        timeout: seconds to wait for a batch from the workers before a
            RuntimeError (0: wait forever).
        worker_init_fn: called in each worker with its id, after seeding and
            before its first batch.
        multiprocessing_context: a :mod:`multiprocessing` context or start
            method name; default ``"spawn"``. Forking a process whose Numba
            OpenMP/TBB thread pools have started is not safe, so choose
            ``"fork"`` only before any parallel kernel has run. With spawn,
            a script must guard its entry point with
            ``if __name__ == "__main__":``.
        prefetch_factor: batches in flight per worker (default 2 with workers;
            must stay None without them).
        persistent_workers: keep the workers (and their dataset copies) from
            one epoch to the next instead of starting them anew.

    Each epoch draws a base seed from gtensor's default cpu generator and
    worker ``i`` seeds gtensor's default generators, ``random`` and NumPy's
    global RNG with ``base_seed + i`` (persistent workers once, when started),
    so random augmentations differ between workers; :func:`get_worker_info`
    tells code in a worker its id, seed and dataset copy. Batches arrive in
    the sampler's order whatever order the workers finish them in, so with a
    ``generator`` for shuffling they are the batches of ``num_workers=0``.

    Raises:
        ValueError: a bad ``batch_size``, worker option, or an excluded
            combination of options.

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
                 batch_sampler: Sampler | Iterable[list[Any]] | None = None,
                 num_workers: int = 0, pin_memory: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context: str | Any | None = None,
                 prefetch_factor: int | None = None,
                 persistent_workers: bool = False) -> None:
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"[DataLoader] batch_size must be a positive int, got {batch_size}")
        if sampler is not None and shuffle:
            raise ValueError("[DataLoader] sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None
                                          or drop_last):
            raise ValueError("[DataLoader] batch_sampler option is mutually exclusive with "
                             "batch_size, shuffle, sampler, and drop_last")
        self.num_workers = num_workers
        self.prefetch_factor = _check_workers(num_workers, timeout, prefetch_factor,
                                              persistent_workers)
        self.multiprocessing_context = _context(multiprocessing_context, num_workers)
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self._pool: WorkerPool | None = None
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
        if self.num_workers == 0:
            return self._in_process()
        pool = self._pool
        if pool is None or not pool.alive:
            base_seed = int(randint(0, 2**62, (1,), generator=default_generator).item())
            fetch = BatchFetcher(self.dataset, self.collate_fn, self._default_collate)
            pool = WorkerPool(fetch, self.num_workers, self.multiprocessing_context,
                              base_seed, self.worker_init_fn)
            self._pool = pool if self.persistent_workers else None
        assert self.prefetch_factor is not None
        return MultiProcessIter(pool, self.batch_sampler, self.prefetch_factor * self.num_workers,
                                self.timeout, self.persistent_workers)

    def _in_process(self) -> Iterator[Any]:
        source = rows_source(self.dataset) if self._default_collate else None
        if source is not None and self._own_order and source[1] is None:
            yield from self._tensor_batches(source[0])
            return
        for batch in self.batch_sampler:
            if source is None:
                yield self.collate_fn([self.dataset[i] for i in batch])
            else:
                yield gather(source[0], batch if source[1] is None else
                             [source[1][i] for i in batch])

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
