"""Convolution, pooling and resampling kernels on cpu and simulated cuda against NumPy loops."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from kernel_inputs import BACKENDS, check, lookup, poisoned

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from conv_reference import (  # noqa: E402
    adaptive_avg_ref,
    avg_pool_ref,
    conv2d_ref,
    conv_transpose2d_ref,
    max_pool_ref,
    resample_matrix,
)


def _draw(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, size=shape).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("geom", [((1, 1), (1, 1), (1, 1), 1), ((2, 1), (0, 1), (1, 2), 2)])
def test_conv_kernels(backend: str, dtype: str, geom: tuple, rng: np.random.Generator) -> None:
    stride, pad, dil, groups = geom
    x = _draw(rng, (2, 4, 5, 6) if backend == "cpu" else (1, 2, 4, 4), dtype)
    w = _draw(rng, (4, x.shape[1] // groups, 2, 3), dtype)
    b = _draw(rng, (4,), dtype)
    want = conv2d_ref(x, w, b, stride, (pad[0], pad[0], pad[1], pad[1]), dil, groups)
    out = poisoned(want.shape, dtype)
    lookup("conv2d", backend, (dtype, dtype))(x, w, b, out, stride, pad, dil, groups)
    check(out, want, dtype) if dtype == "float64" else np.testing.assert_allclose(
        out, want, rtol=1e-5, atol=1e-5)
    g = _draw(rng, want.shape, dtype)
    back = poisoned(x.shape, dtype)
    lookup("conv_transpose2d", backend, (dtype, dtype))(g, w, None, back, stride, pad, dil,
                                                        groups)
    full = conv_transpose2d_ref(g.astype(np.float64), w.astype(np.float64), None, stride, pad,
                                (0, 0), dil, groups)
    want_back = np.zeros(x.shape)
    h, wd = min(full.shape[2], x.shape[2]), min(full.shape[3], x.shape[3])
    want_back[:, :, :h, :wd] = full[:, :, :h, :wd]
    np.testing.assert_allclose(back, want_back, rtol=1e-5, atol=1e-5)
    gw = poisoned(w.shape, dtype)
    lookup("conv2d_weight", backend, (dtype, dtype))(x, g, gw, stride, pad, dil, groups)
    # <conv2d(x, w), g> is linear in w: its gradient is the weight kernel's result
    e = rng.standard_normal(w.shape)
    lhs = (conv2d_ref(x, e, None, stride, (pad[0], pad[0], pad[1], pad[1]), dil, groups)
           * g).sum()
    np.testing.assert_allclose((gw * e).sum(), lhs, rtol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pool_kernels(backend: str, rng: np.random.Generator) -> None:
    x = _draw(rng, (1, 2, 5, 6), "float64")
    want, want_idx = max_pool_ref(x, 3, 2, 1, 1, True)
    out, idx = poisoned(want.shape, "float64"), poisoned(want.shape, "int64")
    lookup("max_pool2d", backend, ("float64",))(x, out, idx, (3, 3), (2, 2), (1, 1), (1, 1))
    check(out, want, "float64")
    check(idx, want_idx, "int64")
    g = _draw(rng, want.shape, "float64")
    gx = poisoned(x.shape, "float64")
    lookup("max_pool2d_backward", backend, ("float64",))(g, idx, gx, (3, 3), (2, 2), (1, 1),
                                                         (1, 1))
    want_gx = np.zeros(x.size)
    np.add.at(want_gx.reshape(2, -1), (np.arange(2)[:, None], idx.reshape(2, -1)),
              g.reshape(2, -1))
    check(gx, want_gx.reshape(x.shape), "float64")
    back = poisoned(want.shape, "float64")
    lookup("plane_gather", backend, ("float64",))(x, idx, back)
    check(back, want, "float64")
    avg = poisoned(want.shape, "float64")
    lookup("avg_pool2d", backend, ("float64",))(x, avg, (3, 3), (2, 2), (1, 1), False, 0)
    check(avg, avg_pool_ref(x, 3, 2, 1, True, False, None), "float64")
    ada = poisoned((1, 2, 3, 4), "float64")
    lookup("adaptive_avg_pool2d", backend, ("float64",))(x, ada)
    check(ada, adaptive_avg_ref(x, 3, 4), "float64")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op,args", [
    ("avg_pool2d", ((3, 3), (2, 2), (1, 1), True, 0)),
    ("adaptive_avg_pool2d", ()),
    ("resample2d", ((5 / 7, 6 / 4), True, False)),
    ("resample2d", ((5 / 7, 6 / 4), False, False)),
])
def test_transpose_kernels_are_adjoint(backend: str, op: str, args: tuple,
                                       rng: np.random.Generator) -> None:
    x = _draw(rng, (1, 2, 5, 6), "float64")
    shape = {"avg_pool2d": (1, 2, 3, 3)}.get(op, (1, 2, 7, 4))
    y = poisoned(shape, "float64")
    lookup(op, backend, ("float64",))(x, y, *args)
    g = _draw(rng, shape, "float64")
    gx = poisoned(x.shape, "float64")
    lookup(op + "_backward", backend, ("float64",))(g, gx, *args)
    np.testing.assert_allclose((y * g).sum(), (x * gx).sum(), rtol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_resample_kernel_matches_matrices(backend: str, rng: np.random.Generator) -> None:
    x = _draw(rng, (1, 2, 4, 5), "float64")
    out = poisoned((1, 2, 7, 3), "float64")
    lookup("resample2d", backend, ("float64",))(x, out, (3 / 6, 4 / 2), True, True)
    ah = resample_matrix(4, 7, "bilinear", True, None)
    aw = resample_matrix(5, 3, "bilinear", True, None)
    check(out, np.einsum("oh,nchw,pw->ncop", ah, x, aw), "float64")
