"""The case registry: discovery without a hand-kept list, presets, selection."""

from __future__ import annotations

import pytest

from bench.registry import PRESETS, Workload, all_cases, case, get_case, select


def test_every_module_registers_its_cases() -> None:
    names = [c.name for c in all_cases()]
    assert "copy.contiguous_transpose" in names
    assert "memory.allocator_churn" in names
    assert names == sorted(names)


@pytest.mark.parametrize("c", all_cases(), ids=lambda c: c.name)
def test_case_declares_every_preset_and_a_summary(c) -> None:
    for preset in PRESETS:
        assert isinstance(c.params(preset), dict)
    assert c.summary


def test_registering_a_name_twice_raises() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        case("copy.contiguous_transpose", sizes={p: {} for p in PRESETS})(
            lambda lib: Workload(lambda: None))


def test_missing_preset_is_refused() -> None:
    with pytest.raises(ValueError, match="lacks sizes"):
        case("demo.incomplete", sizes={"quick": {}})


def test_select_by_name_family_and_glob() -> None:
    assert [c.name for c in select(["memory.allocator_churn"], "cpu")] == [
        "memory.allocator_churn"]
    assert {c.family for c in select(["startup"], "cpu")} == {"startup"}
    assert all(c.name.startswith("startup.") for c in select(["startup.*"], "cpu"))
    with pytest.raises(KeyError, match="matches no case"):
        select(["no-such-case"], "cpu")
    with pytest.raises(KeyError, match="no case named"):
        get_case("no.such")


def test_workload_work_counts() -> None:
    assert Workload(lambda: None, flops=2.0).work() == {"flops": 2.0}
