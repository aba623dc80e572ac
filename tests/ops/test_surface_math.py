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


GAMMA_X = np.array([-7.3, -2.5, -0.99953, -1e-4, 1e-5, 0.3, 1.0, 1.4616, 2.0, 7.5, 33.0, 1e5])
ERFINV_Y = np.array([-1 + 1e-12, -0.9999, -0.7, -0.2, 0.0, 1e-9, 0.3, 0.5, 0.95, 1 - 1e-15])


def test_erfinv_is_accurate_to_float64_across_its_range():
    mpmath = pytest.importorskip("mpmath")
    y = np.concatenate([np.linspace(-0.9999, 0.9999, 401), 1 - np.logspace(-15, -1, 60),
                        np.logspace(-300, -1, 30), [np.nextafter(1.0, 0.0)]])
    with mpmath.workdps(40):
        want = np.array([float(mpmath.erfinv(mpmath.mpf(float(v)))) for v in y])
    np.testing.assert_allclose(gt.erfinv(gt.tensor(y)).numpy(), want, rtol=5e-16, atol=0)


def test_gamma_functions_on_each_device(device):
    grads(gt.lgamma, torch.lgamma, GAMMA_X[:6], device=device, rtol=1e-12, atol=1e-13)
    grads(gt.erfinv, torch.erfinv, ERFINV_Y[2:8], device=device, rtol=1e-12)
    grads(gt.digamma, torch.digamma, GAMMA_X[:6], device=device, rtol=1e-9)


@pytest.mark.parametrize("name", ["lgamma", "digamma", "erfinv"])
def test_gamma_functions_match_torch(name):
    x = ERFINV_Y if name == "erfinv" else GAMMA_X
    rtol = 1e-9 if name == "digamma" else 1e-11  # torch's trigamma is 5e-10 off at 1: pi**2/6
    grads(getattr(gt, name), getattr(torch, name), x, rtol=rtol, atol=1e-13)
    special = np.array([0.0, -0.0, -1.0, -3.0, INF, -INF, NAN, 1.0, -1.0, 1.5, -2.0])
    for dt in (np.float64, np.float32):
        a = (x if dt is np.float64 else x.astype(dt))
        same(getattr(gt, name)(gt.tensor(a)), getattr(torch, name)(torch.tensor(a)), rtol=2e-6,
             atol=1e-6)
        same(getattr(gt, name)(gt.tensor(special.astype(dt))),  # torch's float32 digamma:
             getattr(torch, name)(torch.tensor(special.astype(dt))), rtol=2e-6)  # 1e-6 off
    same(getattr(gt, name)(gt.tensor([0, 1])), getattr(torch, name)(torch.tensor([0, 1])),
         rtol=2e-6)
    same(getattr(gt.tensor(x), name + "_")(), getattr(torch.tensor(x), name + "_")(), rtol=1e-11,
         atol=1e-13)


def test_ndtr_matches_torch_and_keeps_its_lower_tail(device):
    grads(gt.special.ndtr, torch.special.ndtr, np.array([-3.0, -0.5, 0.0, 0.7, 4.0]),
          device=device, rtol=1e-12, atol=1e-15)
    tail = gt.special.ndtr(gt.tensor([-10.0, -INF, INF, NAN], dtype=gt.float64,
                                    device=device)).cpu().numpy()
    np.testing.assert_allclose(tail[:3], [7.619853024160527e-24, 0.0, 1.0], rtol=1e-10)
    assert math.isnan(tail[3])
    assert gt.special.ndtr(gt.tensor([0], device=device)).dtype is gt.float32


def test_special_names():
    x = gt.tensor(GAMMA_X)
    y = gt.tensor([1.0, 0.5], dtype=gt.float64, requires_grad=True)
    gt.digamma(y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [math.pi ** 2 / 6, math.pi ** 2 / 2], rtol=1e-15)
    assert gt.special.gammaln(x).tolist() == gt.lgamma(x).tolist()
    assert gt.special.psi(x).tolist() == gt.special.digamma(x).tolist() == gt.digamma(x).tolist()
    assert gt.special.erfinv(gt.tensor([0.5])).tolist() == gt.erfinv(gt.tensor([0.5])).tolist()


@pytest.mark.parametrize("call, error", [
    (lambda: gt.lgamma(gt.tensor([1j])), "lgamma"),
    (lambda: gt.erfinv([0.5]), "erfinv"),
    (lambda: gt.fmod(2.0, gt.ones(2)), "fmod"),
    (lambda: gt.fmod(gt.tensor([3]), gt.tensor([0])), "fmod"),
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


@pytest.mark.parametrize("name,args", [("hypot", 2), ("logaddexp", 2), ("fmod", 2),
                                       ("fmax", 2), ("xlogy", 2), ("asinh", 1), ("frac", 1),
                                       ("sinc", 1), ("nan_to_num", 1), ("sgn", 1)])
def test_composite_functions_write_into_out(name, args, device):
    x = gt.tensor([0.5, -1.5, 2.0], device=device)
    out = gt.zeros(3, device=device)
    f = getattr(gt, name)
    got = f(*(x, x.abs())[:args], out=out)
    assert got is out
    assert out.tolist() == f(*(x, x.abs())[:args]).tolist()


def test_float_power_of_a_complex_number_base():
    got = gt.float_power(1 + 2j, gt.tensor([1.0, 2.0]))
    want = torch.float_power(1 + 2j, torch.tensor([1.0, 2.0]))
    assert got.dtype is gt.complex128
    np.testing.assert_allclose(got.numpy(), want.numpy())
