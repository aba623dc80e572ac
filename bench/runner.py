"""Running cases: warm up every library, then alternate their samples round by round.

The order of libraries rotates each round, so none always runs right after
another. A case is isolated (each library in its own worker subprocess) when
the isolation rule says so; see :func:`should_isolate`.
"""

from __future__ import annotations

import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any

from .registry import Case
from .sessions import SessionPool
from .timing import TimingConfig, median


@dataclass
class LibraryResult:
    """One library's outcome on one case.

    Example:
        >>> LibraryResult("ok", [1.0, 3.0, 2.0]).median_s
        2.0
    """

    status: str
    samples: list[float] = field(default_factory=list)
    number: int = 0
    first_call_s: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median_s(self) -> float | None:
        """The median sample in seconds, or ``None`` when the library did not run."""
        return median(self.samples) if self.status == "ok" and self.samples else None

    def to_json(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict (with ``median_s``)."""
        return {**asdict(self), "median_s": self.median_s}


@dataclass
class CaseResult:
    """All libraries' outcomes on one case, plus its parameters and work counts."""

    name: str
    summary: str
    params: dict[str, Any]
    isolated: bool
    work: dict[str, float]
    results: dict[str, LibraryResult]

    def ratio(self, reference: str) -> float | None:
        """gtensor's median time divided by ``reference``'s (below 1: gtensor is faster)."""
        mine = self.results.get("gtensor")
        theirs = self.results.get(reference)
        if mine is None or theirs is None or mine.median_s is None or not theirs.median_s:
            return None
        return mine.median_s / theirs.median_s

    def rate(self, library: str = "gtensor") -> tuple[float, str] | None:
        """Achieved throughput of ``library`` as ``(value, unit)``: GB/s, GFLOP/s or items/s."""
        res = self.results.get(library)
        if res is None or not res.median_s:
            return None
        t = res.median_s
        if "flops" in self.work:
            return self.work["flops"] / t / 1e9, "GFLOP/s"
        if "bytes" in self.work:
            return self.work["bytes"] / t / 1e9, "GB/s"
        if "items" in self.work:
            return self.work["items"] / t, "items/s"
        return None


def should_isolate(case: Case, device: str, libraries: list[str], mode: str) -> bool:
    """Decide whether each library runs ``case`` in its own worker subprocess.

    ``auto`` isolates thread-pool-heavy cases on the CPU (one library's spinning
    BLAS or Numba threads slow the next one down) and every case on CUDA (gtensor
    installs its allocator into CuPy in its own process); ``always``/``never`` force it.
    Cases that start their own subprocesses are never isolated.

    Example:
        >>> from bench.registry import get_case
        >>> should_isolate(get_case("memory.allocator_churn"), "cpu", ["gtensor", "numpy"], "auto")
        False
    """
    if case.in_process or mode == "never" or len(libraries) < 2 and mode == "auto":
        return False
    if mode == "always":
        return True
    return device == "cuda" or case.threaded


def run_case(case: Case, libraries: list[str], pool: SessionPool, preset: str,
             timing: TimingConfig, isolate: bool,
             params: dict[str, Any] | None = None) -> CaseResult:
    """Time ``case`` for every library in ``libraries`` and return the results.

    Args:
        case: the registered case.
        libraries: library names, gtensor first.
        pool: where the sessions come from.
        preset: ``tiny``, ``quick`` or ``full`` (chooses the case's sizes).
        timing: warm-up and sampling settings.
        isolate: run each library in its own worker subprocess.
        params: overrides of the preset's size parameters.

    Returns:
        The case's results.

    Example:
        >>> from bench.registry import get_case
        >>> with SessionPool("cpu") as pool:
        ...     r = run_case(get_case("copy.contiguous_transpose"), ["numpy"], pool, "tiny",
        ...                  TimingConfig.for_preset("tiny"), isolate=False)
        >>> r.results["numpy"].status
        'ok'
    """
    p = {**case.params(preset), **(params or {})}
    sessions = {name: pool.get(name, isolate) for name in libraries}
    results: dict[str, LibraryResult] = {}
    work: dict[str, float] = {}
    for name, session in sessions.items():
        info = session.prepare(case.name, p, timing)
        results[name] = LibraryResult(info["status"], number=int(info.get("number", 0)),
                                      first_call_s=info.get("first_call_s"))
        work = work or dict(info.get("work", {}))
    running = [n for n in libraries if results[n].status == "ok"]
    rounds = min(timing.rounds, case.max_rounds or timing.rounds)
    for r in range(rounds):
        shift = r % max(1, len(running))
        for name in running[shift:] + running[:shift]:
            if isolate and timing.settle_s:
                time.sleep(timing.settle_s)
            try:
                results[name].samples.extend(sessions[name].sample(timing.per_turn))
            except Exception as exc:
                traceback.print_exc(file=sys.stderr)
                results[name].status = f"error: {type(exc).__name__}: {exc}"
        running = [n for n in running if results[n].status == "ok"]
    for name in running:
        results[name].extra = sessions[name].finish()
    return CaseResult(case.name, case.summary, p, isolate, work, results)
