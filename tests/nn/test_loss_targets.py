"""Class-index and embedding indices that PyTorch refuses, all-ignored targets, the logits BCE
gradient at 0, and targets that broadcast against the input."""

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.errors import DTypeError

LOSSES = [F.cross_entropy, F.nll_loss]


def _t(a, device, grad=False):
    return gt.tensor(a, device=device, requires_grad=grad)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize(("bad", "value"), [(-1, -1), (-2, -2), (4, 4)])
def test_class_index_out_of_range_raises(device, rng, loss, bad, value):
    x = _t(rng.standard_normal((3, 4)), device)
    target = _t(np.array([0, bad, 1]), device)
    name = loss.__name__
    with pytest.raises(IndexError, match=rf"^\[{name}\] index {value} is out of bounds for "
                       "dimension 1 with size 4"):
        loss(x, target).item()  # a CUDA device reports at this synchronizing call
    weight = _t(np.ones(4), device)
    with pytest.raises(IndexError, match=rf"^\[{name}\] index {value} is out of bounds"):
        loss(x, target, weight=weight).item()


@pytest.mark.parametrize("loss", LOSSES)
def test_negative_ignore_index_still_ignored(device, rng, loss):
    x = rng.standard_normal((3, 4))
    got = loss(_t(x, device), _t(np.array([2, -1, 0]), device), ignore_index=-1)
    lp = x if loss is F.nll_loss else x - np.log(np.exp(x).sum(1, keepdims=True))
    assert got.item() == pytest.approx(-(lp[0, 2] + lp[2, 0]) / 2, rel=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
def test_int32_targets_refused_uint8_accepted(device, rng, loss):
    x = rng.standard_normal((3, 4))
    t = np.array([1, 0, 3])
    with pytest.raises(DTypeError, match=rf"^\[{loss.__name__}\] expected integer class-index "
                       "targets of dtype int64"):
        loss(_t(x, device), gt.tensor(t, dtype=gt.int32, device=device))
    got = loss(_t(x, device), gt.tensor(t, dtype=gt.uint8, device=device))
    assert got.item() == pytest.approx(loss(_t(x, device), _t(t, device)).item(), rel=1e-12)


@pytest.mark.parametrize("kwargs", [{}, {"label_smoothing": 0.1}, {"weight": [1.0, 2.0, 0.5]}])
def test_all_targets_ignored_gives_nan_loss_and_zero_grad(device, rng, kwargs):
    if "weight" in kwargs:
        kwargs = {"weight": _t(np.array(kwargs["weight"]), device)}
    x = _t(rng.standard_normal((2, 3)), device, grad=True)
    loss = F.cross_entropy(x, _t(np.array([-100, -100]), device), **kwargs)
    assert np.isnan(loss.item())
    loss.backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), np.zeros((2, 3)))


def test_bce_with_logits_gradient_at_zero_with_soft_targets(device):
    t = np.array([0.2, 0.5, 1.0, 0.0])
    pw = np.array([2.0, 3.0, 0.5, 1.5])
    for pos_weight in (None, pw):
        x = _t(np.zeros(4), device, grad=True)
        kw = {} if pos_weight is None else {"pos_weight": _t(pos_weight, device)}
        F.binary_cross_entropy_with_logits(x, _t(t, device), reduction="sum", **kw).backward()
        p = np.ones(4) if pos_weight is None else pos_weight
        want = (1 - t) - 0.5 * (1 + (p - 1) * t)  # d/dx at x = 0 of PyTorch's formula
        np.testing.assert_allclose(x.grad.cpu().numpy(), want, rtol=1e-12)


def test_bce_with_logits_gradient_away_from_zero(device, rng):
    x = rng.standard_normal(5) * 3
    t = rng.uniform(0, 1, 5)
    xt = _t(x, device, grad=True)
    F.binary_cross_entropy_with_logits(xt, _t(t, device), reduction="sum").backward()
    np.testing.assert_allclose(xt.grad.cpu().numpy(), 1 / (1 + np.exp(-x)) - t, rtol=1e-10)


@pytest.mark.parametrize(("loss", "ref"), [
    (F.mse_loss, lambda d: d * d),
    (F.l1_loss, np.abs),
    (F.smooth_l1_loss, lambda d: np.where(np.abs(d) < 1, 0.5 * d * d, np.abs(d) - 0.5)),
])
def test_broadcast_target_warns_and_broadcasts(device, rng, loss, ref):
    x = rng.standard_normal((3, 1)) * 2
    y = rng.standard_normal(4) * 2
    with pytest.warns(UserWarning, match=rf"^\[{loss.__name__}\] using a target size \(4,\) "
                      "that is different to the input size"):
        got = loss(_t(x, device), _t(y, device), reduction="none")
    assert got.shape == (3, 4)
    np.testing.assert_allclose(got.cpu().numpy(), ref(x - y), rtol=1e-12)
    with pytest.raises(gt.ShapeError, match=rf"^\[{loss.__name__}\] target shape \(2,\) differs"):
        loss(_t(np.ones((3, 4)), device), _t(np.ones(2), device))


def test_embedding_refuses_negative_and_large_indices(device, rng):
    w = _t(rng.standard_normal((3, 2)), device)
    with pytest.raises(IndexError, match=r"^\[embedding\] index -1 is out of bounds for "
                       "dimension 0 with size 3"):
        F.embedding(_t(np.array([[0, -1]]), device), w).cpu()
    with pytest.raises(IndexError, match=r"^\[embedding\] index 3 is out of bounds"):
        F.embedding(_t(np.array([3]), device), w).cpu()
    with pytest.raises(DTypeError, match=r"^\[embedding\] expected indices of dtype int64 or "
                       "int32, got float32"):
        F.embedding(gt.tensor([0.0], device=device), w)


def test_embedding_int32_indices_and_gradient(device, rng):
    a = rng.standard_normal((3, 2))
    w = _t(a, device, grad=True)
    idx = gt.tensor([[2, 0], [2, 2]], dtype=gt.int32, device=device)
    out = F.embedding(idx, w)
    np.testing.assert_array_equal(out.detach().cpu().numpy(), a[[[2, 0], [2, 2]]])
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.cpu().numpy(), [[1, 1], [0, 0], [3, 3]])
