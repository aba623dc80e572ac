"""The harness on real cases at tiny sizes: timing, isolation, JSON, table and chart."""

from __future__ import annotations

import json
import math

import pytest

from bench.libraries import Availability, Library, probe
from bench.plot import plot_ratios
from bench.registry import Workload, get_case, select
from bench.report import format_time, table
from bench.results import SCHEMA, validate, write
from bench.runner import run_case, should_isolate
from bench.sessions import SessionPool
from bench.suite import run_suite
from bench.timing import Timer, TimingConfig

TINY = TimingConfig.for_preset("tiny")


def test_timer_takes_requested_samples_and_calibrates() -> None:
    calls = []
    t = Timer(Workload(lambda: calls.append(1)), lambda: None, TINY)
    number = t.warm_up()
    samples = t.samples(3)
    assert 1 <= number <= TINY.max_number
    assert len(samples) == 3 and all(s >= 0 for s in samples)
    assert len(calls) >= 1 + 3 * number


def test_self_timed_workload_reports_its_own_seconds() -> None:
    t = Timer(Workload(lambda: 0.25, self_timed=True), lambda: None, TINY)
    assert t.warm_up() == 1
    assert t.samples(2) == [0.25, 0.25]


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
def test_run_case_times_gtensor_and_numpy(isolate: bool) -> None:
    c = get_case("copy.contiguous_transpose")
    with SessionPool("cpu") as pool:
        r = run_case(c, ["gtensor", "numpy"], pool, "tiny", TINY, isolate, {"n": 16})
    assert r.isolated is isolate
    assert r.params == {"n": 16}
    assert r.work == {"bytes": 2 * 16 * 16 * 4}
    for name in ("gtensor", "numpy"):
        res = r.results[name]
        assert res.status == "ok", res.status
        assert len(res.samples) == TINY.rounds * TINY.per_turn
        assert res.median_s is not None and res.median_s > 0
    ratio = r.ratio("numpy")
    assert ratio is not None and math.isfinite(ratio)
    assert r.rate() is not None and r.rate()[1] == "GB/s"


def test_allocator_churn_reports_allocator_stats() -> None:
    c = get_case("memory.allocator_churn")
    with SessionPool("cpu") as pool:
        r = run_case(c, ["gtensor", "numpy"], pool, "tiny", TINY, False)
    stats = r.results["gtensor"].extra.get("allocator_stats")
    assert stats and stats["allocation.all.allocated"] >= c.params("tiny")["count"]
    assert r.results["numpy"].extra == {}
    assert r.rate()[1] == "items/s"


def test_failing_library_is_reported_not_raised() -> None:
    c = get_case("copy.contiguous_transpose")
    with SessionPool("cpu") as pool:
        r = run_case(c, ["numpy"], pool, "tiny", TINY, False, {"n": -1})
    assert r.results["numpy"].status.startswith("error")
    assert r.results["numpy"].median_s is None


def test_library_failing_while_sampling_is_dropped_and_reported(monkeypatch) -> None:
    calls = {"n": 0}

    def flaky(lib, n):
        def fn():
            calls["n"] += 1
            if calls["n"] > 2:
                raise RuntimeError("broke")
        return Workload(fn, bytes=1)

    real = get_case("copy.contiguous_transpose")
    fake = type(real)(real.name, flaky, real.sizes)
    monkeypatch.setattr("bench.sessions.get_case", lambda name: fake)
    with SessionPool("cpu") as pool:
        r = run_case(fake, ["numpy"], pool, "tiny", TINY, False)
    assert r.results["numpy"].status == "error: RuntimeError: broke"
    assert r.results["numpy"].median_s is None


def test_isolation_rule() -> None:
    threaded, churn = get_case("copy.contiguous_transpose"), get_case("memory.allocator_churn")
    startup = get_case("startup.first_result_empty_cache")
    two = ["gtensor", "numpy"]
    assert should_isolate(threaded, "cpu", two, "auto")
    assert not should_isolate(churn, "cpu", two, "auto")
    assert should_isolate(churn, "cuda", two, "auto")
    assert not should_isolate(startup, "cuda", two, "always")
    assert not should_isolate(threaded, "cpu", ["gtensor"], "auto")
    assert not should_isolate(threaded, "cpu", two, "never")


def test_absent_references_are_reported_with_a_reason() -> None:
    cupy = probe("cupy", "cpu")
    assert not cupy.available and cupy.reason
    assert probe("numpy", "cuda").where == "host"


@pytest.fixture(scope="module")
def tiny_run():
    return run_suite(select(["copy", "memory.allocator_churn"], "cpu"), "cpu", "tiny",
                     libraries=["gtensor", "numpy", "torch", "cupy"])


def test_result_document_schema_and_round_trip(tiny_run, tmp_path) -> None:
    doc = tiny_run.doc
    validate(doc)
    assert doc["schema"] == SCHEMA
    machine = doc["machine"]
    assert machine["cpu"] and machine["cores"] >= 1 and "gpus" in machine
    assert machine["versions"]["numpy"] and machine["versions"]["gtensor"]
    assert doc["libraries"]["cupy"]["available"] is False
    assert doc["ceilings"]["copy_gbps"] > 0 and doc["ceilings"]["matmul_gflops"] > 0
    names = [c["name"] for c in doc["cases"]]
    assert names == ["copy.contiguous_transpose", "memory.allocator_churn"]
    for entry in doc["cases"]:
        assert entry["results"]["gtensor"]["status"] == "ok"
        assert entry["ratios"]["numpy"] > 0
        assert "cupy" not in entry["results"]
    path = write(doc, tmp_path / "sub" / "run.json")
    validate(json.loads(path.read_text()))


def test_validate_rejects_a_broken_document(tiny_run) -> None:
    with pytest.raises(ValueError, match="schema"):
        validate({**tiny_run.doc, "schema": "other"})
    broken = json.loads(json.dumps(tiny_run.doc))
    del broken["cases"][0]["ratios"]
    with pytest.raises(ValueError, match="lacks"):
        validate(broken)


def test_table_lists_cases_ratios_absent_libraries_and_ceilings(tiny_run) -> None:
    text = table(tiny_run.results, tiny_run.libraries, tiny_run.ceilings)
    header = text.splitlines()[0].split()
    assert header[:6] == ["case", "params", "gtensor", "numpy", "torch", "cupy"]
    assert "copy.contiguous_transpose †" in text
    assert "memory.allocator_churn" in text
    assert "absent" in text and "cupy (" in text
    assert "GB/s" in text and "Ceilings: copy" in text
    assert "isolated: each library ran this case in its own subprocess" in text
    assert "x)" in text


def test_plot_writes_a_png(tiny_run, tmp_path) -> None:
    path = plot_ratios(tiny_run.doc, tmp_path / "ratios.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_format_time_units() -> None:
    assert format_time(2.0) == "2 s"
    assert format_time(3.5e-6) == "3.5 µs"
    assert format_time(None) == "-"


def test_library_adapter_gives_identical_inputs() -> None:
    a = Library("gtensor", "cpu")
    b = Library("numpy", "cpu")
    assert (a.to_host(a.randn(3, 4)) == b.to_host(b.randn(3, 4))).all()
    assert Availability("x", False, reason="r").to_json()["reason"] == "r"
