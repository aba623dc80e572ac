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
