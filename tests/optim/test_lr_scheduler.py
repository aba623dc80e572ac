"""Scheduler curves against their closed forms, state dicts, and argument checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gtensor as gt
from gtensor.optim import SGD, Adam
from gtensor.optim import lr_scheduler as S


def _opt(lr: float = 0.5, groups: int = 1) -> SGD:
    params = [{"params": [gt.nn.Parameter(gt.zeros(1))], "lr": lr * (i + 1)}
              for i in range(groups)]
    return SGD(params, lr=lr, momentum=0.9)


def _curve(sched: S.LRScheduler, n: int) -> np.ndarray:
    lrs = [sched.get_last_lr()]
    for _ in range(n - 1):
        sched.optimizer.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    return np.array(lrs)


EPOCHS = np.arange(25)


@pytest.mark.parametrize("make, closed", [
    (lambda o: S.StepLR(o, step_size=4, gamma=0.5), lambda b, e: b * 0.5 ** (e // 4)),
    (lambda o: S.MultiStepLR(o, milestones=[10, 3, 17], gamma=0.1),
     lambda b, e: b * 0.1 ** np.searchsorted([3, 10, 17], e, side="right")),
    (lambda o: S.ExponentialLR(o, gamma=0.9), lambda b, e: b * 0.9**e),
    (lambda o: S.CosineAnnealingLR(o, T_max=12, eta_min=0.01),
     lambda b, e: 0.01 + (b - 0.01) * (1 + np.cos(np.pi * e / 12)) / 2),
    (lambda o: S.LambdaLR(o, lambda e: 1 / (1 + e)), lambda b, e: b / (1 + e)),
])
def test_closed_forms(make, closed) -> None:
    opt = _opt(groups=2)
    got = _curve(make(opt), len(EPOCHS))
    want = np.stack([closed(0.5, EPOCHS), closed(1.0, EPOCHS)], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert [g["lr"] for g in opt.param_groups] == list(got[-1])


def test_lambda_per_group() -> None:
    sched = S.LambdaLR(_opt(groups=2), [lambda e: e, lambda e: 2.0])
    np.testing.assert_allclose(_curve(sched, 3), [[0, 2], [0.5, 2], [1, 2]])
    with pytest.raises(ValueError, match="expected 2 lr_lambdas"):
        S.LambdaLR(_opt(groups=2), [lambda e: e])


def _one_cycle_reference(step: int, total: int, max_lr: float, pct: float, div: float,
                         final_div: float, three_phase: bool) -> tuple[float, float]:
    initial = max_lr / div
    low = initial / final_div
    end1 = pct * total - 1
    if three_phase:
        phases = [(end1, initial, max_lr, 0.95, 0.85), (2 * end1, max_lr, initial, 0.85, 0.95),
                  (total - 1, initial, low, 0.95, 0.95)]
    else:
        phases = [(end1, initial, max_lr, 0.95, 0.85), (total - 1, max_lr, low, 0.85, 0.95)]
    start = 0.0
    for i, (end, a, b, ma, mb) in enumerate(phases):
        if step <= end or i == len(phases) - 1:
            t = (step - start) / (end - start)
            cos = (math.cos(math.pi * t) + 1) / 2
            return b + (a - b) * cos, mb + (ma - mb) * cos
        start = end
    raise AssertionError


@pytest.mark.parametrize("three_phase", [False, True])
def test_one_cycle_with_momentum(three_phase: bool) -> None:
    opt = _opt()
    total = 20
    sched = S.OneCycleLR(opt, max_lr=2.0, total_steps=total, pct_start=0.25,
                         three_phase=three_phase)
    for step in range(total):
        lr, mom = _one_cycle_reference(step, total, 2.0, 0.25, 25.0, 1e4, three_phase)
        assert opt.param_groups[0]["lr"] == pytest.approx(lr, rel=1e-12)
        assert opt.param_groups[0]["momentum"] == pytest.approx(mom, rel=1e-12)
        if step < total - 1:
            sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(2.0 / 25 / 1e4)
    sched.step()
    with pytest.raises(ValueError, match="total_steps is 20"):
        sched.step()


def test_one_cycle_linear_adam_betas_and_epochs() -> None:
    opt = Adam([gt.nn.Parameter(gt.zeros(1))], betas=(0.9, 0.99))
    sched = S.OneCycleLR(opt, max_lr=1.0, epochs=2, steps_per_epoch=5, anneal_strategy="linear")
    lrs, betas = [], []
    for _ in range(10):
        lrs.append(opt.param_groups[0]["lr"])
        betas.append(opt.param_groups[0]["betas"])
        if len(lrs) < 10:
            sched.step()
    np.testing.assert_allclose(lrs[:3], [0.04, 0.52, 1.0])
    assert betas[2] == (pytest.approx(0.85), 0.99) and betas[0][0] == pytest.approx(0.95)
    np.testing.assert_allclose(lrs[-1], 1.0 / 25 / 1e4)


def test_state_dict_resume() -> None:
    sched = S.StepLR(_opt(), step_size=2, gamma=0.5)
    for _ in range(5):
        sched.step()
    state = sched.state_dict()
    other = S.StepLR(_opt(), step_size=2, gamma=0.5)
    other.load_state_dict(state)
    assert other.last_epoch == 5 and other.get_last_lr() == [0.5 * 0.5**2]
    assert other.optimizer.param_groups[0]["lr"] == 0.5 * 0.5**2
    lam = S.LambdaLR(_opt(), lambda e: 2.0)
    assert lam.state_dict()["lr_lambdas"] == [None]  # functions are not saved


def test_argument_checks() -> None:
    with pytest.raises(ValueError, match="step_size"):
        S.StepLR(_opt(), step_size=0)
    with pytest.raises(ValueError, match="total_steps"):
        S.OneCycleLR(_opt(), max_lr=1.0)
    with pytest.raises(TypeError, match="not an Optimizer"):
        S.StepLR(object(), step_size=1)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="initial_lr"):
        S.StepLR(_opt(), step_size=1, last_epoch=3)
