"""The loop a DataLoader worker process runs, and what it knows about itself.

A worker reads ``(epoch, task, indices)`` from its own index queue, builds the
batch and puts ``(epoch, task, pickled batch or WorkerError)`` on the result
queue shared by all workers. ``None`` on the index queue, the done event or the
death of the parent process ends the loop.
"""

from __future__ import annotations

import os
import pickle
import queue
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...generator import manual_seed

POLL_INTERVAL = 1.0
"""Seconds a worker (or the main process) waits on a queue before checking on its peer."""


@dataclass(frozen=True)
class WorkerInfo:
    """What :func:`get_worker_info` tells code running in a DataLoader worker.

    Attributes:
        id: this worker's index in ``[0, num_workers)``.
        num_workers: how many workers the DataLoader started.
        seed: the seed of this worker's gtensor, ``random`` and NumPy generators.
        dataset: this worker's copy of the dataset.
    """

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """This process's :class:`WorkerInfo` inside a DataLoader worker, else None.

    As ``torch.utils.data.get_worker_info``: a dataset or ``worker_init_fn``
    reads it to tell workers apart (to split the work, or seed other libraries).

    Example:
        >>> get_worker_info() is None  # the main process
        True
    """
    return _worker_info


class WorkerError:
    """An exception raised in a worker, carried to the main process with its traceback text.

    Example:
        >>> try:
        ...     raise KeyError("k")
        ... except KeyError as e:
        ...     err = WorkerError(e, 0)
        >>> "KeyError" in err.message
        True
    """

    def __init__(self, exc: BaseException, worker_id: int) -> None:
        self.exc_type: type[BaseException] = type(exc)
        try:
            pickle.loads(pickle.dumps(self.exc_type))
        except Exception:  # a local class: the message still names it
            self.exc_type = RuntimeError
        text = "".join(traceback.format_exception(exc))
        self.message = (f"Caught {type(exc).__name__} in DataLoader worker process "
                        f"{worker_id}.\nOriginal {text}")

    def reraise(self) -> None:
        """Raise the worker's exception type (RuntimeError if it cannot be rebuilt)."""
        try:
            exc = self.exc_type(self.message)
        except Exception:
            exc = RuntimeError(self.message)
        raise exc


def seed_worker(seed: int) -> None:
    """Seed gtensor's default generators, Python's ``random`` and NumPy's global RNG."""
    manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed % 2**32)


def worker_loop(fetch: Callable[[list[Any]], Any], index_queue: Any, result_queue: Any,
                done_event: Any, base_seed: int, init_fn: Callable[[int], None] | None,
                worker_id: int, num_workers: int, parent_pid: int) -> None:
    """Fetch batches for the indices that arrive until told to stop (a process's target)."""
    global _worker_info
    seed = base_seed + worker_id
    seed_worker(seed)
    _worker_info = WorkerInfo(worker_id, num_workers, seed, getattr(fetch, "dataset", None))
    init_error = None
    if init_fn is not None:
        try:
            init_fn(worker_id)
        except Exception as e:
            init_error = WorkerError(e, worker_id)
    while not done_event.is_set():
        try:
            task = index_queue.get(timeout=POLL_INTERVAL)
        except queue.Empty:
            if os.getppid() != parent_pid:
                break
            continue
        if task is None:
            break
        epoch, idx, indices = task
        result: Any = init_error
        if result is None:
            try:
                result = pickle.dumps(fetch(indices), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as e:
                result = WorkerError(e, worker_id)
        result_queue.put((epoch, idx, result))
    result_queue.cancel_join_thread()
