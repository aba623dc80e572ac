"""CPU launch plans bind one compiled overload: any buffer address works, other dtypes fail."""

import numpy as np
import pytest
from gtensor.kernels.cpu._call import PlannedCall
from numba import njit

import gtensor as gt


def _misaligned_floats(values: np.ndarray) -> np.ndarray:
    """A float32 copy of ``values`` starting one byte past an aligned address."""
    raw = np.zeros(values.size * 4 + 8, np.uint8)
    start = 1 if raw.ctypes.data % 4 == 0 else 0
    out = raw[start:start + values.size * 4].view(np.float32)
    assert not out.flags.aligned
    out[:] = values
    return out


def test_a_plan_first_seen_with_misaligned_memory_serves_aligned_memory_too():
    values = np.arange(1.0, 38.0, dtype=np.float32)  # a shape no other test plans
    odd = gt.from_numpy(_misaligned_floats(values))
    np.testing.assert_array_equal((odd + odd).numpy(), values * 2)
    np.testing.assert_array_equal(odd.sum().item(), values.sum())
    even = gt.from_numpy(values.copy())
    np.testing.assert_array_equal((even + even).numpy(), values * 2)
    np.testing.assert_array_equal(even.sum().item(), values.sum())


def test_a_plan_first_seen_with_aligned_memory_serves_misaligned_memory():
    values = np.arange(1.0, 40.0, dtype=np.float32)
    even = gt.from_numpy(values.copy())
    np.testing.assert_array_equal(gt.exp(even).numpy(), np.exp(values))
    odd = gt.from_numpy(_misaligned_floats(values))
    np.testing.assert_array_equal(gt.exp(odd).numpy(), np.exp(values))


@njit
def _double_into(a, out):  # noqa: ANN001, ANN202
    for i in range(a.shape[0]):
        out[i] = a[i] * 2


def test_planned_call_refuses_another_dtype():
    double = PlannedCall(_double_into)
    out = np.zeros(3, np.float32)
    double(np.ones(3, np.float32), out)
    assert out.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(TypeError):
        double(np.ones(3), np.zeros(3))


def test_an_address_plan_covers_contiguous_operands_only():
    from gtensor.kernels.cpu._elementwise_build import PARALLEL_MIN, CpuElementwise

    kernel = gt.ops.dispatch.kernel("add", gt.device("cpu"), gt.float32, gt.float32)
    assert isinstance(kernel, CpuElementwise)
    f32 = np.dtype(np.float32)
    assert kernel.plan_pointers((2, 3), [(3, 1), (3, 1)], (3, 1), (f32, f32), f32) is not None
    assert kernel.plan_pointers((2, 3), [(1, 2), (3, 1)], (3, 1), (f32, f32), f32) is None
    assert kernel.plan_pointers((2, 3), [(0, 1), (3, 1)], (3, 1), (f32, f32), f32) is None
    big = (PARALLEL_MIN,)  # parallel loops take arrays (see kernels.common.codegen.cpu_source)
    assert kernel.plan_pointers(big, [(1,), (1,)], (1,), (f32, f32), f32) is None
    x = gt.ones(PARALLEL_MIN)
    assert (x + x).numpy().min() == 2.0


@pytest.mark.parametrize("dt", ["bool", "uint8", "int32", "int64", "float32", "float64"])
def test_elementwise_by_address_matches_numpy_at_an_offset(dt):
    rng = np.random.default_rng(0)
    values = rng.integers(0, 5, 23).astype(dt)
    x = gt.from_numpy(values.copy())[3:]  # a view: its first element is not the storage's
    y = gt.from_numpy(values[::-1].copy())[3:]
    assert x._ptr == x._storage.ptr + 3 * values.itemsize
    np.testing.assert_array_equal((x == y).numpy(), values[3:] == values[::-1][3:])
    np.testing.assert_array_equal(gt.maximum(x, y).numpy(), np.maximum(values[3:],
                                                                      values[::-1][3:]))


_REDUCTIONS = {  # gtensor call, NumPy call
    "sum": (lambda a, d: a.sum(d), lambda a, d: a.sum(axis=d)),
    "mean": (lambda a, d: a.mean(d), lambda a, d: a.mean(axis=d)),
    "var": (lambda a, d: a.var(d), lambda a, d: a.var(axis=d, ddof=1)),
    "std": (lambda a, d: a.std(d), lambda a, d: a.std(axis=d, ddof=1)),
    "amax": (lambda a, d: a.amax(d), lambda a, d: a.max(axis=d)),
    "prod": (lambda a, d: a.prod(d), lambda a, d: a.prod(axis=d)),
}


@pytest.mark.parametrize("op", sorted(_REDUCTIONS))
def test_reductions_by_address_match_numpy(op):
    ours, numpy_op = _REDUCTIONS[op]
    values = np.random.default_rng(1).standard_normal((3, 5, 7)).astype(np.float32)
    x = gt.from_numpy(values.copy())
    for dims in [(0, 1, 2), 2, (1, 2)]:
        np.testing.assert_allclose(ours(x, dims).numpy(), numpy_op(values, dims), rtol=1e-5,
                                   atol=1e-5)
    np.testing.assert_allclose(ours(x[1], 1).numpy(), numpy_op(values[1], 1), rtol=1e-5,
                               atol=1e-5)  # a contiguous view at an offset
    np.testing.assert_allclose(ours(x, None).numpy(), numpy_op(values, None), rtol=1e-5)


def test_argmin_by_address_matches_numpy():
    values = np.random.default_rng(2).standard_normal((4, 6)).astype(np.float32)
    x = gt.from_numpy(values.copy())
    np.testing.assert_array_equal(x.argmin(1).numpy(), values.argmin(1))
    np.testing.assert_array_equal(x.argmin().item(), values.argmin())
