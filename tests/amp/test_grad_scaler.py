"""gt.amp.GradScaler against torch.amp.GradScaler: skipped steps, backoff, growth, state."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.amp.grad_scaler import found_inf_and_unscale_

torch = pytest.importorskip("torch")

# the loss is (p * x).sum(): its gradient is x (times the scale); inf and nan rows overflow
ROWS = np.array([[1.0, -2.0, 0.5], [0.25, 1.0, -1.0], [np.inf, 1.0, 0.0], [0.5, 0.5, 0.5],
                 [1.0, np.nan, 1.0], [-1.0, 0.0, 2.0]], dtype=np.float32)
OPTIONS = {"init_scale": 8.0, "growth_factor": 4.0, "backoff_factor": 0.25,
           "growth_interval": 2}


class _TorchSGD:
    """Plain SGD for torch's scaler (building a torch.optim optimizer first imports for
    seconds); the scaler needs only ``param_groups`` and ``step``."""

    def __init__(self, params, lr):
        self.param_groups, self.lr = [{"params": list(params)}], lr

    def zero_grad(self):
        for p in self.param_groups[0]["params"]:
            p.grad = None

    def step(self):
        with torch.no_grad():
            for p in self.param_groups[0]["params"]:
                p -= self.lr * p.grad


def _train(ns, device, p0):
    p = ns.nn.Parameter(ns.tensor(p0, device=device))
    opt = gt.optim.SGD([p], lr=0.1) if ns is gt else _TorchSGD([p], lr=0.1)
    scaler = ns.amp.GradScaler(device.split(":")[0], **OPTIONS)
    history = []
    for row in ROWS:
        opt.zero_grad()
        scaler.scale((p * ns.tensor(row, device=device)).sum()).backward()
        scaler.step(opt)
        scaler.update()
        history.append((scaler.get_scale(), scaler._get_growth_tracker(),
                        p.detach().cpu().numpy().copy()))
    return history


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # the simulator's isfinite
def test_skips_backs_off_and_grows_as_torch(device: str) -> None:
    p0 = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    ours, ref = _train(gt, device, p0), _train(torch, "cpu", p0)
    assert [h[:2] for h in ours] == [h[:2] for h in ref]
    assert [h[0] for h in ours] == [8.0, 32.0, 8.0, 8.0, 2.0, 2.0]  # grow, back off twice
    for (_, _, got), (_, _, want) in zip(ours, ref, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_array_equal(ours[2][2], ours[1][2])  # the inf step left p alone


def test_unscale_then_step_clip_and_errors() -> None:
    p = gt.nn.Parameter(gt.tensor([3.0, 4.0]))
    opt = gt.optim.SGD([p], lr=1.0)
    scaler = gt.amp.GradScaler("cpu", init_scale=2.0**10)
    with pytest.raises(RuntimeError, match="scale"):
        scaler.step(opt)
    scaler.scale(p.sum() * 2.0).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(p.grad.numpy(), [2.0, 2.0])
    with pytest.raises(RuntimeError, match=r"^\[GradScaler.unscale_\] .*already been called"):
        scaler.unscale_(opt)
    gt.nn.utils.clip_grad_norm_([p], 1.0)
    scaler.step(opt)  # does not unscale again
    np.testing.assert_allclose(p.detach().numpy(), [3.0 - 2**-0.5, 4.0 - 2**-0.5], rtol=1e-5)
    with pytest.raises(RuntimeError, match=r"^\[GradScaler.step\] .*since the last update"):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match=r"^\[GradScaler.unscale_\] .*after step"):
        scaler.unscale_(opt)
    scaler.update(new_scale=256.0)
    assert scaler.get_scale() == 256.0
    with pytest.raises(RuntimeError, match="[Cc]losure"):
        scaler.step(opt, closure=lambda: 0.0)
    half = gt.nn.Parameter(gt.ones(2).half())
    half.grad = gt.ones(2).half()
    with pytest.raises(ValueError, match="FP16"):
        scaler.unscale_(gt.optim.SGD([half], lr=1.0))


def test_state_dict_round_trip_and_disabled() -> None:
    scaler = gt.amp.GradScaler("cpu", init_scale=16.0, growth_interval=3)
    assert scaler.scale(gt.ones(())).item() == 16.0
    scaler.update(new_scale=gt.tensor(64.0))
    state = scaler.state_dict()
    assert state == {"scale": 64.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                     "growth_interval": 3, "_growth_tracker": 0}
    restored = gt.amp.GradScaler("cpu")
    restored.load_state_dict(state)
    assert restored.state_dict() == state
    off = gt.amp.GradScaler("cpu", enabled=False)
    loss = gt.ones(())
    assert off.scale(loss) is loss and off.get_scale() == 1.0 and off.state_dict() == {}
    assert not off.is_enabled()
    with pytest.raises(RuntimeError, match="empty"):
        restored.load_state_dict({})


@pytest.mark.parametrize("bad", [None, float("inf"), float("nan")])
def test_check_and_unscale_is_one_pass_per_gradient_and_one_flag(device: str, bad) -> None:
    rng = np.random.default_rng(0)
    host = [rng.standard_normal((3, 4)).astype(np.float32),
            rng.standard_normal(5),  # float64
            rng.standard_normal((4, 3)).astype(np.float32)]  # read through a transpose
    if bad is not None:
        host[1][2] = bad
    grads = [gt.tensor(host[0], device=device), gt.tensor(host[1], device=device),
             gt.tensor(host[2], device=device).t()]
    versions = [g._version for g in grads]
    found = found_inf_and_unscale_(grads, gt.tensor(0.25, device=device))
    assert found.shape == () and found.dtype is gt.float32
    assert found.item() == (0.0 if bad is None else 1.0)
    for g, h in zip(grads, [host[0], host[1], host[2].T], strict=True):
        np.testing.assert_array_equal(g.cpu().numpy(), h * 0.25)
    assert all(g._version > v for g, v in zip(grads, versions, strict=True))
