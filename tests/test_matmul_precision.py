"""``gt.set_float32_matmul_precision`` and ``gt.backends.cuda.matmul.allow_tf32``, as PyTorch."""

from __future__ import annotations

import pytest

import gtensor as gt


@pytest.fixture(autouse=True)
def _restore():
    yield
    gt.set_float32_matmul_precision("highest")


def test_tf32_off_by_default_and_tied_to_the_precision() -> None:
    assert gt.get_float32_matmul_precision() == "highest"
    assert gt.backends.cuda.matmul.allow_tf32 is False
    for level, tf32 in (("high", True), ("medium", True), ("highest", False)):
        gt.set_float32_matmul_precision(level)
        assert (gt.get_float32_matmul_precision(), gt.backends.cuda.matmul.allow_tf32) == (
            level, tf32)
    gt.backends.cuda.matmul.allow_tf32 = True
    assert gt.get_float32_matmul_precision() == "high"
    gt.backends.cuda.matmul.allow_tf32 = False
    assert gt.get_float32_matmul_precision() == "highest"


def test_bad_precision_and_unknown_switch_are_refused() -> None:
    with pytest.raises(ValueError, match=r"\[set_float32_matmul_precision\].*'low'"):
        gt.set_float32_matmul_precision("low")
    with pytest.raises(AttributeError, match="allow_tf33"):
        gt.backends.cuda.matmul.allow_tf33 = True
    assert gt.get_float32_matmul_precision() == "highest"


def test_cpu_products_stay_full_precision_at_every_level() -> None:
    a = gt.tensor([[1.0 + 2.0**-20]])
    gt.set_float32_matmul_precision("medium")
    assert (a @ a).item() == pytest.approx(1.0 + 2.0**-19, abs=2.0**-23)
