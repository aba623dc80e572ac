"""Cyclical schedulers, stepped once per batch: OneCycleLR and CyclicLR (both may cycle the
momentum, SGD's ``momentum`` or Adam's ``beta1``, against the rate)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ..optimizer import Optimizer
from .base import LRScheduler, callable_state, check_optimizer, per_group


def set_momentum(group: dict[str, Any], momentum: float, use_beta1: bool) -> None:
    """Set a group's momentum: Adam's ``beta1`` or SGD's ``momentum``."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def momentum_key(name: str, optimizer: Optimizer) -> bool:
    """True when the optimizer's momentum is ``betas[0]``; raise if it has none."""
    if "betas" in optimizer.defaults:
        return True
    if "momentum" not in optimizer.defaults:
        raise ValueError(f"[{name}] optimizer must support momentum or betas with "
                         "cycle_momentum enabled")
    return False


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith and Topin), stepped once per batch, as in PyTorch.

    The rate rises from ``max_lr / div_factor`` to ``max_lr`` over the first
    ``pct_start`` of ``total_steps``, then anneals to ``initial_lr /
    final_div_factor`` (with ``three_phase``, it first returns to the initial
    rate and anneals over the last phase). As in PyTorch, one step past
    ``total_steps`` is tolerated (a final ``step()`` after the last batch);
    more raise ``ValueError``. With ``cycle_momentum`` the
    momentum (SGD's ``momentum`` or Adam's ``beta1``) moves the opposite way
    between ``max_momentum`` and ``base_momentum``.

    Args:
        optimizer: the optimizer.
        max_lr: the peak rate (a float or one per group).
        total_steps: the number of steps in the cycle (or give epochs and steps_per_epoch).
        epochs: with ``steps_per_epoch``, ``total_steps = epochs * steps_per_epoch``.
        steps_per_epoch: batches per epoch.
        pct_start: fraction of the cycle spent increasing the rate.
        anneal_strategy: "cos" or "linear".
        cycle_momentum: also cycle the momentum.
        base_momentum: momentum at the peak rate.
        max_momentum: momentum at the start and end.
        div_factor: ``initial_lr = max_lr / div_factor``.
        final_div_factor: ``min_lr = initial_lr / final_div_factor``.
        three_phase: use the three-phase schedule.
        last_epoch: the index of the last step taken.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0, momentum=0.9)
        >>> sched = OneCycleLR(opt, max_lr=1.0, total_steps=5)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.9505 0.6113 0.1883 0.0
    """

    def __init__(self, optimizer: Optimizer, max_lr: float | Sequence[float],
                 total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float = 0.85, max_momentum: float = 0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None:
        if total_steps is None:
            if epochs is None or steps_per_epoch is None:
                raise ValueError("[OneCycleLR] give total_steps, or epochs and steps_per_epoch")
            total_steps = epochs * steps_per_epoch
        if total_steps <= 0:
            raise ValueError(f"[OneCycleLR] total_steps must be positive, got {total_steps}")
        if not 0 <= pct_start <= 1:
            raise ValueError(f"[OneCycleLR] pct_start must be in [0, 1], got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"[OneCycleLR] anneal_strategy must be 'cos' or 'linear', got "
                             f"{anneal_strategy!r}")
        n = len(optimizer.param_groups)
        max_lrs = list(max_lr) if isinstance(max_lr, (list, tuple)) else [max_lr] * n
        if len(max_lrs) != n:
            raise ValueError(f"[OneCycleLR] expected {n} max_lr values, got {len(max_lrs)}")
        self.total_steps = total_steps
        self.anneal_strategy = anneal_strategy
        end = float(pct_start * total_steps) - 1
        if three_phase:
            self.phases = [(end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                           (2 * end, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                           (total_steps - 1, "initial_lr", "min_lr", "max_momentum",
                            "max_momentum")]
        else:
            self.phases = [(end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                           (total_steps - 1, "max_lr", "min_lr", "base_momentum",
                            "max_momentum")]
        self.cycle_momentum = cycle_momentum
        self.use_beta1 = (momentum_key("OneCycleLR", optimizer) if cycle_momentum
                          else "betas" in optimizer.defaults)
        self.group_values = []
        for group, peak in zip(optimizer.param_groups, max_lrs, strict=True):
            initial = peak / div_factor
            values = {"initial_lr": initial, "max_lr": peak,
                      "min_lr": initial / final_div_factor,
                      "max_momentum": max_momentum, "base_momentum": base_momentum}
            self.group_values.append(values)
            if last_epoch == -1:
                group["initial_lr"] = initial
        super().__init__(optimizer, last_epoch)

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def _at(self, values: dict[str, float], epoch: int) -> tuple[float, float]:
        if epoch > self.total_steps:
            raise ValueError(f"[OneCycleLR] tried to step {epoch} times; total_steps is "
                             f"{self.total_steps}")
        start_step = 0.0
        for i, (end_step, lr0, lr1, m0, m1) in enumerate(self.phases):
            if epoch <= end_step or i == len(self.phases) - 1:
                pct = (epoch - start_step) / (end_step - start_step) if end_step > start_step \
                    else 1.0
                return (self._anneal(values[lr0], values[lr1], pct),
                        self._anneal(values[m0], values[m1], pct))
            start_step = end_step
        raise AssertionError("unreachable")

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """The 1cycle rate of ``group`` at step ``epoch``."""
        return self._at(self.group_values[group], epoch)[0]

    def _apply(self) -> None:
        super()._apply()
        if not self.cycle_momentum:
            return
        for i, group in enumerate(self.optimizer.param_groups):
            set_momentum(group, self._at(self.group_values[i], self.last_epoch)[1],
                         self.use_beta1)


class CyclicLR(LRScheduler):
    """Cyclical learning rates (Smith), stepped once per batch, as in PyTorch.

    The rate goes from ``base_lr`` up to ``max_lr`` in ``step_size_up``
    steps and back down in ``step_size_down``; the amplitude is scaled by
    ``scale_fn`` of the cycle number (``scale_mode="cycle"``) or of the step
    (``"iterations"``). The modes: ``"triangular"`` (no scaling),
    ``"triangular2"`` (halved each cycle), ``"exp_range"`` (``gamma ** step``).
    With ``cycle_momentum`` the momentum moves between ``max_momentum`` (at
    ``base_lr``) and ``base_momentum`` (at ``max_lr``).

    Args:
        optimizer: the optimizer.
        base_lr: the lower rate (a float or one per group).
        max_lr: the upper rate (a float or one per group).
        step_size_up: steps in the rising half of a cycle.
        step_size_down: steps in the falling half (``step_size_up`` by default).
        mode: "triangular", "triangular2" or "exp_range" (ignored with ``scale_fn``).
        gamma: the base of the "exp_range" scaling.
        scale_fn: a custom scaling, ``0 <= scale_fn(x) <= 1``.
        scale_mode: "cycle" or "iterations": what ``scale_fn`` is given.
        cycle_momentum: also cycle the momentum.
        base_momentum: the momentum at ``max_lr`` (a float or one per group).
        max_momentum: the momentum at ``base_lr`` (a float or one per group).
        last_epoch: the index of the last batch.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0, momentum=0.9)
        >>> sched = CyclicLR(opt, base_lr=0.1, max_lr=1.0, step_size_up=2)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.55 1.0 0.55 0.1
    """

    def __init__(self, optimizer: Optimizer, base_lr: float | Sequence[float],
                 max_lr: float | Sequence[float], step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn: Callable[[float], float] | None = None,
                 scale_mode: str = "cycle", cycle_momentum: bool = True,
                 base_momentum: float | Sequence[float] = 0.8,
                 max_momentum: float | Sequence[float] = 0.9, last_epoch: int = -1) -> None:
        check_optimizer("CyclicLR", optimizer)
        base_lrs = per_group("CyclicLR", optimizer, "base_lr", base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                group["lr"] = lr
        self.max_lrs = per_group("CyclicLR", optimizer, "max_lr", max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"[CyclicLR] mode must be 'triangular', 'triangular2' or "
                             f"'exp_range' when no scale_fn is given, got {mode!r}")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.use_beta1 = momentum_key("CyclicLR", optimizer)
            self.base_momentums = per_group("CyclicLR", optimizer, "base_momentum",
                                            base_momentum)
            self.max_momentums = per_group("CyclicLR", optimizer, "max_momentum", max_momentum)
            if last_epoch == -1:
                for high, low, group in zip(self.max_momentums, self.base_momentums,
                                            optimizer.param_groups, strict=True):
                    set_momentum(group, high, self.use_beta1)
                    group["max_momentum"] = high
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def scale_fn(self, x: float) -> float:
        """The amplitude's scale at ``x`` (a cycle number or a step, per ``scale_mode``)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma**x

    def _position(self, epoch: int) -> tuple[float, float]:
        """The fraction of the amplitude reached at ``epoch``, and its scale."""
        cycle = math.floor(1 + epoch / self.total_size)
        x = 1.0 + epoch / self.total_size - cycle
        if x <= self.step_ratio:
            rise = x / self.step_ratio
        else:
            rise = (x - 1) / (self.step_ratio - 1)
        return rise, self.scale_fn(cycle if self.scale_mode == "cycle" else epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr`` plus the scaled part of the amplitude reached at ``epoch``."""
        rise, scale = self._position(epoch)
        return base_lr + (self.max_lrs[group] - base_lr) * rise * scale

    def _apply(self) -> None:
        super()._apply()
        if not self.cycle_momentum:
            return
        rise, scale = self._position(self.last_epoch)
        for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                    self.max_momentums, strict=True):
            set_momentum(group, high - (high - low) * rise * scale, self.use_beta1)

    def state_dict(self) -> dict[str, Any]:
        """Return the scheduler's state (a callable object's ``scale_fn`` attributes too)."""
        return {**super().state_dict(),
                "_scale_fn_custom": callable_state(self._scale_fn_custom)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict`."""
        state = dict(state_dict)
        saved = state.pop("_scale_fn_custom", None)
        if saved is not None and self._scale_fn_custom is not None:
            self._scale_fn_custom.__dict__.update(saved)
        super().load_state_dict(state)
