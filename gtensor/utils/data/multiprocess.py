"""Worker processes for a DataLoader: the pool that owns them and the iterator of one epoch.

Batches are handed out as ``(epoch, task, indices)`` round-robin over the
workers' index queues, at most ``prefetch_factor * num_workers`` at a time;
results come back on one queue in whatever order workers finish and are
yielded in the batch sampler's order.
"""

from __future__ import annotations

import os
import pickle
import queue
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .worker import POLL_INTERVAL, WorkerError, worker_loop

JOIN_TIMEOUT = 5.0
"""Seconds a worker gets to exit on its own before it is terminated."""


class WorkerPool:
    """``num_workers`` processes fetching batches with ``fetch``, started at construction.

    Args:
        fetch: builds a batch from a list of indices (pickled to each worker).
        num_workers: how many processes.
        context: the multiprocessing context that starts them.
        base_seed: worker ``i`` seeds its generators with ``base_seed + i``.
        init_fn: called with the worker id in each worker before its first batch.

    Raises:
        PicklingError, AttributeError: ``fetch`` or ``init_fn`` cannot be pickled
            for a spawned worker (the workers already started are stopped).
    """

    def __init__(self, fetch: Callable[[list[Any]], Any], num_workers: int, context: Any,
                 base_seed: int, init_fn: Callable[[int], None] | None) -> None:
        self.result_queue = context.Queue()
        self.done_event = context.Event()
        self.index_queues: list[Any] = []
        self.workers: list[Any] = []
        self.epoch = 0
        try:
            for i in range(num_workers):
                index_queue = context.Queue()
                index_queue.cancel_join_thread()
                proc = context.Process(
                    target=worker_loop, daemon=True,
                    args=(fetch, index_queue, self.result_queue, self.done_event, base_seed,
                          init_fn, i, num_workers, os.getpid()))
                proc.start()
                self.index_queues.append(index_queue)
                self.workers.append(proc)
        except BaseException:
            self.shutdown()
            raise

    @property
    def alive(self) -> bool:
        """Whether the pool still has all its workers running."""
        return bool(self.workers) and all(w.is_alive() for w in self.workers)

    def check_workers(self) -> None:
        """Raise RuntimeError naming the first worker that has died."""
        for i, w in enumerate(self.workers):
            if not w.is_alive():
                pids = ", ".join(str(p.pid) for p in self.workers if not p.is_alive())
                self.shutdown()
                raise RuntimeError(f"[DataLoader] worker {i} (pid(s) {pids}) exited "
                                   f"unexpectedly with exit code {w.exitcode}")

    def shutdown(self) -> None:
        """Stop the workers: ask, join with a timeout, then terminate what is left."""
        if not self.workers and not self.index_queues:
            return
        self.done_event.set()
        for q in self.index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + JOIN_TIMEOUT
        for w in self.workers:
            w.join(timeout=max(0.0, deadline - time.monotonic()))
        for w in self.workers:
            if w.is_alive():
                w.terminate()
                w.join(timeout=JOIN_TIMEOUT)
        for q in [*self.index_queues, self.result_queue]:
            q.cancel_join_thread()
            q.close()
        self.workers, self.index_queues = [], []

    def __del__(self) -> None:
        self.shutdown()


class MultiProcessIter(Iterator[Any]):
    """One epoch of batches fetched by a :class:`WorkerPool`, in the batch sampler's order.

    Args:
        pool: the workers (shut down at the end unless ``persistent``).
        batches: the epoch's lists of indices.
        prefetch: how many batches may be in flight at once.
        timeout: seconds to wait for a batch before RuntimeError (0: forever).
        persistent: leave the pool running when the epoch ends.

    Example:
        >>> import multiprocessing
        >>> from gtensor.utils.data.fetch import BatchFetcher
        >>> ctx = multiprocessing.get_context("spawn")
        >>> pool = WorkerPool(BatchFetcher(range(5), list, False), 2, ctx, 0, None)
        >>> list(MultiProcessIter(pool, [[4, 0], [1], [3, 2]], 4, 60, False))
        [[4, 0], [1], [3, 2]]
    """

    def __init__(self, pool: WorkerPool, batches: Iterable[list[Any]], prefetch: int,
                 timeout: float, persistent: bool) -> None:
        pool.epoch += 1
        self.pool, self.epoch = pool, pool.epoch
        self.batches = iter(batches)
        self.timeout, self.persistent = timeout, persistent
        self.sent = self.received = 0
        self.ready: dict[int, Any] = {}
        self.exhausted = False
        for _ in range(prefetch):
            self._send()

    def _send(self) -> None:
        if self.exhausted:
            return
        indices = next(self.batches, None)
        if indices is None:
            self.exhausted = True
            return
        queues = self.pool.index_queues
        queues[self.sent % len(queues)].put((self.epoch, self.sent, indices))
        self.sent += 1

    def _get(self) -> tuple[int, int, Any]:
        start = time.monotonic()
        while True:
            wait = POLL_INTERVAL
            if self.timeout > 0:
                left = self.timeout - (time.monotonic() - start)
                if left <= 0:
                    self._close()
                    raise RuntimeError(f"[DataLoader] timed out after {self.timeout} seconds "
                                       "waiting for a batch")
                wait = min(wait, left)
            try:
                return self.pool.result_queue.get(timeout=wait)
            except queue.Empty:
                self.pool.check_workers()

    def __next__(self) -> Any:
        while self.received not in self.ready:
            if self.received >= self.sent:
                self._close()
                raise StopIteration
            epoch, idx, result = self._get()
            if epoch == self.epoch:
                self.ready[idx] = result
        result = self.ready.pop(self.received)
        self.received += 1
        if isinstance(result, WorkerError):
            self._close(force=True)
            result.reraise()
        self._send()
        return pickle.loads(result)

    def _close(self, force: bool = False) -> None:
        self.exhausted = True
        self.sent = self.received
        if force or not self.persistent:
            self.pool.shutdown()

    def __del__(self) -> None:
        if not self.persistent:
            self.pool.shutdown()
