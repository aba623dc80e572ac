"""Timing one workload: warm-up, an inner loop sized to the clock, synchronized samples.

A sample runs the call ``number`` times between two synchronized reads of
``time.perf_counter`` and records the mean per call; ``number`` is chosen
after the warm-up, from batches timed until one lasts a tenth of a sample,
so that one sample lasts about ``sample_s``. The harness takes
a few samples per turn and alternates libraries between turns; the reported
time is the median of all samples.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from .registry import Workload


@dataclass(frozen=True)
class TimingConfig:
    """How long to warm up and how many interleaved samples to take.

    Args:
        warmup_s: minimum warm-up time (the first call, which may compile, is always run).
        warmup_calls: minimum number of warm-up calls.
        sample_s: target duration of one sample (sets the inner-loop count).
        rounds: interleaved rounds; each library takes ``per_turn`` samples per round.
        per_turn: samples per library per round.
        max_number: cap on the inner-loop count.
        settle_s: pause between two libraries' turns when they run in separate processes.

    Example:
        >>> TimingConfig.for_preset("quick").rounds
        5
    """

    warmup_s: float
    warmup_calls: int
    sample_s: float
    rounds: int
    per_turn: int = 1
    max_number: int = 10_000
    settle_s: float = 0.0

    @classmethod
    def for_preset(cls, preset: str) -> TimingConfig:
        """Return the settings used for ``tiny`` (tests), ``quick`` or ``full`` runs."""
        if preset == "tiny":
            return cls(warmup_s=0.0, warmup_calls=1, sample_s=0.001, rounds=2, max_number=10)
        if preset == "quick":
            return cls(warmup_s=0.05, warmup_calls=2, sample_s=0.02, rounds=5, settle_s=0.05)
        return cls(warmup_s=0.5, warmup_calls=3, sample_s=0.1, rounds=15, settle_s=0.2)

    def to_json(self) -> dict[str, Any]:
        """Return the settings as a dict."""
        return asdict(self)


class Timer:
    """Warms up and samples one workload.

    Args:
        workload: the case's workload for one library.
        sync: waits for the library's device work (a no-op on the host).
        config: the timing settings.

    Example:
        >>> t = Timer(Workload(lambda: sum(range(100))), lambda: None,
        ...           TimingConfig.for_preset("tiny"))
        >>> t.warm_up() >= 1
        True
        >>> len(t.samples(2))
        2
    """

    def __init__(self, workload: Workload, sync: Callable[[], None], config: TimingConfig) -> None:
        self.workload = workload
        self.sync = sync
        self.config = config
        self.number = 1
        self.first_call_s = 0.0

    def _run(self, number: int) -> float:
        fn = self.workload.fn
        self.sync()
        start = time.perf_counter()
        for _ in range(number):
            fn()
        self.sync()
        return time.perf_counter() - start

    def warm_up(self) -> int:
        """Run the warm-up and choose the inner-loop count; return that count."""
        if self.workload.self_timed:
            return 1
        cfg = self.config
        self.first_call_s = self._run(1)
        calls, spent = 1, self.first_call_s
        while calls < cfg.warmup_calls or spent < cfg.warmup_s:
            spent += self._run(1)
            calls += 1
        self.number = self._calibrate()
        return self.number

    def _calibrate(self) -> int:
        """Choose the inner-loop count from a timed batch, not from one call.

        The last warm-up call alone can be an outlier (a compile on the third
        call, a garbage collection), which once left a 20 µs case sampled two
        calls at a time. Batches double until one lasts a tenth of a sample.
        """
        cfg = self.config
        number, spent = 1, self._run(1)
        while spent < cfg.sample_s / 10 and number < cfg.max_number:
            number = min(cfg.max_number, number * 2)
            spent = self._run(number)
        per_call = max(spent / number, 1e-9)
        return max(1, min(cfg.max_number, math.ceil(cfg.sample_s / per_call)))

    def samples(self, count: int) -> list[float]:
        """Take ``count`` samples; each is the mean time of one call, in seconds."""
        if self.workload.self_timed:
            return [float(self.workload.fn()) for _ in range(count)]
        return [self._run(self.number) / self.number for _ in range(count)]


def median(values: list[float]) -> float:
    """Return the median of ``values`` (NaN for none).

    Example:
        >>> median([3.0, 1.0, 2.0])
        2.0
    """
    return statistics.median(values) if values else math.nan
