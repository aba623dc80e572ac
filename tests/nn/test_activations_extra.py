"""Shrinking and thresholding activations (functional and modules) against torch: values,
gradients at and around the kinks, rrelu in training and evaluation, typed errors."""

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn as nn
import gtensor.nn.functional as F

torch = pytest.importorskip("torch")
tnn, TF = torch.nn, torch.nn.functional

X = np.array([-2.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 3.0])


def check(fn, tfn, device="cpu", a=X):
    x = gt.tensor(a, device=device, requires_grad=True)
    tx = torch.tensor(a, requires_grad=True)
    out, tout = fn(x * 1), tfn(tx * 1)
    np.testing.assert_allclose(out.detach().cpu().numpy(), tout.detach().numpy(), rtol=1e-12)
    w = np.arange(1.0, len(a) + 1)
    (out * gt.tensor(w, device=device)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), tx.grad.numpy(), rtol=1e-12)


CASES = [
    ("softsign", (), ()), ("tanhshrink", (), ()), ("hardshrink", (), ()),
    ("hardshrink", (0.25,), (0.25,)), ("softshrink", (0.25,), (0.25,)),
    ("threshold", (0.25, -1.0), (0.25, -1.0)), ("rrelu", (0.1, 0.3), (0.1, 0.3)),
]
MODULES = {"softsign": "Softsign", "tanhshrink": "Tanhshrink", "hardshrink": "Hardshrink",
           "softshrink": "Softshrink", "threshold": "Threshold", "rrelu": "RReLU"}


def test_each_device(device):
    check(lambda x: F.softshrink(x, 0.5) + F.softsign(x) + F.threshold(x, 0.0, 2.0),
          lambda x: TF.softshrink(x, 0.5) + TF.softsign(x) + TF.threshold(x, 0.0, 2.0), device)


@pytest.mark.parametrize("name, args, targs", CASES)
def test_functional_and_module(name, args, targs):
    check(lambda x: getattr(F, name)(x, *args), lambda x: getattr(TF, name)(x, *targs))
    module, tmodule = getattr(nn, MODULES[name])(*args), getattr(tnn, MODULES[name])(*targs)
    module.eval()
    tmodule.eval()
    check(module, tmodule)


def test_in_place_forms():
    x, tx = gt.tensor(X), torch.tensor(X)
    F.threshold(x, 0.25, 9.0, inplace=True)
    TF.threshold(tx, 0.25, 9.0, inplace=True)
    np.testing.assert_allclose(x.numpy(), tx.numpy())
    x, tx = gt.tensor(X), torch.tensor(X)
    F.rrelu_(x)
    TF.rrelu_(tx)
    np.testing.assert_allclose(x.numpy(), tx.numpy(), rtol=1e-12)
    got = F.threshold(gt.tensor([1, 3]), 2, 7.9)
    want = TF.threshold(torch.tensor([1, 3]), 2, 7.9)
    assert got.dtype is gt.int64 and got.tolist() == want.tolist()
    assert "threshold=0.5, value=1.0, inplace=True" in repr(nn.Threshold(0.5, 1.0, True))


def test_rrelu_training_draws_slopes_in_range(device):
    x = gt.tensor(X, device=device, requires_grad=True)
    layer = nn.RReLU(0.1, 0.3)
    out = layer(x)
    slope = (out / x).detach().cpu().numpy()
    negative = X < 0
    assert np.all((slope[negative] >= 0.1) & (slope[negative] <= 0.3))
    assert len(np.unique(slope[negative])) > 1
    np.testing.assert_array_equal(out.detach().cpu().numpy()[X > 0], X[X > 0])
    out.sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy()[X != 0], slope[X != 0], rtol=1e-6)


@pytest.mark.parametrize("call, error", [
    (lambda: F.softsign(gt.tensor([True])), "softsign"),
    (lambda: F.softshrink(gt.ones(2), -1.0), "softshrink"),
    (lambda: F.rrelu(gt.ones(2), 0.5, 0.1), "rrelu"),
    (lambda: F.threshold(gt.tensor([1j]), 0.0, 1.0), "threshold"),
])
def test_bad_input_names_the_op(call, error):
    with pytest.raises((gt.GTensorError, ValueError), match=rf"^\[{error}\]"):
        call()


def test_softsign_and_tanhshrink_of_integers_are_float():
    for name in ("softsign", "tanhshrink"):
        got = getattr(F, name)(gt.tensor([1, -3]))
        want = getattr(TF, name)(torch.tensor([1, -3]))
        assert got.dtype is gt.float32
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_nan_passes_through_shrinks_and_threshold(device):
    a = np.array([np.nan, -0.0, np.inf, -np.inf, 0.25])
    check(lambda x: F.hardshrink(x) + F.softshrink(x) + F.threshold(x, 0.0, 2.0),
          lambda x: TF.hardshrink(x) + TF.softshrink(x) + TF.threshold(x, 0.0, 2.0), device, a)
