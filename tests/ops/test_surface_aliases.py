"""PyTorch's other names, in-place forms, gcd/lcm/fmax/fmin, i0/polygamma/mvlgamma and the
metadata queries, against torch: values, gradients and typed errors naming the op."""

import math

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

NAN = math.nan
X = np.array([-0.9, -0.25, 0.0, 0.5, 0.75])


def same(got, want, **tol):
    want = want.detach()
    assert tuple(got.shape) == tuple(want.shape)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), **tol)


def both(a, device="cpu", grad=False):
    return (gt.tensor(a, device=device, requires_grad=grad),
            torch.tensor(a, requires_grad=grad))


ALIASES = ["arccos", "arcsin", "arctan", "arcsinh", "arctanh", "fix", "negative", "absolute"]


@pytest.mark.parametrize("name", ALIASES)
def test_unary_aliases_and_in_place_forms(name):
    x, tx = both(X)
    same(getattr(gt, name)(x), getattr(torch, name)(tx), rtol=1e-6)
    same(getattr(x, name)(), getattr(tx, name)(), rtol=1e-6)
    getattr(x, name + "_")()
    getattr(tx, name + "_")()
    same(x, tx, rtol=1e-6)


def test_arccosh_and_binary_aliases(device):
    a, ta = both(X + 2.0, device)
    same(a.arccosh(), ta.arccosh(), rtol=1e-6)
    same(a.acosh_(), ta.acosh_(), rtol=1e-6)
    b, tb = both(X[::-1].copy(), device)
    for name in ["greater", "greater_equal", "less", "less_equal", "not_equal", "arctan2"]:
        same(getattr(gt, name)(a, b), getattr(torch, name)(ta, tb), rtol=1e-6)
    same(gt.rsub(a, 2.0, alpha=3), torch.rsub(ta, 2.0, alpha=3))
    same(gt.concatenate([a, b], axis=0), torch.concatenate([ta, tb], axis=0))
    same(gt.concat([a, b]), torch.concat([ta, tb]))
    same(gt.trapz(a), torch.trapz(ta))
    c, tc = a.clone(), ta.clone()
    c.subtract_(b).multiply_(b).divide_(3.0).true_divide_(2.0).less_(0.5)
    tc.subtract_(tb).multiply_(tb).divide_(3.0).true_divide_(2.0).less_(0.5)
    same(c, tc)
    i, ti = both(np.array([1, 2, 3]), device)
    same(i.bitwise_left_shift(2), ti.bitwise_left_shift(2))
    same(gt.bitwise_right_shift(i, 1), torch.bitwise_right_shift(ti, 1))


def test_in_place_scans_and_predicates(device):
    i, ti = both(np.array([[1, 2], [3, 4]], dtype=np.int32), device)
    same(i.clone().cumsum_(1), ti.clone().cumsum_(1))
    same(i.clone().cumprod_(0), ti.clone().cumprod_(0))
    f, tf = both(np.array([0.0, -2.0, 3.0]), device)
    same(f.clone().logical_not_(), tf.clone().logical_not_())
    same(f.clone().sgn_(), tf.clone().sgn_())
    x = gt.tensor([1.0, 2.0], device=device, requires_grad=True)
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    y, ty = x * 1, tx * 1
    y.cumsum_(0)
    ty.cumsum_(0)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    same(x.grad, tx.grad)


def test_gcd_lcm(device):
    a, ta = both(np.array([4, -6, 0, 0, 17, 12]), device)
    b, tb = both(np.array([6, 4, 5, 0, 5, -18]), device)
    same(gt.gcd(a, b), torch.gcd(ta, tb))
    same(a.lcm(b), ta.lcm(tb))
    same(gt.gcd(a, 4), torch.gcd(ta, torch.tensor(4)))
    c, tc = a.clone(), ta.clone()
    c.gcd_(b)
    tc.gcd_(tb)
    same(c, tc)
    with pytest.raises(gt.DTypeError, match=r"\[gcd\]"):
        gt.gcd(gt.tensor([1.0], device=device), gt.tensor([2.0], device=device))
    with pytest.raises(gt.DTypeError, match=r"\[lcm_\]"):
        gt.tensor([4], dtype=gt.int32, device=device).lcm_(gt.tensor([6], device=device))


@pytest.mark.parametrize("name", ["fmax", "fmin"])
def test_fmax_fmin_ignore_nan_with_torch_gradients(name, device):
    av, bv = np.array([1.0, NAN, 3.0, NAN, -2.0]), np.array([NAN, 2.0, 3.0, NAN, 5.0])
    a, ta = both(av, device, grad=True)
    b, tb = both(bv, device, grad=True)
    out, tout = getattr(gt, name)(a, b), getattr(torch, name)(ta, tb)
    same(out, tout)
    out.sum().backward()
    tout.sum().backward()
    same(a.grad, ta.grad)
    same(b.grad, tb.grad)
    same(getattr(a, name)(0.0), getattr(ta, name)(torch.tensor(0.0)))


def test_float_math_methods(device):
    a, ta = both(X, device)
    b, tb = both(X[::-1].copy() + 0.1, device)
    for name in ["copysign", "hypot", "logaddexp", "nextafter"]:
        same(getattr(a, name)(b), getattr(ta, name)(tb), rtol=1e-6)
    same(a.clone().hypot_(b), ta.clone().hypot_(tb), rtol=1e-6)
    same(a.signbit(), ta.signbit())
    same(a.asinh(), ta.asinh(), rtol=1e-6)
    same((a * 0.5).atanh_(), (ta * 0.5).atanh_(), rtol=1e-6)


def test_i0_values_and_gradient(device):
    xs = np.array([0.0, 1.0, -3.5, 14.9, 15.1, -30.0])
    x, tx = both(xs, device, grad=True)
    out, tout = gt.i0(x), torch.i0(tx)
    same(out, tout, rtol=1e-10)
    out.sum().backward()
    tout.sum().backward()
    same(x.grad, tx.grad, rtol=1e-9)
    f, tf = both(xs.astype(np.float32), device)
    same(f.i0(), tf.i0(), rtol=2e-6)
    same(gt.special.i0(gt.tensor([1, 2], device=device)), torch.special.i0(torch.tensor([1, 2])),
         rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_polygamma(n, device):
    xs = np.array([0.3, 1.0, 2.5, 7.0, 40.0])
    x, tx = both(xs, device, grad=True)
    out, tout = gt.polygamma(n, x), torch.polygamma(n, tx)
    same(out, tout, rtol=1e-8)
    out.sum().backward()
    tout.sum().backward()
    same(x.grad, tx.grad, rtol=1e-8)
    same(x.detach().polygamma(n), tx.detach().polygamma(n), rtol=1e-8)
    with pytest.raises(ValueError, match=r"\[polygamma\]"):
        gt.polygamma(-1, x)


def test_mvlgamma(device):
    x, tx = both(np.array([2.5, 3.0, 7.25]), device, grad=True)
    out, tout = gt.mvlgamma(x, 3), torch.mvlgamma(tx, 3)
    same(out, tout, rtol=1e-10)
    out.sum().backward()
    tout.sum().backward()
    same(x.grad, tx.grad, rtol=1e-10)
    same(gt.special.multigammaln(x.detach(), 2), torch.special.multigammaln(tx.detach(), 2))
    with pytest.raises(ValueError, match=r"\[mvlgamma\].*greater than"):
        gt.mvlgamma(gt.tensor([0.2], device=device), 3)


def test_queries(device):
    x = gt.zeros(2, 3, device=device)
    assert x.ndimension() == 2 and x.nelement() == 6
    assert x.is_signed() and not gt.zeros(1, dtype=gt.uint8).is_signed()
    assert not gt.zeros(1, dtype=gt.bool).is_signed()
    assert x.is_same_size(gt.ones(2, 3)) and not gt.is_same_size(x, gt.ones(3, 2))
    assert x.is_cpu == (device == "cpu")
    assert x.get_device() == (-1 if device == "cpu" else 0)
    assert gt.is_tensor(x) and not gt.is_tensor(np.zeros(1))
    assert not gt.is_neg(-x) and gt.resolve_neg(x) is x
    assert gt.is_nonzero(gt.tensor([0.5], device=device))
    assert not gt.tensor([[0]], device=device).is_nonzero()
    with pytest.raises(RuntimeError, match=r"\[is_nonzero\].*2 values"):
        gt.is_nonzero(gt.ones(2, device=device))
