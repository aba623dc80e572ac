"""The scheduler base class, and the schedulers driven by user functions: LambdaLR and
MultiplicativeLR."""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import Any

from ..optimizer import Optimizer


def check_optimizer(name: str, optimizer: Any) -> None:
    """Raise ``TypeError`` unless ``optimizer`` is an :class:`Optimizer`."""
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"[{name}] {type(optimizer).__name__} is not an Optimizer")


def per_group(name: str, optimizer: Optimizer, what: str, value: Any) -> list[Any]:
    """``value`` once per parameter group, or the list given (checked to have one per group)."""
    n = len(optimizer.param_groups)
    if not isinstance(value, (list, tuple)):
        return [value] * n
    if len(value) != n:
        raise ValueError(f"[{name}] expected {n} values for {what}, got {len(value)}")
    return list(value)


def callable_state(fn: Any) -> dict[str, Any] | None:
    """The attributes of a callable object, to save; None for a function (it is not saved)."""
    return None if fn is None or isinstance(fn, types.FunctionType) else dict(fn.__dict__)


class LRScheduler:
    """Base class: subclasses define ``lr_at(base_lr, epoch, group_index)``.

    Args:
        optimizer: the optimizer whose groups' ``lr`` is set.
        last_epoch: the index of the last step taken (-1 to start fresh).

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = gt.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
        >>> for epoch in range(4):  # train, then step the optimizer, then the scheduler
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        1.0 0.1 0.1 0.01
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        check_optimizer(type(self).__name__, optimizer)
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError(f"[{type(self).__name__}] param 'initial_lr' is not specified in "
                               f"param_groups[{i}] when resuming an optimizer")
        self.base_lrs = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._last_lr: list[float] = []
        self._initial_step()

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """The learning rate of group ``group`` after ``epoch`` steps."""
        raise TypeError(f"[{type(self).__name__}] an LRScheduler subclass must define lr_at")

    def get_last_lr(self) -> list[float]:
        """The learning rates set by the last :meth:`step`, one per group."""
        return list(self._last_lr)

    def step(self) -> None:
        """Advance one step and set every group's learning rate."""
        self.last_epoch += 1
        self._apply()

    def _initial_step(self) -> None:
        """The step a new scheduler takes (SequentialLR calls it when a scheduler starts)."""
        self.step()

    def _jump_to(self, epoch: int) -> None:
        """Set the step count to ``epoch`` and apply its rates (SequentialLR, at a milestone)."""
        self.last_epoch = epoch
        self._apply()

    def _apply(self) -> None:
        """Set every group's rate from the scheduler's state (after a step or a load)."""
        self._set_lrs([self.lr_at(base, self.last_epoch, i)
                       for i, base in enumerate(self.base_lrs)])

    def _set_lrs(self, lrs: list[float]) -> None:
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = list(lrs)

    def state_dict(self) -> dict[str, Any]:
        """Return the scheduler's state (everything but the optimizer and functions)."""
        return {k: v for k, v in self.__dict__.items()
                if k not in ("optimizer", "lr_lambdas") and not callable(v)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict` and set the learning rates accordingly."""
        self.__dict__.update(state_dict)
        self._apply()


class _LambdaScheduler(LRScheduler):
    """A scheduler with one function of the epoch per group; callable objects' attributes are
    saved in the state dict (``lr_lambdas``, None for plain functions), as in PyTorch."""

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int) -> None:
        name = type(self).__name__
        check_optimizer(name, optimizer)
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"[{name}] expected {n} lr_lambdas, got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"[{name}] lr_lambda should be a function, got "
                                f"{type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """Return the scheduler's state, with the attributes of callable-object lambdas."""
        return {**super().state_dict(), "lr_lambdas": [callable_state(f)
                                                       for f in self.lr_lambdas]}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict` (lambdas' attributes included)."""
        state = dict(state_dict)
        for fn, saved in zip(self.lr_lambdas, state.pop("lr_lambdas", ()), strict=False):
            if saved is not None:
                fn.__dict__.update(saved)
        super().load_state_dict(state)


class LambdaLR(_LambdaScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``.

    Args:
        optimizer: the optimizer.
        lr_lambda: a function of the epoch, or a list of one per parameter group.
        last_epoch: the index of the last step taken.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = LambdaLR(opt, lambda e: 0.5 ** e)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5 0.25 0.125 0.0625
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr * lr_lambda(epoch)``."""
        return base_lr * self.lr_lambdas[group](epoch)


class MultiplicativeLR(_LambdaScheduler):
    """``lr = lr * lr_lambda(epoch)`` at each step (from the group's current rate).

    Unlike the closed-form schedulers, the rate follows changes made to
    ``group["lr"]`` by others, as in PyTorch; the first step keeps the rate.

    Args:
        optimizer: the optimizer.
        lr_lambda: a function of the epoch, or a list of one per parameter group.
        last_epoch: the index of the last step taken.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = MultiplicativeLR(opt, lambda e: 0.5)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5 0.25 0.125 0.0625
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def _initial_step(self) -> None:
        self.last_epoch += 1
        self._set_lrs([g["lr"] for g in self.optimizer.param_groups])

    def step(self) -> None:
        """Advance one step: multiply every group's rate by its factor for the new epoch."""
        self._jump_to(self.last_epoch + 1)

    def _jump_to(self, epoch: int) -> None:
        self.last_epoch = epoch
        self._set_lrs([g["lr"] * fn(epoch) for g, fn in zip(self.optimizer.param_groups,
                                                              self.lr_lambdas, strict=True)])

    def _apply(self) -> None:
        self._set_lrs(self._last_lr)  # a loaded state: the rates it saved
