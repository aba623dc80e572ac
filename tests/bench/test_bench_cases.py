"""Every registered case runs at tiny size for gtensor and NumPy on the CPU."""

from __future__ import annotations

import pytest

from bench.registry import all_cases
from bench.runner import run_case
from bench.sessions import SessionPool
from bench.timing import TimingConfig

ONE_ROUND = TimingConfig(warmup_s=0.0, warmup_calls=1, sample_s=0.001, rounds=1, max_number=5)


def _marks(c):
    return [pytest.mark.slow] if c.name.startswith("startup.") else []


@pytest.mark.parametrize(
    "c", [pytest.param(c, id=c.name, marks=_marks(c)) for c in all_cases() if "cpu" in c.devices])
def test_case_runs_at_tiny_size(c) -> None:
    with SessionPool("cpu") as pool:
        r = run_case(c, ["gtensor", "numpy"], pool, "tiny", ONE_ROUND, isolate=False)
    for name, res in r.results.items():
        assert res.status == "ok", f"{name}: {res.status}"
        assert res.median_s is not None and res.median_s > 0
