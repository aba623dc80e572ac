"""LinearLR, PolynomialLR, MultiplicativeLR, LambdaLR, CosineAnnealingWarmRestarts, CyclicLR,
SequentialLR and ReduceLROnPlateau against torch.optim.lr_scheduler."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.optim import lr_scheduler as S

torch = pytest.importorskip("torch")

STEPS = 12


class Halving:
    """A callable object with state: its attributes go into the state dict."""

    def __init__(self) -> None:
        self.factor = 0.5

    def __call__(self, epoch: int) -> float:
        return self.factor if epoch % 3 == 0 else 1.0


def _opt(lib, adam=False):
    groups = [{"params": [lib.nn.Parameter(lib.zeros(1))], "lr": lr} for lr in (0.5, 1.0)]
    if adam:
        return lib.optim.Adam(groups, lr=0.5, betas=(0.9, 0.99))
    return lib.optim.SGD(groups, lr=0.5, momentum=0.9)


def _momenta(opt):
    return [g["betas"][0] if "betas" in g else g["momentum"] for g in opt.param_groups]


def _curve(make, lib, adam=False, metrics=None):
    opt = _opt(lib, adam)
    sched = make(lib.optim.lr_scheduler, opt)
    rows = [sched.get_last_lr() + _momenta(opt)]
    for i in range(STEPS):
        opt.step()
        sched.step() if metrics is None else sched.step(metrics[i])
        rows.append(sched.get_last_lr() + [g["lr"] for g in opt.param_groups] + _momenta(opt))
    return np.array(rows[1:]), np.array(rows[0])


SCHEDULES = {
    "linear": lambda L, o: L.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=5),
    "linear_default": lambda L, o: L.LinearLR(o),
    "polynomial": lambda L, o: L.PolynomialLR(o, total_iters=8, power=2.0),
    "multiplicative": lambda L, o: L.MultiplicativeLR(o, [lambda e: 0.9, Halving()]),
    "lambda": lambda L, o: L.LambdaLR(o, [lambda e: 1 / (1 + e), Halving()]),
    "warm_restarts": lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2,
                                                                eta_min=0.05),
    "triangular2": lambda L, o: L.CyclicLR(o, 0.1, [1.0, 2.0], step_size_up=3,
                                           step_size_down=2, mode="triangular2",
                                           base_momentum=0.7, max_momentum=[0.9, 0.95]),
    "exp_range": lambda L, o: L.CyclicLR(o, [0.1, 0.2], 1.0, step_size_up=2,
                                         mode="exp_range", gamma=0.9, cycle_momentum=False),
    "scale_fn": lambda L, o: L.CyclicLR(o, 0.1, 1.0, step_size_up=4, scale_fn=lambda x:
                                        1 / (1 + x), scale_mode="iterations"),
    "sequential": lambda L, o: L.SequentialLR(o, [L.LinearLR(o, 0.1, total_iters=3),
                                                  L.ExponentialLR(o, 0.8)], milestones=[4]),
    "sequential3": lambda L, o: L.SequentialLR(o, [
        L.ExponentialLR(o, 0.9), L.CosineAnnealingWarmRestarts(o, T_0=2),
        L.MultiplicativeLR(o, lambda e: 0.5)], milestones=[3, 7]),
}


@pytest.mark.parametrize("name", SCHEDULES)
def test_rates_and_momenta_match_torch(name) -> None:
    make = SCHEDULES[name]
    got, got_start = _curve(make, gt)
    want, want_start = _curve(make, torch)
    np.testing.assert_allclose(got_start, want_start, rtol=1e-12)
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_cyclic_momentum_cycles_adam_beta1() -> None:
    make = SCHEDULES["triangular2"]
    got, want = _curve(make, gt, adam=True), _curve(make, torch, adam=True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[0][:, -2:].min() < 0.9  # the momentum moved


@pytest.mark.parametrize("kwargs", [
    {"patience": 1},
    {"mode": "max", "factor": 0.5, "patience": 0, "threshold": 0.1, "threshold_mode": "abs",
     "cooldown": 2, "min_lr": [0.1, 0.3]},
    {"factor": 0.5, "patience": 0, "min_lr": 0.2, "eps": 0.05},
])
def test_reduce_on_plateau_matches_torch(kwargs) -> None:
    metrics = [5.0, 4.0, 4.0, 4.1, 3.9997, 3.0, 3.2, 3.5, 3.4, 5.0, 2.0, 2.0]
    make = lambda L, o: L.ReduceLROnPlateau(o, **kwargs)  # noqa: E731
    got, want = _curve(make, gt, metrics=metrics), _curve(make, torch, metrics=metrics)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[0][-1, 0] < 0.5  # cut at least once


@pytest.mark.parametrize("t_mult", [1, 2])
def test_warm_restarts_fractional_epochs_match_torch(t_mult) -> None:
    epochs = [0, 0.5, 1.2, 2.9, 3.0, 3.5, 7.25, 10, 21.5, 4.0]
    lrs = []
    for lib in (gt, torch):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=t_mult)
        rows = []
        for e in epochs:
            sched.step(e)
            rows.append(sched.get_last_lr() + [sched.T_cur, sched.T_i, sched.last_epoch])
        lrs.append(rows)
    np.testing.assert_allclose(lrs[0], lrs[1], rtol=1e-12)
    with pytest.raises(ValueError, match="non-negative epoch"):
        sched = S.CosineAnnealingWarmRestarts(_opt(gt), T_0=3)
        sched.step(-1)


@pytest.mark.parametrize("name", ["multiplicative", "warm_restarts", "triangular2",
                                  "sequential3", "plateau"])
def test_state_dict_resume_matches_uninterrupted(name) -> None:
    make = SCHEDULES.get(name, lambda L, o: L.ReduceLROnPlateau(o, patience=0))
    metrics = [3.0, 2.0, 2.5, 2.5, 1.0, 1.5, 1.5, 1.5]

    def run(opt, sched, steps):
        for i in steps:
            opt.step()
            sched.step(metrics[i]) if name == "plateau" else sched.step()
        return [g["lr"] for g in opt.param_groups] + _momenta(opt)

    opt = _opt(gt)
    sched = make(S, opt)
    whole = run(opt, sched, range(8))
    opt = _opt(gt)
    sched = make(S, opt)
    run(opt, sched, range(4))
    saved_opt, saved = opt.state_dict(), sched.state_dict()
    opt = _opt(gt)
    resumed = make(S, opt)
    opt.load_state_dict(saved_opt)
    resumed.load_state_dict(saved)
    assert run(opt, resumed, range(4, 8)) == pytest.approx(whole, rel=1e-12)


def test_argument_checks() -> None:
    with pytest.raises(ValueError, match=r"\[LinearLR\] start_factor"):
        S.LinearLR(_opt(gt), start_factor=0.0)
    with pytest.raises(TypeError, match=r"\[MultiplicativeLR\] lr_lambda should be a function"):
        S.MultiplicativeLR(_opt(gt), 0.9)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive integer T_0"):
        S.CosineAnnealingWarmRestarts(_opt(gt), T_0=0)
    with pytest.raises(ValueError, match="expected 2 values for max_lr"):
        S.CyclicLR(_opt(gt), 0.1, [1.0])
    with pytest.raises(ValueError, match="mode must be"):
        S.CyclicLR(_opt(gt), 0.1, 1.0, mode="sawtooth")
    with pytest.raises(ValueError, match="momentum or betas"):
        S.CyclicLR(gt.optim.Rprop([gt.nn.Parameter(gt.zeros(1))]), 0.1, 1.0)
    with pytest.raises(ValueError, match="factor should be < 1.0"):
        S.ReduceLROnPlateau(_opt(gt), factor=1.0)
    with pytest.raises(ValueError, match="threshold_mode"):
        S.ReduceLROnPlateau(_opt(gt), threshold_mode="pct")
    opt = _opt(gt)
    with pytest.raises(ValueError, match="ReduceLROnPlateau"):
        S.SequentialLR(opt, [S.ReduceLROnPlateau(opt)], milestones=[])
    with pytest.raises(ValueError, match="one milestone fewer"):
        S.SequentialLR(opt, [S.StepLR(opt, 2)], milestones=[3])
    with pytest.raises(ValueError, match="drives another"):
        S.SequentialLR(opt, [S.StepLR(_opt(gt), 2)], milestones=[])
