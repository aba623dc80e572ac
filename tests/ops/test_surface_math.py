"""Elementwise number functions and nan-aware reductions against torch: values, gradients,
special values (nan, inf, signed zeros) and typed errors naming the op."""

import math

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

NAN, INF = math.nan, math.inf
X = np.array([-3.5, -2.0, -0.0, 0.0, 0.25, 1.5, 4.2, 7.0])
Y = np.array([2.0, -1.5, 1.0, -2.0, 0.75, 1.0, -0.5, 3.0])
SPECIAL = np.array([NAN, INF, -INF, -1.0, 0.0, 2.5])


def same(got, want, **tol):
    want = want.detach()
    assert got.shape == tuple(want.shape)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), **tol)


def grads(fn, tfn, *arrays, device="cpu", **tol):
    xs = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    txs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = fn(*xs), tfn(*txs)
    same(out, tout, **tol)
    w = np.random.default_rng(1).standard_normal(tuple(tout.shape))
    (out * gt.tensor(w, device=device)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    for x, tx in zip(xs, txs, strict=True):
        same(x.grad, tx.grad, **tol)


def test_representative_subset_on_each_device(device):
    grads(gt.fmod, torch.fmod, X, Y, device=device)
    grads(gt.logaddexp2, torch.logaddexp2, X, Y, device=device)
    grads(lambda x: gt.nansum(x.nan_to_num(posinf=1.0) * x, 0),
          lambda x: torch.nansum(x.nan_to_num(posinf=1.0) * x, 0), SPECIAL, device=device)
    s, ts = gt.tensor(SPECIAL, device=device), torch.tensor(SPECIAL)
    same(gt.isin(s, gt.tensor([2.5, NAN, -INF], device=device)),
         torch.isin(ts, torch.tensor([2.5, NAN, -INF])))
    same(gt.nanmean(s.reshape(2, 3), 1), torch.nanmean(ts.reshape(2, 3), 1))


@pytest.mark.parametrize("name", ["fmod", "heaviside", "float_power",
                                  "logaddexp2"])
def test_binary_values(name):
    pairs = ((X, Y), (X.astype(np.float32), Y.astype(np.float32)), (SPECIAL, SPECIAL[::-1].copy()))
    for a, b in pairs:
        x, y, tx, ty = gt.tensor(a), gt.tensor(b), torch.tensor(a), torch.tensor(b)
        same(getattr(gt, name)(x, y), getattr(torch, name)(tx, ty), rtol=1e-6)
    ints = np.array([-7, 7, -7, 5]), np.array([3, -3, -3, 2])
    if name != "logaddexp2":
        same(getattr(gt, name)(gt.tensor(ints[0]), gt.tensor(ints[1])),
             getattr(torch, name)(torch.tensor(ints[0]), torch.tensor(ints[1])))
    if name in ("fmod", "float_power"):
        same(getattr(gt, name)(gt.tensor(X), 2.5), getattr(torch, name)(torch.tensor(X), 2.5))


@pytest.mark.parametrize("name", ["deg2rad", "rad2deg", "frac", "positive", "sinc", "erfc",
                                  "nan_to_num"])
def test_unary_values_and_grads(name):
    grads(getattr(gt, name), getattr(torch, name), X, rtol=1e-12)
    s = SPECIAL.astype(np.float32)
    same(getattr(gt, name)(gt.tensor(s)), getattr(torch, name)(torch.tensor(s)), rtol=1e-6)
    if name != "positive":
        got = getattr(gt.tensor(X), name + "_")()
        same(got, getattr(torch.tensor(X), name + "_")(), rtol=1e-12)


def test_predicates_and_clamps():
    s, ts = gt.tensor(SPECIAL), torch.tensor(SPECIAL)
    for name in ("isposinf", "isneginf", "isreal"):
        same(getattr(gt, name)(s), getattr(torch, name)(ts))
    same(gt.isreal(gt.tensor([1 + 0j, 1j])), torch.isreal(torch.tensor([1 + 0j, 1j])))
    same(gt.isposinf(gt.tensor([1, 2])), torch.isposinf(torch.tensor([1, 2])))
    same(gt.nan_to_num(s, 1.0, 2.0, -2.0), torch.nan_to_num(ts, 1.0, 2.0, -2.0))
    grads(lambda x: gt.clamp_min(x, 0.3) + x.clamp_max(0.3),
          lambda x: torch.clamp_min(x, 0.3) + x.clamp_max(0.3), X)
    x = gt.tensor(X)
    x.clamp_min_(0.0).clamp_max_(2.0)
    same(x, torch.tensor(X).clamp(0.0, 2.0))
    same(gt.isin(gt.tensor([1, 2, 3, 4]), gt.tensor([4, 2]), invert=True),
         torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([4, 2]), invert=True))
    same(gt.isin(3, gt.tensor([3, 4])), torch.isin(3, torch.tensor([3, 4])))
    same(gt.isin(gt.tensor([1.0]), gt.tensor([], dtype=gt.float32)),
         torch.isin(torch.tensor([1.0]), torch.tensor([])))


def test_float_power_promotes_to_double():
    grads(gt.float_power, torch.float_power, np.abs(X) + 0.5, Y)
    assert gt.float_power(gt.tensor([2]), gt.tensor([3])).dtype is gt.float64
    x = gt.tensor([2.0], dtype=gt.float64)
    assert x.float_power_(2).tolist() == [4.0]


@pytest.mark.parametrize("dim", [None, 1, (0, 1)])
def test_reductions(dim):
    a = np.array([[1.0, NAN, 3.0, -2.0], [NAN, NAN, 0.0, 5.0], [0.5, 0.0, 1.0, 2.0]])
    grads(lambda x: gt.nansum(x, dim), lambda x: torch.nansum(x, dim), a)
    grads(lambda x: gt.nanmean(x, dim), lambda x: torch.nanmean(x, dim), a)
    same(gt.count_nonzero(gt.tensor(a), dim), torch.count_nonzero(torch.tensor(a), dim))
    b = np.nan_to_num(a)
    for name in ("std_mean", "var_mean"):
        got = getattr(gt, name)(gt.tensor(b), dim, correction=0, keepdim=True)
        want = getattr(torch, name)(torch.tensor(b), dim, correction=0, keepdim=True)
        for g, w in zip(got, want, strict=True):
            same(g, w, rtol=1e-12)
    d = None if dim is None else (dim if isinstance(dim, int) else 0)
    got, want = gt.aminmax(gt.tensor(b), dim=d), torch.aminmax(torch.tensor(b), dim=d)
    same(got.min, want.min)
    same(got.max, want.max)


@pytest.mark.parametrize("call, error", [
    (lambda: gt.fmod(2.0, gt.ones(2)), "fmod"),
    (lambda: gt.heaviside(gt.ones(2), gt.ones(2, dtype=gt.float64)), "heaviside"),
    (lambda: gt.frac(gt.tensor([1, 2])), "frac"),
    (lambda: gt.positive(gt.tensor([True])), "positive"),
    (lambda: gt.ones(2).float_power_(2), "float_power_"),
    (lambda: gt.nanmean(gt.tensor([1, 2])), "nanmean"),
    (lambda: gt.aminmax(gt.ones(0)), "aminmax"),
    (lambda: gt.deg2rad(gt.tensor([1j])), "deg2rad"),
    (lambda: gt.isin(1, 2), "isin"),
])
def test_bad_input_names_the_op(call, error):
    with pytest.raises((gt.GTensorError, ValueError, TypeError), match=rf"^\[{error}\]"):
        call()
