"""Each optimizer's update sequence against its formula in NumPy, state dicts, param groups."""

from __future__ import annotations

import io

import numpy as np
import pytest

import gtensor as gt
from gtensor.optim import SGD, Adagrad, Adam, AdamW, RMSprop

STEPS = 5


def sgd_ref(p, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
            maximize=False):
    buf = None
    for g in grads:
        g = -g if maximize else g
        g = g + weight_decay * p
        if momentum:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        p = p - lr * g
    return p


def adam_ref(p, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
             amsgrad=False, maximize=False, decoupled=False):
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    vmax = np.zeros_like(p)
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v)
        vh = vmax if amsgrad else v
        p = p - lr / (1 - betas[0] ** t) * m / (np.sqrt(vh) / np.sqrt(1 - betas[1] ** t) + eps)
    return p


def rmsprop_ref(p, grads, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                centered=False):
    sq = np.zeros_like(p)
    ga = np.zeros_like(p)
    buf = np.zeros_like(p)
    for g in grads:
        g = g + weight_decay * p
        sq = alpha * sq + (1 - alpha) * g * g
        if centered:
            ga = alpha * ga + (1 - alpha) * g
            avg = np.sqrt(sq - ga * ga) + eps
        else:
            avg = np.sqrt(sq) + eps
        if momentum:
            buf = momentum * buf + g / avg
            p = p - lr * buf
        else:
            p = p - lr * g / avg
    return p


def adagrad_ref(p, grads, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                initial_accumulator_value=0.0, eps=1e-10):
    s = np.full_like(p, initial_accumulator_value)
    for t, g in enumerate(grads, 1):
        g = g + weight_decay * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s) + eps)
    return p


CASES = [
    (SGD, sgd_ref, {"lr": 0.1}),
    (SGD, sgd_ref, {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    (SGD, sgd_ref, {"lr": 0.05, "momentum": 0.8, "nesterov": True, "maximize": True}),
    (Adam, adam_ref, {"lr": 0.01}),
    (Adam, adam_ref, {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1, "amsgrad": True}),
    (Adam, adam_ref, {"lr": 0.02, "maximize": True}),
    (AdamW, lambda p, g, **k: adam_ref(p, g, decoupled=True, **k),
     {"lr": 0.01, "weight_decay": 0.1}),
    (AdamW, lambda p, g, **k: adam_ref(p, g, decoupled=True, weight_decay=1e-2, **k),
     {"lr": 0.01, "amsgrad": True}),
    (RMSprop, rmsprop_ref, {"lr": 0.01}),
    (RMSprop, rmsprop_ref, {"lr": 0.01, "momentum": 0.9, "centered": True,
                            "weight_decay": 0.1}),
    (Adagrad, adagrad_ref, {"lr": 0.1}),
    (Adagrad, adagrad_ref, {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.05,
                            "initial_accumulator_value": 0.5}),
]


def _run(cls, kwargs, p0, grads, device):
    p = gt.nn.Parameter(gt.tensor(p0, device=device))
    opt = cls([p], **kwargs)
    for g in grads:
        p.grad = gt.tensor(g, device=device)
        opt.step()
    return p, opt


@pytest.mark.parametrize("cls, ref, kwargs", CASES)
def test_update_sequence_matches_reference(cls, ref, kwargs, device, rng) -> None:
    shape = (3, 2) if device == "cuda" else (4, 5)
    p0 = rng.standard_normal(shape)
    grads = [rng.standard_normal(shape) for _ in range(STEPS)]
    p, _ = _run(cls, kwargs, p0, grads, device)
    assert p.device.type == device
    np.testing.assert_allclose(p.detach().cpu().numpy(), ref(p0, grads, **kwargs),
                               rtol=1e-10, atol=1e-12)


def test_float32_parameters_follow_reference(rng) -> None:
    p0 = rng.standard_normal((6,)).astype(np.float32)
    grads = [rng.standard_normal((6,)).astype(np.float32) for _ in range(STEPS)]
    p, _ = _run(Adam, {"lr": 0.01}, p0, grads, "cpu")
    assert p.dtype == gt.float32
    np.testing.assert_allclose(p.detach().numpy(), adam_ref(p0.astype(np.float64),
                               [g.astype(np.float64) for g in grads], lr=0.01), rtol=1e-5)


def test_params_without_grad_are_skipped() -> None:
    a = gt.nn.Parameter(gt.ones(2))
    b = gt.nn.Parameter(gt.ones(2))
    opt = SGD([a, b], lr=1.0)
    a.grad = gt.ones(2)
    opt.step()
    assert a.tolist() == [0.0, 0.0] and b.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("cls, kwargs", [(SGD, {"lr": 0.1, "momentum": 0.9}),
                                         (Adam, {"lr": 0.1, "amsgrad": True}),
                                         (RMSprop, {"momentum": 0.5, "centered": True}),
                                         (Adagrad, {})])
def test_state_dict_resume_matches_uninterrupted(cls, kwargs, rng) -> None:
    p0 = rng.standard_normal((3,))
    grads = [rng.standard_normal((3,)) for _ in range(6)]
    full, _ = _run(cls, kwargs, p0, grads, "cpu")
    half, opt = _run(cls, kwargs, p0, grads[:3], "cpu")
    buf = io.BytesIO()
    gt.save({"opt": opt.state_dict(), "p": half}, buf)
    saved = gt.load(io.BytesIO(buf.getvalue()))
    p = gt.nn.Parameter(saved["p"].detach())
    resumed = cls([p], **kwargs)
    resumed.load_state_dict(saved["opt"])
    for g in grads[3:]:
        p.grad = gt.tensor(g)
        resumed.step()
    np.testing.assert_allclose(p.detach().numpy(), full.detach().numpy(), rtol=1e-12)


def test_param_groups_and_options() -> None:
    a, b = gt.nn.Parameter(gt.ones(1)), gt.nn.Parameter(gt.ones(1))
    opt = SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1, momentum=0.0)
    a.grad = gt.ones(1)
    b.grad = gt.ones(1)
    opt.step()
    assert a.item() == pytest.approx(0.9) and b.item() == pytest.approx(0.5)
    assert opt.param_groups[1]["momentum"] == 0.0
    c = gt.nn.Parameter(gt.ones(1))
    opt.add_param_group({"params": c, "lr": 2.0})
    assert len(opt.param_groups) == 3 and opt.param_groups[2]["lr"] == 2.0
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [a]})
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1], [2]]
    with pytest.raises(ValueError, match="3 parameter groups"):
        SGD([a], lr=0.1).load_state_dict(sd)
    opt.zero_grad()
    assert a.grad is None


def test_argument_errors() -> None:
    p = gt.nn.Parameter(gt.ones(1))
    with pytest.raises(ValueError, match="required optimization parameter lr"):
        SGD([p])
    with pytest.raises(ValueError, match="Nesterov"):
        SGD([p], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="beta parameter at index 1"):
        Adam([p], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="empty parameter list"):
        Adam([])
    with pytest.raises(TypeError, match="iterable"):
        Adam(p)
    with pytest.raises(ValueError, match="non-leaf"):
        SGD([p * 2], lr=0.1)


def test_step_with_closure_and_training_reduces_loss() -> None:
    gt.manual_seed(0)
    w = gt.nn.Parameter(gt.randn(3, dtype=gt.float64))
    target = gt.tensor([1.0, -2.0, 0.5], dtype=gt.float64)
    opt = Adam([w], lr=0.1)

    def closure() -> gt.Tensor:
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        return loss

    first = opt.step(closure).item()
    for _ in range(200):
        last = opt.step(closure).item()
    assert last < 1e-4 < first


@pytest.mark.parametrize("kwargs", [{"lr": 0.01, "weight_decay": 0.1, "amsgrad": True},
                                    {"lr": 0.02, "maximize": True}])
def test_adam_fused_kernel_and_composite_path_agree(kwargs, rng) -> None:
    p0 = rng.standard_normal((4, 3))
    grads = [rng.standard_normal((4, 3)) for _ in range(STEPS)]
    fused, _ = _run(Adam, kwargs, p0, grads, "cpu")
    p = gt.nn.Parameter(gt.tensor(p0))
    opt = Adam([p], **kwargs)
    for g in grads:
        p.grad = gt.tensor(np.ascontiguousarray(g.T)).T  # strided: the composite path runs
        opt.step()
    np.testing.assert_allclose(p.detach().numpy(), fused.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(fused.detach().numpy(), adam_ref(p0, grads, **kwargs),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls, kwargs", [
    (gt.optim.SGD, {"lr": 0.1, "momentum": 0.9, "foreach": False, "fused": None}),
    (Adam, {"lr": 0.1, "foreach": True, "fused": False}),
    (AdamW, {"lr": 0.1, "foreach": None, "fused": None}),
    (Adagrad, {"lr": 0.1, "foreach": False, "fused": None}),
    (RMSprop, {"lr": 0.1, "foreach": False}),
    (gt.optim.Adadelta, {"foreach": False}), (gt.optim.Adamax, {"foreach": False}),
    (gt.optim.NAdam, {"foreach": False}), (gt.optim.RAdam, {"foreach": False}),
    (gt.optim.ASGD, {"foreach": False}), (gt.optim.Rprop, {"foreach": False}),
])
def test_foreach_and_fused_keywords_are_accepted(cls, kwargs) -> None:
    """PyTorch code passes foreach=/fused=; they change no result."""
    plain = {k: v for k, v in kwargs.items() if k not in ("foreach", "fused")}
    ws = [gt.tensor([1.0, -2.0], requires_grad=True) for _ in range(2)]
    for w, kw in zip(ws, (kwargs, plain), strict=True):
        opt = cls([w], **kw)
        for _ in range(2):
            opt.zero_grad()
            (w * w * w).sum().backward()
            opt.step()
    np.testing.assert_allclose(ws[0].detach().numpy(), ws[1].detach().numpy())


def test_adam_decoupled_weight_decay_is_adamw() -> None:
    ws = [gt.tensor([1.0, -2.0], requires_grad=True) for _ in range(2)]
    opts = [Adam([ws[0]], lr=0.1, weight_decay=0.1, decoupled_weight_decay=True),
            AdamW([ws[1]], lr=0.1, weight_decay=0.1)]
    for w, opt in zip(ws, opts, strict=True):
        for _ in range(2):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
    np.testing.assert_allclose(ws[0].detach().numpy(), ws[1].detach().numpy())
    assert not Adam([ws[0]], weight_decay=0.1)._decoupled
