"""``Tensor.grad`` accepts only a tensor matching its owner's shape, dtype and device (issue 12)."""

from __future__ import annotations

import pytest

import gtensor as gt
from gtensor.errors import DeviceMismatchError, DTypeError, ShapeError


def test_wrong_shape_is_refused(device):
    x = gt.zeros(3, device=device, requires_grad=True)
    with pytest.raises(ShapeError, match=r"^\[grad\] assigned grad has data of a different size"):
        x.grad = gt.zeros(4, device=device)
    assert x.grad is None


def test_wrong_dtype_is_refused(device):
    x = gt.zeros(3, device=device, requires_grad=True)
    with pytest.raises(DTypeError, match=r"^\[grad\] assigned grad has data of a different type"):
        x.grad = gt.zeros(3, dtype=gt.float64, device=device)
    assert x.grad is None


def test_wrong_device_is_refused(device):
    x = gt.zeros(3, device=device, requires_grad=True)
    other = "cpu" if device == "cuda" else "cuda"
    with pytest.raises(DeviceMismatchError, match=r"^\[grad\] .*different device"):
        x.grad = gt.zeros(3, device=other)
    assert x.grad is None


def test_non_tensor_is_refused():
    x = gt.zeros(2, requires_grad=True)
    with pytest.raises(TypeError, match=r"^\[grad\] assigned grad expected to be a Tensor"):
        x.grad = [0.0, 0.0]


def test_matching_grad_and_none_are_accepted_and_backward_accumulates(device):
    x = gt.tensor([1.0, 2.0], device=device, requires_grad=True)
    g = gt.tensor([10.0, 20.0], device=device)
    x.grad = g
    assert x.grad is g
    (x * 3).sum().backward()
    assert x.grad.tolist() == [13.0, 23.0]
    x.grad = None
    assert x.grad is None
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
