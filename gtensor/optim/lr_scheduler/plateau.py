"""ReduceLROnPlateau: cut the rate when a metric stops improving."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rates by ``factor`` once a metric has not improved for ``patience`` steps.

    :meth:`step` takes the metric (a number or a 0-d tensor, read on the
    host). An improvement beats the best value so far by ``threshold``
    (relative or absolute); after a cut, ``cooldown`` steps pass before bad
    steps count again. A rate never goes below its ``min_lr``, and a cut
    smaller than ``eps`` is skipped. As in PyTorch.

    Args:
        optimizer: the optimizer.
        mode: "min" (the metric should fall) or "max".
        factor: the rate's multiplier at a cut (< 1).
        patience: bad steps tolerated before a cut.
        threshold: the margin of an improvement.
        threshold_mode: "rel" (``best * (1 -/+ threshold)``) or "abs" (``best -/+ threshold``).
        cooldown: steps to wait after a cut.
        min_lr: a lower bound on the rates (a float or one per group).
        eps: the smallest change of a rate that is applied.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = ReduceLROnPlateau(opt, factor=0.5, patience=1)
        >>> for val_loss in [1.0, 1.0, 1.0, 1.0, 1.0]:  # no improvement after the first
        ...     opt.step(); sched.step(val_loss); print(opt.param_groups[0]["lr"], end=" ")
        1.0 1.0 0.5 0.5 0.25
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, threshold: float = 1e-4, threshold_mode: str = "rel",
                 cooldown: int = 0, min_lr: float | Sequence[float] = 0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError(f"[ReduceLROnPlateau] factor should be < 1.0, got {factor}")
        check_optimizer("ReduceLROnPlateau", optimizer)
        self.factor = factor
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"[ReduceLROnPlateau] expected {n} min_lrs, got {len(min_lr)}")
            self.default_min_lr: float | None = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * n
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = [g["lr"] for g in optimizer.param_groups]
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError(f"[ReduceLROnPlateau] mode must be 'min' or 'max', got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"[ReduceLROnPlateau] threshold_mode must be 'rel' or 'abs', got "
                             f"{threshold_mode!r}")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    @property
    def in_cooldown(self) -> bool:
        """Whether the scheduler is waiting after a cut."""
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        """Whether the metric ``a`` improves on ``best`` by the threshold."""
        if self.mode == "min":
            return a < (best * (1.0 - self.threshold) if self.threshold_mode == "rel"
                        else best - self.threshold)
        return a > (best * (self.threshold + 1.0) if self.threshold_mode == "rel"
                    else best + self.threshold)

    def step(self, metrics: Any) -> None:  # type: ignore[override]
        """Record one step's metric and cut the rates if it has stalled for too long."""
        current = float(metrics)
        self.last_epoch += 1
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(f"[ReduceLROnPlateau] the optimizer has {len(groups)} "
                                   f"parameter groups and min_lrs has {len(self.min_lrs)} "
                                   "(was a group added?): set min_lrs to one per group")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, low in zip(groups, self.min_lrs, strict=True):
            old = float(group["lr"])
            new = max(old * self.factor, low)
            if old - new > self.eps:
                group["lr"] = new

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict` (the rates live in the optimizer's)."""
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)
