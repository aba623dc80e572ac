"""Every registered case runs at tiny size for gtensor and its CPU references.

gtensor must run every case; a reference may report a case unsupported (NumPy
has no autograd) but must not fail. PyTorch joins when it is importable.
"""

from __future__ import annotations

import importlib.util

import pytest

import gtensor as gt
from bench.registry import all_cases, get_case
from bench.runner import run_case
from bench.sessions import SessionPool
from bench.timing import TimingConfig

ONE_ROUND = TimingConfig(warmup_s=0.0, warmup_calls=1, sample_s=0.001, rounds=1, max_number=5)
LIBRARIES = ["gtensor", "numpy"] + (["torch"] if importlib.util.find_spec("torch") else [])


def _marks(c):
    return [pytest.mark.slow] if c.name.startswith("startup.") else []


@pytest.mark.parametrize(
    "c", [pytest.param(c, id=c.name, marks=_marks(c)) for c in all_cases() if "cpu" in c.devices])
def test_case_runs_at_tiny_size(c) -> None:
    with SessionPool("cpu") as pool:
        r = run_case(c, LIBRARIES, pool, "tiny", ONE_ROUND, isolate=False)
    for name, res in r.results.items():
        if name != "gtensor" and res.status.startswith("unsupported"):
            continue
        assert res.status == "ok", f"{name}: {res.status}"
        assert res.median_s is not None and res.median_s > 0


def test_caching_setting_is_restored() -> None:
    with SessionPool("cpu") as pool:
        run_case(get_case("memory.temporaries_uncached"), ["gtensor"], pool, "tiny", ONE_ROUND,
                 isolate=False)
    assert gt.memory.allocator_for("cpu").config.caching
