"""CUDA copy plans: the flat, tiled-transpose and strided kernels against NumPy.

Each case copies a view of a larger source buffer into a view of a poisoned
destination buffer through ``plan`` and checks the whole destination buffer,
so elements written outside the view (a partial tile, a tail chunk) show.
Shapes are built from the kernel's tile size: tiny on the simulator.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from gtensor.kernels import lookup
from gtensor.kernels.common.operands import nothing
from gtensor.kernels.common.strided import element_strides
from gtensor.kernels.cuda import copy as cuda_copy
from gtensor.kernels.simulator import SIMULATED
from numba import cuda

import gtensor as gt

T = cuda_copy.TILE
FLAT, TRANSPOSE, STRIDED = cuda_copy._run_flat, cuda_copy._run_transpose, cuda_copy._run_strided


def _offset(view: np.ndarray, base: np.ndarray) -> int:
    """Element offset of ``view[0, ..., 0]`` from the start of ``base``'s buffer."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return start // view.dtype.itemsize


def _poisoned(values: np.ndarray) -> np.ndarray:
    """Values that differ from ``values`` everywhere (what an unwritten element keeps)."""
    return ~values if values.dtype == bool else np.full_like(values, 99)


def _contiguous(buf: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return buf[3:3 + int(np.prod(shape))].reshape(shape)


def _every_other(buf: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return buf[1:1 + 2 * int(np.prod(shape))].reshape(*shape[:-1], 2 * shape[-1])[..., ::2]


def _transposed(buf: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return _contiguous(buf, shape[::-1]).T


def _source(rng: np.random.Generator, dtype: str, make: Callable) -> tuple[np.ndarray, ...]:
    """A random buffer and ``make``'s view of an array inside it (offset, any strides)."""
    big = rng.uniform(-3, 3, 7 + 16 * T * T).astype(dtype)
    big[::5] = 0  # zeros for the bool conversion
    view = make(big[7:].reshape(2 * T, 8 * T))
    assert np.shares_memory(view, big)
    return big, view


CASES = {
    # name: (source view of a (2T, ...) array, out shape from it, out view, dtypes, path)
    "flat": (lambda a: a.reshape(-1)[: 9 * T + 1], _contiguous, "float32", "float32", FLAT),
    "flat-cast-grid-stride": (lambda a: a.reshape(-1)[2: 40 * T], _contiguous, "float64",
                              "float32", FLAT),
    "flat-bool": (lambda a: a.reshape(-1)[: 9 * T + 1], _contiguous, "int32", "bool", FLAT),
    "transpose": (lambda a: a[: T + 1, : 2 * T + 1].T, _contiguous, "float32", "float32",
                  TRANSPOSE),
    "transpose-into-transposed": (lambda a: a[: T + 2, : T + 3], _transposed, "float32",
                                  "float32", TRANSPOSE),
    "transpose-batched-cast": (lambda a: a[:, : 2 * T - 1].reshape(2, T, -1)[:, : T - 1]
                               .transpose(0, 2, 1), _contiguous, "float32", "float64",
                               TRANSPOSE),
    "transpose-batch-in-middle": (lambda a: a[: T + 1, : 2 * T - 2].reshape(T + 1, 2, T - 1)
                                  .transpose(2, 1, 0), _contiguous, "float32", "float32",
                                  TRANSPOSE),
    "transpose-bool": (lambda a: a[: T + 2, : T + 1].T, _contiguous, "float64", "bool",
                       TRANSPOSE),
    "transpose-column-broadcast": (lambda a: np.broadcast_to(a[0, : T + 1, None],
                                                             (T + 1, T + 2)),
                                   _contiguous, "int32", "float32", TRANSPOSE),
    "strided": (lambda a: a[:, : 2 * T].reshape(2, T, 2 * T)[:, ::2, 1:], _contiguous,
                "float32", "int32", STRIDED),
    "strided-reversed": (lambda a: a[: T + 1, T - 1::-1], _contiguous, "float32", "float32",
                         STRIDED),
    "strided-into-strided": (lambda a: a[: 3, : T + 1], _every_other, "float32", "float16",
                             STRIDED),
    "strided-row-broadcast-bool": (lambda a: np.broadcast_to(a[0, : T + 1], (3, T + 1)),
                                   _contiguous, "float32", "bool", STRIDED),
    "strided-scalar-broadcast": (lambda a: np.broadcast_to(a[1:2, 1:2], (3, T)), _contiguous,
                                 "float64", "float32", STRIDED),
}


def _on_device(a: np.ndarray) -> object:
    return a if SIMULATED else cuda.to_device(a)


def _on_host(a: object) -> np.ndarray:
    return a if SIMULATED else a.copy_to_host()


def _copy_case(rng: np.random.Generator, name: str) -> None:
    make, out_view, src_dtype, out_dtype, path = CASES[name]
    big, src = _source(rng, src_dtype, make)
    want = src.astype(out_dtype) if out_dtype != "bool" else src != 0
    out_big = np.full(4 * src.size + 8, 77).astype(out_dtype)
    out = out_view(out_big, src.shape)
    out[...] = _poisoned(want)
    expected = out_big.copy()
    out_view(expected, src.shape)[...] = want
    run = lookup("copy", "cuda", (src_dtype, out_dtype)).plan(
        src.shape, element_strides(src), element_strides(out), np.dtype(src_dtype),
        np.dtype(out_dtype))
    assert run.func is path
    d_out = _on_device(out_big)
    run(_on_device(big), _offset(src, big), d_out, _offset(out, out_big))
    np.testing.assert_array_equal(_on_host(d_out), expected)


@pytest.mark.parametrize("name", CASES)
def test_copy_plan_paths_match_numpy(rng, name):
    _copy_case(rng, name)


@pytest.mark.parametrize("name", ["flat-bool", "transpose-batch-in-middle", "strided"])
def test_copy_plans_with_64_bit_indices(rng, monkeypatch, name):
    monkeypatch.setattr(cuda_copy, "NARROW_LIMIT", 1)
    _copy_case(rng, name)


def test_an_empty_copy_launches_nothing():
    kernel = lookup("copy", "cuda", ("float32", "float32"))
    run = kernel.plan((3, 0), (0, 1), (0, 1), np.dtype("float32"), np.dtype("float32"))
    assert run is nothing


def test_transposed_copies_of_tensors(device, rng, monkeypatch):
    kernel = lookup("copy", "cuda", ("float32", "float32"))
    monkeypatch.setattr(kernel, "_plans", {})
    a = rng.standard_normal((T + 1, T + 3)).astype(np.float32)
    c = rng.standard_normal((2, T + 1, T + 2)).astype(np.float32)
    x, b = gt.tensor(a, device=device), gt.tensor(c, device=device)
    np.testing.assert_array_equal(x.T.contiguous().cpu().numpy(), a.T)
    np.testing.assert_array_equal(b.permute(0, 2, 1).contiguous().cpu().numpy(),
                                  c.transpose(0, 2, 1))
    np.testing.assert_array_equal(b.transpose(-1, -2).clone().cpu().numpy(),
                                  c.transpose(0, 2, 1))
    if device == "cuda":
        assert [run.func for run in kernel._plans.values()] == [TRANSPOSE, TRANSPOSE]
