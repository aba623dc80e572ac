"""The ``cat`` and ``constant_pad`` kernels (cpu and simulated cuda) and their ops, against NumPy.

Outputs are poisoned before a kernel writes them, so an element it misses
shows. Shapes are tiny; ``MAX_INPUTS`` is 4 on the simulator, so a handful of
inputs already takes several launches.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from gtensor.kernels import lookup
from gtensor.kernels.cuda import concat as cuda_concat
from gtensor.kernels.cuda import pad as cuda_pad

import gtensor as gt

BACKENDS = ("cpu", "cuda")
M = cuda_concat.MAX_INPUTS


def _poisoned(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return np.ones(shape, bool) if dtype.kind == "b" else np.full(shape, 99, dtype)


def _cat(backend: str, srcs: list[np.ndarray], dim: int, dtype: type) -> None:
    expected = np.concatenate([s.astype(dtype) for s in srcs], dim)
    out = _poisoned(expected.shape, np.dtype(dtype))
    if dtype is bool:
        out = ~expected
    lookup("cat", backend, (np.dtype(dtype).name,))(srcs, out, dim)
    np.testing.assert_array_equal(out, expected)


def _ints(rng: np.random.Generator, shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    return rng.integers(-9, 10, shape).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cat_many_inputs_empty_inputs_odd_sizes(backend, rng):
    sizes = [3, 0, 1, 5, 2, 0, 4, 1, 2, 3]  # 8 non-empty inputs: more than one launch group
    _cat(backend, [_ints(rng, (3, k, 5)) for k in sizes], 1, np.float32)
    _cat(backend, [_ints(rng, (k, 3), np.int32) for k in sizes], 0, np.int32)
    _cat(backend, [_ints(rng, (2, k), np.int64) for k in sizes], 1, np.int64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cat_non_contiguous_broadcast_and_reversed_inputs(backend, rng):
    big = _ints(rng, (4, 9), np.float64)
    _cat(backend, [big[:, 1:4], big[:, 5:6], big.T[:2].T], 1, np.float64)
    _cat(backend, [big[:, ::-1][:, :3], big[:, ::2], np.broadcast_to(big[:1, :2], (4, 2)),
                   big.T[:3].T], 1, np.float64)
    _cat(backend, [big[::2], big[1:2, ::-1], np.broadcast_to(big[0], (3, 9))], 0, np.float64)
    cube = _ints(rng, (3, 4, 5))
    _cat(backend, [cube.transpose(1, 0, 2), cube.transpose(1, 0, 2)[:, 1:]], 1, np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cat_converts_mixed_dtypes(backend, rng):
    parts = [_ints(rng, (2, 3), np.int64), _ints(rng, (2, 1)), rng.integers(0, 2, (2, 2)) > 0]
    _cat(backend, parts, 1, np.float32)
    _cat(backend, [_ints(rng, (5,), np.int32), rng.integers(0, 2, 3) > 0], 0, np.int32)
    _cat(backend, [rng.integers(0, 2, (2, k)) > 0 for k in (1, 4, 2, 3, 1)], 1, bool)


def _plan(kernel: cuda_concat.CudaCat, shapes: list[tuple[int, ...]], dim: int,
          strides: list[tuple[int, ...]] | None = None) -> tuple:
    out_shape = list(shapes[0])
    out_shape[dim] = sum(s[dim] for s in shapes)
    out_strides = tuple(math.prod(out_shape[d + 1:]) for d in range(len(out_shape)))
    strides = strides or [tuple(math.prod(s[d + 1:]) for d in range(len(s))) for s in shapes]
    f32 = np.dtype(np.float32)
    run = kernel.plan(tuple(out_shape), out_strides, f32, dim,
                      [(s, st, f32) for s, st in zip(shapes, strides, strict=True)])
    return run.args[0]


def test_cat_plans_one_launch_per_group_of_inputs():
    kernel = cuda_concat.CudaCat()
    groups = _plan(kernel, [(2, k, 3) for k in [1, 0, 2] * M], 1)
    assert len(groups) == math.ceil(2 * M / M)
    assert all(g.launch.kernel.__name__.startswith("gtensor_cat_rows") for g in groups)
    one_row = _plan(kernel, [(k, 3) for k in range(1, M + 1)], 0)
    assert len(one_row) == 1 and "_one_row" in one_row[0].launch.kernel.__name__
    transposed = _plan(kernel, [(2, 3), (2, 3)], 1, [(1, 2), (3, 1)])
    assert transposed[0].launch.kernel.__name__.startswith("gtensor_cat_strided")


@pytest.mark.parametrize("strided", [False, True])
def test_cat_64_bit_index_variant(monkeypatch, rng, strided):
    monkeypatch.setattr(cuda_concat, "NARROW_LIMIT", 8)
    kernel = cuda_concat.CudaCat()
    srcs = [_ints(rng, (3, k)) for k in (2, 2, 3)]
    if strided:
        srcs[1] = _ints(rng, (2, 3)).T
    expected = np.concatenate(srcs, 1)
    out = np.full(expected.shape, 99, np.float32)
    kernel(srcs, out, 1)
    np.testing.assert_array_equal(out, expected)
    (run,) = kernel._plans.values()
    name = run.args[0][0].launch.kernel.__name__
    assert name.endswith("_i64") and ("strided" in name) == strided


@pytest.mark.parametrize("device", BACKENDS)
def test_stack_on_every_dim_and_cat_grad(device, rng):
    arrays = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(M + 1)]
    ts = [gt.tensor(a, device=device) for a in arrays]
    ts[1] = gt.tensor(arrays[1].T.copy(), device=device).T  # a transposed view
    for dim in range(-3, 3):
        np.testing.assert_array_equal(gt.stack(ts, dim).cpu().numpy(), np.stack(arrays, dim))
    x = gt.tensor(arrays[0], device=device, requires_grad=True)
    y = gt.tensor(arrays[1][:, :2], device=device, requires_grad=True)
    (gt.cat([x, y, x], 1) * gt.arange(8.0, device=device)).sum().backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), np.tile([5.0, 7.0, 9.0], (2, 1)))
    np.testing.assert_array_equal(y.grad.cpu().numpy(), np.tile([3.0, 4.0], (2, 1)))


# ---------------------------------------------------------------- constant padding


def _pad(backend: str, src: np.ndarray, lows: tuple[int, ...], highs: tuple[int, ...],
         value: object) -> None:
    expected = np.pad(src, list(zip(lows, highs, strict=True)), constant_values=value)
    out = ~expected if src.dtype == bool else _poisoned(expected.shape, src.dtype)
    lookup("constant_pad", backend, (src.dtype.name,))(src, out, lows, value)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_pad_kernel_layouts(backend, rng):
    cube = _ints(rng, (2, 3, 5))
    _pad(backend, cube, (0, 1, 2), (0, 2, 1), -1.0)  # two padded dims, one merged away
    _pad(backend, cube, (1, 0, 0), (0, 0, 3), 7.0)
    _pad(backend, cube.transpose(2, 0, 1), (0, 2, 0), (1, 0, 1), 0.5)
    _pad(backend, cube[:, ::-1, ::2], (1, 1, 1), (1, 1, 1), 2.0)
    _pad(backend, np.zeros((2, 0), np.float32), (0, 2), (1, 1), 3.0)  # empty source
    _pad(backend, rng.integers(0, 2, (3, 4)) > 0, (1, 0), (0, 2), True)
    _pad(backend, _ints(rng, (7,), np.int8), (3,), (2,), 5)


@pytest.mark.parametrize("device", BACKENDS)
def test_pad_crops_with_negative_pads_and_keeps_the_value_dtype(device, rng):
    a = _ints(rng, (2, 3, 4))
    x = gt.tensor(a, device=device)
    got = gt.pad(x, (1, -2, -1, 1), value=7.0).cpu().numpy()
    np.testing.assert_array_equal(got, np.pad(a[:, 1:, :2], ((0, 0), (0, 1), (1, 0)),
                                              constant_values=7.0))
    i8 = gt.tensor([1, 2], dtype=gt.int8, device=device)
    assert gt.pad(i8, (2, 0), value=3.7).cpu().tolist() == [3, 3, 1, 2]


def test_collapse_padded_merges_only_unpadded_inner_dims():
    assert cuda_pad.collapse_padded((2, 3, 1, 6), (2, 3, 1, 4), (0, 0, 0, 1), (18, 6, 6, 1),
                                    (12, 4, 4, 1)) == ((6, 6), (6, 4), (0, 1), (6, 1), (4, 1))
    assert cuda_pad.collapse_padded((1,), (1,), (0,), (1,), (1,)) == ((1,), (1,), (0,), (1,),
                                                                      (1,))
    assert cuda_pad.collapse_padded((4, 3), (2, 3), (1, 0), (3, 1), (1, 2)) == (
        (4, 3), (2, 3), (1, 0), (3, 1), (1, 2))
