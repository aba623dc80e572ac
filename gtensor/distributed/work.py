"""Work handles of asynchronous collectives, ``ReduceOp`` and ``DistBackendError``.

A :class:`Work` waits for its backend requests by polling them against a
deadline (the process group's ``timeout``), so a peer that died or hangs makes
``wait()`` raise :class:`DistBackendError` instead of blocking forever.
"""

from __future__ import annotations

import enum
import os
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from ..errors import GTensorError

# A wait polls without sleeping (yielding the core) this long, as MPI_Wait spins, so a short
# collective is not stretched by a sleep; a longer one then sleeps between polls, up to 1 ms.
SPIN_SECONDS = 0.05


class DistBackendError(GTensorError):
    """A collective failed: a peer died, raised, timed out, or the backend reported an error."""


class ReduceOp(enum.Enum):
    """How ``all_reduce`` and friends combine the ranks' values (``torch.distributed.ReduceOp``)."""

    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"


class Work:
    """Handle of one collective: ``wait()`` blocks until it is done, ``is_completed()`` polls.

    Args:
        test: returns True once the backend's requests completed (never blocks).
        finish: runs once after completion (copies results back into the tensors).
        timeout: how long ``wait`` may take before it raises.
        what: the collective's name, for error messages.

    After completion ``result`` holds what ``finish`` returned.

    Example:
        >>> from datetime import timedelta
        >>> work = Work(lambda: True, lambda: "copied back", timedelta(seconds=1), "all_reduce")
        >>> work.is_completed(), work.wait(), work.result
        (True, True, 'copied back')
    """

    def __init__(self, test: Callable[[], bool], finish: Callable[[], Any] | None,
                 timeout: timedelta, what: str) -> None:
        self._test = test
        self._finish = finish
        self._timeout = timeout
        self._what = what
        self._done = False
        self._started = time.monotonic()
        self.result: Any = None

    def is_completed(self) -> bool:
        """True once the collective completed and its results were written (does not block)."""
        if not self._done and self._test():
            self._complete()
        return self._done

    def wait(self, timeout: timedelta | None = None) -> bool:
        """Block until done; raise :class:`DistBackendError` past the deadline."""
        if self._done:
            return True
        limit = (timeout or self._timeout).total_seconds()
        now = time.monotonic()
        deadline = self._started + limit if timeout is None else now + limit
        spin_until = now + SPIN_SECONDS
        pause = 1e-5
        while not self._test():
            now = time.monotonic()
            if now > deadline:
                raise DistBackendError(
                    f"[{self._what}] timed out after {limit:g} s waiting for the other ranks; "
                    "a rank may have died, raised or be stuck elsewhere")
            if now < spin_until:
                os.sched_yield()
            else:
                time.sleep(pause)
                pause = min(pause * 2, 1e-3)
        self._complete()
        return True

    def _complete(self) -> None:
        self._done = True
        if self._finish is not None:
            self.result = self._finish()
            self._finish = None

