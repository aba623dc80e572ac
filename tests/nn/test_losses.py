"""Losses against NumPy references (and PyTorch CPU when installed), plus gradchecks."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.autograd import gradcheck, gradgradcheck


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    return {"none": loss, "sum": loss.sum(), "mean": loss.mean()}[reduction]


def ce_ref(x, t, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy of class indices, classes on axis 1."""
    c = x.shape[1]
    lp = np.moveaxis(_log_softmax(x, 1), 1, -1).reshape(-1, c)
    tt = t.reshape(-1)
    w = np.ones(c) if weight is None else weight
    valid = tt != ignore_index
    safe = np.where(valid, tt, 0)
    wt = w[safe] * valid
    nll = -lp[np.arange(len(tt)), safe] * wt
    smooth = -(lp * w).sum(1) * valid
    loss = (1 - label_smoothing) * nll + label_smoothing / c * smooth
    if reduction == "mean":
        return loss.sum() / wt.sum()
    return loss.sum() if reduction == "sum" else loss.reshape(t.shape)


def _t(a: np.ndarray, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(a, device=device, requires_grad=grad)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted, ignore, smoothing", [
    (False, False, 0.0), (True, False, 0.0), (False, True, 0.2), (True, True, 0.1)])
def test_cross_entropy_indices(reduction, weighted, ignore, smoothing, device, rng) -> None:
    x = rng.standard_normal((5, 4)) * 3
    t = rng.integers(0, 4, size=5)
    if ignore:
        t[1] = -100
    w = rng.uniform(0.5, 2.0, size=4) if weighted else None
    got = F.cross_entropy(_t(x, device), _t(t, device), None if w is None else _t(w, device),
                          reduction=reduction, label_smoothing=smoothing)
    want = ce_ref(x, t, w, reduction=reduction, label_smoothing=smoothing)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10)


def test_cross_entropy_spatial_and_1d(rng) -> None:
    x = rng.standard_normal((2, 3, 4, 2))
    t = rng.integers(0, 3, size=(2, 4, 2))
    np.testing.assert_allclose(F.cross_entropy(_t(x), _t(t), reduction="none").numpy(),
                               ce_ref(x, t, reduction="none"), rtol=1e-10)
    v = rng.standard_normal(5)
    got = F.cross_entropy(_t(v), gt.tensor(2)).item()
    assert got == pytest.approx(-_log_softmax(v, 0)[2])


def test_cross_entropy_probabilities(rng) -> None:
    x = rng.standard_normal((4, 3))
    p = np.exp(_log_softmax(rng.standard_normal((4, 3)), 1))
    w = rng.uniform(0.5, 2, size=3)
    q = p * 0.7 + 0.3 / 3
    want = -(_log_softmax(x, 1) * w * q).sum(1).mean()
    got = F.cross_entropy(_t(x), _t(p), _t(w), label_smoothing=0.3)
    assert got.item() == pytest.approx(want, rel=1e-10)


def test_cross_entropy_matches_torch(rng) -> None:
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((6, 5))
    t = rng.integers(0, 5, size=6)
    t[0] = 3
    t[2] = 3
    w = rng.uniform(0.5, 2, size=5)
    for kw in ({}, {"ignore_index": 3}, {"label_smoothing": 0.25}, {"reduction": "sum"}):
        want = torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(t),
                                                 torch.tensor(w), **kw).numpy()
        got = F.cross_entropy(_t(x), _t(t), _t(w), **kw).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-10, err_msg=str(kw))


def test_cross_entropy_and_nll_gradcheck(rng) -> None:
    x = _t(rng.standard_normal((3, 4)), grad=True)
    t = _t(np.array([0, 3, -100]))
    w = _t(rng.uniform(0.5, 2, size=4))
    assert gradcheck(lambda x: F.cross_entropy(x, t, w, label_smoothing=0.1), (x,))
    assert gradcheck(lambda x: F.nll_loss(F.log_softmax(x, 1), t, w), (x,))
    p = _t(np.exp(_log_softmax(rng.standard_normal((3, 4)), 1)))
    assert gradcheck(lambda x: F.cross_entropy(x, p), (x,))


def test_nll_loss(rng) -> None:
    lp = _log_softmax(rng.standard_normal((4, 3)), 1)
    t = np.array([2, 0, 1, 1])
    assert F.nll_loss(_t(lp), _t(t)).item() == pytest.approx(-lp[np.arange(4), t].mean())
    with pytest.raises(TypeError, match="integer"):
        F.nll_loss(_t(lp), _t(t.astype(float)[:, None]))
    with pytest.raises(gt.ShapeError, match="target of shape"):
        F.nll_loss(_t(lp), _t(t[:3]))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_regression_losses(reduction, device, rng) -> None:
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    d = a - b
    cases = {
        F.mse_loss: d**2,
        F.l1_loss: np.abs(d),
        F.smooth_l1_loss: np.where(np.abs(d) < 1, 0.5 * d**2, np.abs(d) - 0.5),
    }
    for fn, loss in cases.items():
        got = fn(_t(a, device), _t(b, device), reduction=reduction)
        np.testing.assert_allclose(got.cpu().numpy(), _reduce(loss, reduction), rtol=1e-10,
                                   err_msg=fn.__name__)
    beta = 0.5
    got = F.smooth_l1_loss(_t(a, device), _t(b, device), reduction, beta=beta)
    want = np.where(np.abs(d) < beta, 0.5 * d**2 / beta, np.abs(d) - 0.5 * beta)
    np.testing.assert_allclose(got.cpu().numpy(), _reduce(want, reduction), rtol=1e-10)


def test_binary_losses(rng) -> None:
    x = rng.standard_normal((4, 3)) * 4
    t = rng.uniform(size=(4, 3))
    w = rng.uniform(0.5, 1.5, size=(1, 3))
    pw = rng.uniform(0.5, 3, size=3)
    p = 1 / (1 + np.exp(-x))
    bce = -(t * np.log(p) + (1 - t) * np.log(1 - p))
    got = F.binary_cross_entropy(_t(p), _t(t), _t(w), reduction="none")
    np.testing.assert_allclose(got.numpy(), bce * w, rtol=1e-9)
    np.testing.assert_allclose(F.binary_cross_entropy_with_logits(_t(x), _t(t)).item(),
                               bce.mean(), rtol=1e-9)
    weighted = -(pw * t * np.log(p) + (1 - t) * np.log(1 - p))
    got = F.binary_cross_entropy_with_logits(_t(x), _t(t), pos_weight=_t(pw), reduction="sum")
    assert got.item() == pytest.approx(weighted.sum(), rel=1e-9)
    edge = F.binary_cross_entropy(gt.tensor([0.0, 1.0], dtype=gt.float64),
                                  gt.tensor([1.0, 0.0], dtype=gt.float64), reduction="none")
    assert edge.tolist() == [100.0, 100.0]
    sat = gt.tensor([0.0, 1.0, 0.5], requires_grad=True)  # saturated probabilities: finite grads
    F.binary_cross_entropy(sat, gt.tensor([1.0, 0.0, 1.0]), reduction="sum").backward()
    assert sat.grad.tolist() == pytest.approx([-1e12, 1e12, -2.0], rel=1e-6)
    big = F.binary_cross_entropy_with_logits(gt.tensor([800.0, -800.0]), gt.tensor([0.0, 1.0]),
                                             reduction="none")
    assert big.tolist() == [800.0, 800.0]


def test_kl_div(rng) -> None:
    lp = _log_softmax(rng.standard_normal((3, 4)), 1)
    q = np.exp(_log_softmax(rng.standard_normal((3, 4)), 1))
    q[0, 1] = 0.0
    pointwise = np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - lp), 0.0)
    assert F.kl_div(_t(lp), _t(q), reduction="batchmean").item() == pytest.approx(
        pointwise.sum() / 3, rel=1e-10)
    assert F.kl_div(_t(lp), _t(q)).item() == pytest.approx(pointwise.mean(), rel=1e-10)
    lq = np.log(q + 1e-3)
    got = F.kl_div(_t(lp), _t(lq), reduction="sum", log_target=True).item()
    assert got == pytest.approx((np.exp(lq) * (lq - lp)).sum(), rel=1e-10)


def test_pointwise_losses_gradcheck(rng) -> None:
    a = _t(rng.standard_normal((2, 3)), grad=True)
    b = _t(rng.standard_normal((2, 3)))
    p = _t(rng.uniform(0.1, 0.9, size=(2, 3)), grad=True)
    t = _t(rng.uniform(size=(2, 3)))
    pw = _t(np.array([0.5, 1.0, 2.0]))
    assert gradcheck(lambda a: F.mse_loss(a, b), (a,))
    assert gradcheck(lambda a: F.l1_loss(a, b, reduction="sum"), (a,))
    assert gradcheck(lambda a: F.smooth_l1_loss(a, b, beta=0.7), (a,))
    assert gradcheck(lambda p: F.binary_cross_entropy(p, t), (p,))
    assert gradgradcheck(lambda p: F.binary_cross_entropy(p, t), (p,))
    assert gradcheck(lambda a: F.binary_cross_entropy_with_logits(a, t, pos_weight=pw), (a,))
    assert gradcheck(lambda a: F.kl_div(F.log_softmax(a, 1), t, reduction="batchmean"), (a,))


def test_loss_modules_and_errors(rng) -> None:
    x, y = _t(rng.standard_normal((3, 2))), _t(rng.standard_normal((3, 2)))
    assert gt.nn.MSELoss(reduction="sum")(x, y).item() == pytest.approx(
        F.mse_loss(x, y, "sum").item())
    labels = _t(np.array([0, 1, 1]))
    ce = gt.nn.CrossEntropyLoss(weight=_t(np.array([1.0, 2.0])), label_smoothing=0.1)
    assert ce(x, labels).item() == pytest.approx(
        F.cross_entropy(x, labels, _t(np.array([1.0, 2.0])), label_smoothing=0.1).item())
    assert "weight" in dict(ce.named_buffers())
    with pytest.raises(ValueError, match="reduction"):
        F.mse_loss(x, y, reduction="avg")
    with pytest.raises(gt.ShapeError, match="differs"):
        F.l1_loss(x, y[:2])
