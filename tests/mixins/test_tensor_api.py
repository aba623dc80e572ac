"""Everyday Tensor methods against PyTorch: ``.data``, ``view_as``, casts, ``type``, ``new_*``."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

VALUES = [1.7, -2.5, 0.0, 3.2]


def _same(got, want):
    assert got.shape == tuple(want.shape)
    assert got.dtype.name == str(want.dtype).removeprefix("torch.")
    np.testing.assert_array_equal(got.detach().cpu().numpy(), want.detach().numpy())


def test_data_reads_share_memory_outside_autograd(device):
    x = gt.tensor(VALUES, device=device, requires_grad=True)
    d = x.data
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    assert d.data_ptr() == x.data_ptr()
    d.mul_(2)
    assert d.grad_fn is None and x.requires_grad and x.is_leaf
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), np.float32(VALUES) * 4)
    t = gt.arange(6.0, device=device).reshape(2, 3).t()[1:]
    assert (t.data.shape, t.data.stride(), t.data.storage_offset()) == \
        (t.shape, t.stride(), t.storage_offset())


def test_data_write_through_is_reported_at_backward():
    w = gt.ones(3, requires_grad=True)
    out = (w * w).sum()
    w.data.mul_(2)
    with pytest.raises(RuntimeError):
        out.backward()


def test_data_setter_keeps_the_parameter(device):
    p = gt.nn.Parameter(gt.zeros(3, device=device))
    (p * 2).sum().backward()
    grad = p.grad
    new = gt.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=gt.float64, device=device)
    p.data = new
    assert isinstance(p, gt.nn.Parameter) and p.requires_grad and p.is_leaf and p.grad is grad
    assert p.shape == (2, 2) and p.dtype is gt.float64 and p.data_ptr() == new.data_ptr()
    p.grad = None
    (p * p).sum().backward()
    np.testing.assert_array_equal(p.grad.cpu().numpy(), 2 * new.cpu().numpy())


def test_data_setter_errors_match_torch():
    p, tp = gt.nn.Parameter(gt.zeros(2)), torch.nn.Parameter(torch.zeros(2))
    for bad, tbad in ((3, 3), (gt.ones(2, dtype=gt.int64), torch.ones(2, dtype=torch.int64))):
        with pytest.raises(Exception) as want:
            tp.data = tbad
        with pytest.raises(want.type):
            p.data = bad
    plain = gt.zeros(2)
    plain.data = gt.ones(3, dtype=gt.int64)
    assert plain.tolist() == [1, 1, 1]


def test_shape_like_methods(device):
    x = gt.arange(6.0, device=device, requires_grad=True)
    tx = torch.arange(6.0, requires_grad=True)
    two_by_three, ttwo = gt.zeros(2, 3), torch.zeros(2, 3)
    y, ty = x.view_as(two_by_three), tx.view_as(ttwo)
    _same(y, ty)
    _same(y.t().reshape_as(gt.zeros(6)), ty.t().reshape_as(torch.zeros(6)))
    _same(gt.ones(1, 3, device=device).expand_as(two_by_three), torch.ones(1, 3).expand_as(ttwo))
    (y.t().reshape_as(gt.zeros(6)) * gt.arange(6.0, device=device)).sum().backward()
    (ty.t().reshape_as(torch.zeros(6)) * torch.arange(6.0)).sum().backward()
    _same(x.grad, tx.grad)
    with pytest.raises(RuntimeError):
        ty.t().view_as(torch.zeros(6))
    with pytest.raises(RuntimeError):
        y.t().view_as(gt.zeros(6))


CASTS = ["float", "double", "half", "int", "long", "short", "char", "byte", "bool"]


def test_casts_and_type_strings(device):
    x, tx = gt.tensor(VALUES, device=device), torch.tensor(VALUES)
    suffix = "cuda." if device == "cuda" else ""
    for name in CASTS:
        y, ty = getattr(x, name)(), getattr(tx, name)()
        _same(y, ty)
        assert y.device == x.device
        assert y.type() == ty.type().replace("torch.", f"gtensor.{suffix}")
        assert (getattr(y, name)() is y) and (y.type(y.dtype) is y)
    _same(x.type(gt.int16), tx.type(torch.int16))
    _same(x.type("gtensor.DoubleTensor"), tx.type("torch.DoubleTensor"))
    _same(x.type(f"torch.{suffix}LongTensor"), tx.type("torch.LongTensor"))
    assert x.type(f"gtensor.{suffix}LongTensor").device == x.device
    moved = x.type("gtensor.FloatTensor" if device == "cuda" else "gtensor.cuda.FloatTensor")
    assert moved.device.type != x.device.type and moved.tolist() == x.tolist()


def test_type_errors_match_torch():
    x, tx = gt.ones(1), torch.ones(1)
    for bad in ("float64", "torch.Foo", "FloatTensor", 3):
        with pytest.raises(Exception) as want:
            tx.type(bad)
        with pytest.raises(want.type):
            x.type(bad)


def test_new_factories(device):
    x = gt.tensor([1, 2], dtype=gt.float64, device=device)
    tx = torch.tensor([1, 2], dtype=torch.float64)
    for name, args in (("new_zeros", (2, 3)), ("new_zeros", ((2, 3),)), ("new_ones", (3,)),
                       ("new_full", ((2,), 3)), ("new_tensor", ([1, 2],)),
                       ("new_tensor", (7,))):
        y = getattr(x, name)(*args)
        _same(y, getattr(tx, name)(*args))
        assert y.device == x.device and not y.requires_grad
    assert x.new_empty(2, 1).shape == (2, 1) and x.new_empty(2, 1).dtype is gt.float64
    _same(x.new_full((2,), 2.7, dtype=gt.int64), tx.new_full((2,), 2.7, dtype=torch.int64))
    _same(x.new_ones(2, dtype=gt.int32), tx.new_ones(2, dtype=torch.int32))
    y = x.new_zeros(2, device="cpu", requires_grad=True)
    assert y.device.type == "cpu" and y.requires_grad and y.is_leaf
    src = gt.tensor([3.0, 4.0], device=device, requires_grad=True)
    copied = x.new_tensor(src)
    assert copied.data_ptr() != src.data_ptr() and not copied.requires_grad
    _same(copied, torch.tensor([3.0, 4.0], dtype=torch.float64))


@pytest.mark.parametrize("spec", ["", "+.2f", ">8", ".3e", "^7.1%"])
def test_format_matches_torch(spec):
    for value in (3.14159, -2.5):
        assert format(gt.tensor(value), spec) == format(torch.tensor(value), spec)
    if "e" not in spec and "%" not in spec and "f" not in spec:
        assert format(gt.tensor(7), spec) == format(torch.tensor(7), spec)
        assert format(gt.tensor(True), spec) == format(torch.tensor(True), spec)


def test_format_of_other_tensors(device):
    x = gt.tensor(2.5, device=device, requires_grad=True)
    assert f"{x:.2f}" == "2.50" and f"{x}" == "2.5"
    many = gt.tensor([1.0, 2.0], device=device)
    assert format(many, "") == str(many)
    for t, tt in ((many, torch.tensor([1.0, 2.0])), (gt.tensor([1.0]), torch.tensor([1.0]))):
        with pytest.raises(TypeError):
            format(tt, ".2f")
        with pytest.raises(TypeError):
            format(t, ".2f")
