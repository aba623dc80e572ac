"""SequentialLR: schedulers that take over from one another at milestones."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer
from .plateau import ReduceLROnPlateau


class SequentialLR(LRScheduler):
    """Run ``schedulers[i]`` between ``milestones[i - 1]`` and ``milestones[i]``, as in PyTorch.

    Each scheduler restarts at its milestone, from epoch 0 (the groups'
    ``initial_lr`` for the closed-form schedulers).

    Args:
        optimizer: the optimizer all the schedulers drive.
        schedulers: the schedulers, in order.
        milestones: the steps at which the next scheduler takes over (one fewer).
        last_epoch: the index of the last step taken.

    Example:
        >>> from gtensor.optim.lr_scheduler import ExponentialLR, LinearLR
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> warmup = LinearLR(opt, start_factor=0.5, total_iters=2)
        >>> sched = SequentialLR(opt, [warmup, ExponentialLR(opt, gamma=0.5)], milestones=[2])
        >>> for _ in range(5):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.75 1.0 0.5 0.25 0.125
    """

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[LRScheduler],
                 milestones: Sequence[int], last_epoch: int = -1) -> None:
        check_optimizer("SequentialLR", optimizer)
        if len(schedulers) < 1:
            raise ValueError("[SequentialLR] expects at least one scheduler, got none")
        for i, sched in enumerate(schedulers):
            if not hasattr(sched, "optimizer"):
                raise TypeError(f"[SequentialLR] the scheduler at index {i} has no optimizer "
                                "attribute")
            if isinstance(sched, ReduceLROnPlateau):
                raise ValueError("[SequentialLR] does not support ReduceLROnPlateau (its step "
                                 f"needs a metric), got one at index {i}")
            if sched.optimizer is not optimizer:
                raise ValueError(f"[SequentialLR] expects all schedulers to drive its "
                                 f"optimizer; the {type(sched).__name__} at index {i} drives "
                                 "another")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"[SequentialLR] expects one milestone fewer than schedulers, got "
                             f"{len(schedulers)} schedulers and {len(milestones)} milestones")
        self._schedulers = list(schedulers)
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        _undo_first_step(self)
        first = self._schedulers[bisect.bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self) -> None:
        """Advance one step: the current scheduler steps, or the next one starts."""
        self.last_epoch += 1
        idx = bisect.bisect_right(self._milestones, self.last_epoch)
        sched = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            sched._jump_to(0)
        else:
            sched.step()
        self._last_lr = sched.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        """Return the state, with each scheduler's state dict under ``_schedulers``."""
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict` and set the rates it last set."""
        state = dict(state_dict)
        for sched, saved in zip(self._schedulers, state.pop("_schedulers"), strict=True):
            sched.load_state_dict(saved)
        self.__dict__.update(state)
        self._set_lrs(self._last_lr)


def _undo_first_step(sched: Any) -> None:
    """Take back the step each scheduler (nested ones too) took when it was made."""
    for s in getattr(sched, "_schedulers", ()):
        if hasattr(s, "_schedulers"):
            _undo_first_step(s)
        else:
            s.last_epoch -= 1
