"""Inputs PyTorch refuses: bool subtraction, non-bool ``where`` conditions, integer division by
zero, integers to negative powers, and ``matmul(out=)`` of another dtype."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.errors import DivisionByZeroError, DTypeError, GTensorError

TWO_BOOLS = r"^\[sub\] Subtraction, the `-` operator, with two bool tensors is not supported"
ONE_BOOL = r"^\[sub\] Subtraction, the `-` operator, with a bool tensor is not supported"


@pytest.mark.parametrize(("make", "pattern"), [
    (lambda m: m - m, TWO_BOOLS),
    (lambda m: m - True, TWO_BOOLS),
    (lambda m: True - m, TWO_BOOLS),
    (lambda m: gt.sub(m, m[:1]), TWO_BOOLS),
    (lambda m: m.clone().sub_(m), TWO_BOOLS),
    (lambda m: m - 1, ONE_BOOL),
    (lambda m: 1.5 - m, ONE_BOOL),
])
def test_bool_subtraction_refused(device, make, pattern):
    m = gt.tensor([True, False], device=device)
    with pytest.raises(DTypeError, match=pattern):
        make(m)
    assert m.tolist() == [True, False]
    assert (m ^ m).tolist() == [False, False]


@pytest.mark.parametrize("cond", [[1.0, 0.0], [1, 0]])
def test_where_refuses_non_bool_condition(device, cond):
    c = gt.tensor(cond, device=device)
    with pytest.raises(DTypeError, match=r"^\[where\] expected condition to be a boolean tensor"):
        gt.where(c, 1.0, 2.0)
    kept = gt.where(gt.tensor([1, 0], dtype=gt.uint8, device=device), 1.0, 2.0)
    assert kept.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("make", [
    lambda a, z: a // 0,
    lambda a, z: a % 0,
    lambda a, z: gt.floor_divide(a, z),
    lambda a, z: gt.remainder(a, z),
    lambda a, z: 7 // z,
    lambda a, z: a.clone().floor_divide_(z),
    lambda a, z: a.clone().remainder_(0),
])
def test_integer_division_by_zero_raises_on_cpu(make):
    a = gt.tensor([6, -7], dtype=gt.int32)
    z = gt.tensor([3, 0], dtype=gt.int32)
    with pytest.raises(DivisionByZeroError, match=r"integer division by zero") as e:
        make(a, z)
    assert isinstance(e.value, ZeroDivisionError) and isinstance(e.value, RuntimeError)
    assert a.tolist() == [6, -7]
    assert (a // gt.tensor([4, 2], dtype=gt.int32)).tolist() == [1, -4]
    assert (gt.tensor([6.0, 1.0]) // 0).tolist() == [np.inf, np.inf]


def test_integer_division_by_zero_number_raises_on_cuda():
    a = gt.tensor([6, -7], device="cuda")
    with pytest.raises(DivisionByZeroError):
        a // 0
    with pytest.raises(DivisionByZeroError):
        a % 0


def test_integer_division_by_cuda_zeros_is_not_checked():
    # The divisor's values would have to be read from the device: like PyTorch's
    # CUDA kernels, the result at a zero divisor is unspecified, and no error is raised.
    a = gt.tensor([6, -7], device="cuda")
    out = a // gt.tensor([4, 0], device="cuda")
    assert out.cpu().tolist()[0] == 1
    assert (a % gt.tensor([4, 0], device="cuda")).cpu().tolist()[0] == 2


@pytest.mark.parametrize("make", [
    lambda a: a ** -1,
    lambda a: gt.pow(a, -2),
    lambda a: a.clone().pow_(-1),
    lambda a: (a > 0) ** -1,
])
def test_integer_to_negative_integer_power_refused(device, make):
    a = gt.tensor([2, 3], device=device)
    with pytest.raises(GTensorError, match=r"^\[pow\] Integers to negative integer powers are "
                       r"not allowed\."):
        make(a)
    assert (a ** 2).tolist() == [4, 9]
    assert (a ** -1.0).tolist() == [0.5, pytest.approx(1 / 3)]
    assert (a ** gt.tensor([-1, 2], device=device)).tolist() == [0, 9]


@pytest.mark.parametrize("out_dtype", [gt.int64, gt.float64])
def test_matmul_out_of_another_dtype_is_refused(device, out_dtype):
    a = gt.tensor([[1.5, 2.0], [0.5, 1.0]], device=device)
    out = gt.full((2, 2), 7, dtype=out_dtype, device=device)
    with pytest.raises(DTypeError, match=r"^\[matmul\] expected out tensor to have dtype "
                       "float32, but got"):
        gt.matmul(a, a, out=out)
    assert out.tolist() == [[7, 7], [7, 7]]
    good = gt.empty(2, 2, device=device)
    assert gt.matmul(a, a, out=good) is good
    assert good.tolist() == [[3.25, 5.0], [1.25, 2.0]]
    with pytest.raises(gt.ShapeError, match=r"^\[matmul\] out has shape \(2,\)"):
        gt.matmul(a, a, out=gt.empty(2, device=device))
