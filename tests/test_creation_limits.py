"""Creation ops: sizes past 64 bits and a missing CUDA device raise typed errors naming the op."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import gtensor as gt
from gtensor.errors import DeviceUnavailableError, GTensorError, SizeOverflowError
from gtensor.shape_rules import checked_numel

BIG = 2**63
REAL_GPU = not gt.cuda.is_simulated()  # tests/conftest.py simulates CUDA exactly when no GPU


@pytest.mark.parametrize("op, make", [
    ("empty", lambda dev: gt.empty(BIG, device=dev)),
    ("empty", lambda dev: gt.empty(2**64, device=dev)),
    ("zeros", lambda dev: gt.zeros(2**62, 4, device=dev)),
    ("empty", lambda dev: gt.empty(2**61, device=dev)),
    ("ones", lambda dev: gt.ones((2**32, 2**32), device=dev)),
    ("full", lambda dev: gt.full((BIG,), 1.0, device=dev)),
    ("zeros", lambda dev: gt.zeros(BIG, 0, device=dev)),
    ("randn", lambda dev: gt.randn(BIG, device=dev)),
    ("rand", lambda dev: gt.rand(2**62, 2, device=dev)),
    ("randint", lambda dev: gt.randint(0, 5, (2**60,), device=dev)),
    ("randperm", lambda dev: gt.randperm(2**61, device=dev)),
    ("dropout_mask", lambda dev: gt.dropout_mask(2**61, device=dev)),
])
def test_sizes_past_64_bits_raise_typed_errors(device: str, op: str,
                                               make: Callable[[str], Any]) -> None:
    stats = gt.memory.memory_stats(gt.device("cpu" if device == "cpu" else "cuda:0"))
    with pytest.raises(SizeOverflowError, match=rf"^\[{op}\] shape \(.*more than a 64-bit size"):
        make(device)
    after = gt.memory.memory_stats(gt.device("cpu" if device == "cpu" else "cuda:0"))
    assert after["allocation.all.allocated"] == stats["allocation.all.allocated"]
    assert after["num_ooms"] == stats["num_ooms"]


def test_size_overflow_error_is_runtime_and_overflow() -> None:
    with pytest.raises(RuntimeError) as info:
        gt.empty(BIG)
    assert isinstance(info.value, GTensorError) and isinstance(info.value, OverflowError)


def test_negative_dropout_mask_size_raises_before_allocating() -> None:
    with pytest.raises(ValueError, match=r"^\[dropout_mask\] negative dimension in shape \(-2,\)"):
        gt.dropout_mask(-2)


def test_views_past_64_bits_raise() -> None:
    x = gt.ones(3)
    with pytest.raises(SizeOverflowError, match=r"^\[expand\] "):
        x.expand(BIG, 3)
    with pytest.raises(SizeOverflowError, match=r"^\[reshape\] "):
        x.reshape(BIG, 3)
    assert x.expand(2**40, 3).shape == (2**40, 3)


def test_checked_numel() -> None:
    assert checked_numel((2, 3), "op") == 6
    assert checked_numel((2, 3), "op", itemsize=8) == 6
    assert checked_numel((), "op") == 1
    assert checked_numel((2**62, 0), "op", itemsize=8) == 0
    assert checked_numel((-1, 4), "op") == -4
    assert checked_numel((2**31, 2**31), "op", itemsize=1) == 2**62
    with pytest.raises(SizeOverflowError, match=r"^\[op\] shape \(4611686018427387904, 2\) "
                       r"has 9223372036854775808 elements"):
        checked_numel((2**62, 2), "op")
    with pytest.raises(SizeOverflowError, match=r"needs 9223372036854775808 bytes of 2-byte"):
        checked_numel((2**62,), "op", itemsize=2)
    with pytest.raises(SizeOverflowError, match=r"has a dimension of 9223372036854775808"):
        checked_numel((BIG, 0), "op")
    with pytest.raises(SizeOverflowError):
        checked_numel((-1, 2**62, 2), "op")


_NO_CUDA_SCRIPT = """
import gtensor as gt
from gtensor.errors import DeviceUnavailableError
for op, make in [("randn", lambda: gt.randn(3, device="cuda")),
                 ("zeros", lambda: gt.zeros(2, device="cuda")),
                 ("randperm", lambda: gt.randperm(3, device="cuda")),
                 ("dropout_mask", lambda: gt.dropout_mask(3, device="cuda")),
                 ("tensor", lambda: gt.tensor([1.0], device="cuda")),
                 ("arange", lambda: gt.arange(3, device="cuda")),
                 ("to", lambda: gt.ones(2).to("cuda"))]:
    try:
        make()
    except DeviceUnavailableError as exc:
        assert isinstance(exc, RuntimeError) and isinstance(exc, gt.GTensorError)
        assert str(exc).startswith(f"[{op}] no CUDA device is available"), str(exc)
    else:
        raise AssertionError(op + " did not raise")
assert gt.randn(3).shape == (3,) and gt.zeros(2).tolist() == [0.0, 0.0]
print("ok")
"""


@pytest.mark.skipif(REAL_GPU, reason="needs a machine without a GPU")
def test_missing_cuda_names_the_users_op() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    result = subprocess.run([sys.executable, "-c", _NO_CUDA_SCRIPT], capture_output=True,
                            text=True, env=env, timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


def test_device_unavailable_error_is_typed() -> None:
    assert issubclass(DeviceUnavailableError, GTensorError)
    assert issubclass(DeviceUnavailableError, RuntimeError)
