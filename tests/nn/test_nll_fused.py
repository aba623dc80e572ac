"""The fused class-index NLL (``F.nll_loss``, ``F.cross_entropy``): values, gradients and second
derivatives against PyTorch, on both devices, float32 and float64."""

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F

torch = pytest.importorskip("torch")

# (loss, input shape, keyword arguments); the targets hold ignore_index 1 once
CASES = [
    ("cross_entropy", (5, 4), {"reduction": "none"}),
    ("cross_entropy", (5, 4), {"reduction": "sum", "weight": True, "ignore_index": 1}),
    ("cross_entropy", (3, 4, 2), {"weight": True, "ignore_index": 1, "label_smoothing": 0.2}),
    ("cross_entropy", (3, 4, 2), {"reduction": "none", "label_smoothing": 0.3, "weight": True}),
    ("nll_loss", (5, 4), {"ignore_index": 1}),
    ("nll_loss", (4,), {"reduction": "sum", "weight": True}),
]
TOL = {"float32": {"rtol": 2e-5, "atol": 1e-6}, "float64": {"rtol": 1e-12, "atol": 1e-14}}


def _inputs(rng, shape, dtype, kwargs):
    x = rng.standard_normal(shape).astype(dtype)
    tshape = (shape[0], *shape[2:]) if len(shape) > 1 else ()
    t = rng.integers(0, shape[1] if len(shape) > 1 else shape[0], size=tshape)
    if t.ndim:
        t.flat[0] = 1  # one target ignored where ignore_index is 1
    w = rng.uniform(0.5, 2.0, size=x.shape[1 if x.ndim > 1 else 0]).astype(dtype)
    return x, t, (w if kwargs.get("weight") else None)


def _both(name, x, t, w, kwargs, device):
    """The loss and the input's gradient (loss times a random cotangent) in gtensor and torch."""
    kw = {k: v for k, v in kwargs.items() if k != "weight"}
    xg = gt.tensor(x, device=device, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    got = getattr(F, name)(xg, gt.tensor(t, device=device),
                           None if w is None else gt.tensor(w, device=device), **kw)
    want = getattr(torch.nn.functional, name)(xt, torch.tensor(t),
                                              None if w is None else torch.tensor(w), **kw)
    cot = np.random.default_rng(1).standard_normal(want.shape).astype(x.dtype)
    (got * gt.tensor(cot, device=device)).sum().backward()
    (want * torch.tensor(cot)).sum().backward()
    return (got.detach().cpu().numpy(), xg.grad.cpu().numpy()), (want.detach().numpy(),
                                                                  xt.grad.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_and_gradients_match_torch(device, dtype, rng):
    for name, shape, kwargs in CASES:
        x, t, w = _inputs(rng, shape, dtype, kwargs)
        (loss, grad), (want, want_grad) = _both(name, x, t, w, kwargs, device)
        assert loss.dtype == want.dtype and loss.shape == want.shape, (name, kwargs)
        np.testing.assert_allclose(loss, want, **TOL[dtype], err_msg=f"{name} {kwargs}")
        np.testing.assert_allclose(grad, want_grad, **TOL[dtype], err_msg=f"{name} {kwargs}")
    x = rng.standard_normal((2, 3)).astype(dtype)  # every target ignored: nan, zero gradient
    (loss, grad), (want, want_grad) = _both("nll_loss", x, np.array([-100, -100]), None, {},
                                            device)
    assert np.isnan(loss) and np.isnan(want)
    np.testing.assert_array_equal(grad, want_grad)


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_second_derivatives_match_torch(device, reduction, rng):
    """Through log_softmax's VJP, and through the gradient's dependence on the incoming one."""
    x = rng.standard_normal((3, 4))
    t = np.array([2, 0, 3])
    w = rng.uniform(0.5, 2.0, size=4)
    u = rng.standard_normal(3 if reduction == "none" else ())
    r = rng.standard_normal((3, 4))
    kw = {"reduction": reduction, "label_smoothing": 0.1}
    results = []
    for lib, fn in ((gt, F.cross_entropy), (torch, torch.nn.functional.cross_entropy)):
        dev = {"device": device} if lib is gt else {}
        xs = lib.tensor(x, requires_grad=True, **dev)
        us = lib.tensor(u, requires_grad=True, **dev)
        loss = fn(xs, lib.tensor(t, **dev), lib.tensor(w, **dev), **kw)
        (gx,) = lib.autograd.grad(loss, xs, grad_outputs=us, create_graph=True)
        second = lib.autograd.grad((gx * lib.tensor(r, **dev)).sum(), (xs, us))
        results.append([np.asarray(v.detach().cpu().numpy()) for v in (gx, *second)])
    for got, want in zip(*results, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_composed_path_agrees(device, rng):
    """A weight that requires grad, or a half input, takes the ops-composed reference."""
    x = rng.standard_normal((4, 3)).astype(np.float32)
    t = gt.tensor(np.array([2, 0, -100, 1]), device=device)
    w = rng.uniform(0.5, 2.0, size=3).astype(np.float32)
    grads = []
    for w_grad in (False, True):
        xs = gt.tensor(x, device=device, requires_grad=True)
        ws = gt.tensor(w, device=device, requires_grad=w_grad)
        loss = F.cross_entropy(xs, t, ws, label_smoothing=0.2)
        loss.backward()
        grads.append((loss.item(), xs.grad.cpu().numpy()))
    assert ws.grad is not None
    assert grads[1][0] == pytest.approx(grads[0][0], rel=1e-6)
    np.testing.assert_allclose(grads[1][1], grads[0][1], rtol=1e-5, atol=1e-7)
    half = F.cross_entropy(gt.tensor(x, device=device, dtype=gt.bfloat16), t, reduction="none")
    assert half.dtype is gt.bfloat16
    want = F.cross_entropy(gt.tensor(x, device=device), t, reduction="none").cpu().numpy()
    np.testing.assert_allclose(half.float().cpu().numpy(), want, rtol=2e-2, atol=2e-2)


def test_weight_of_another_length_refused():
    with pytest.raises(gt.ShapeError, match=r"^\[nll_loss\] weight tensor should be defined "
                       "either for all 3 classes"):
        F.nll_loss(gt.zeros(2, 3), gt.tensor([0, 1]), gt.ones(4))
