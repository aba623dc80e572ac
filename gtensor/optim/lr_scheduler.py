"""Learning-rate schedulers: StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR,
OneCycleLR and LambdaLR.

Each scheduler sets ``group["lr"]`` from a closed form of the step count
``last_epoch`` and the groups' initial rates (``group["initial_lr"]``), so
the rate after ``n`` calls to :meth:`LRScheduler.step` depends only on
``n``. Call ``scheduler.step()`` after ``optimizer.step()``.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from typing import Any

from .optimizer import Optimizer


class LRScheduler:
    """Base class: subclasses define ``lr_at(base_lr, epoch, group_index)``.

    Args:
        optimizer: the optimizer whose groups' ``lr`` is set.
        last_epoch: the index of the last step taken (-1 to start fresh).

    Example:
        >>> sched = gt.optim.lr_scheduler.StepLR(opt, step_size=10)  # doctest: +SKIP
        >>> for epoch in range(30):
        ...     train(); opt.step(); sched.step()  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"[{type(self).__name__}] {type(optimizer).__name__} is not an "
                            "Optimizer")
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
        self.step()

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

    def _apply(self) -> None:
        lrs = [self.lr_at(base, self.last_epoch, i) for i, base in enumerate(self.base_lrs)]
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = lrs

    def state_dict(self) -> dict[str, Any]:
        """Return the scheduler's state (everything but the optimizer and functions)."""
        return {k: v for k, v in self.__dict__.items()
                if k != "optimizer" and not callable(v) and k != "lr_lambdas"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict` and set the learning rates accordingly."""
        self.__dict__.update(state_dict)
        self._apply()


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``.

    Args:
        optimizer: the optimizer.
        lr_lambda: a function of the epoch, or one per parameter group.
        last_epoch: the index of the last step taken.

    Example:
        >>> sched = LambdaLR(opt, lambda e: 0.95 ** e)  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        n = len(optimizer.param_groups)
        if callable(lr_lambda):
            self.lr_lambdas = [lr_lambda] * n
        else:
            self.lr_lambdas = list(lr_lambda)
            if len(self.lr_lambdas) != n:
                raise ValueError(f"[LambdaLR] expected {n} lr_lambdas, got "
                                 f"{len(self.lr_lambdas)}")
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr * lr_lambda(epoch)``."""
        return base_lr * self.lr_lambdas[group](epoch)


class StepLR(LRScheduler):
    """``lr = initial_lr * gamma ** (epoch // step_size)``.

    Example:
        >>> sched = StepLR(opt, step_size=30, gamma=0.1)  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        if step_size <= 0:
            raise ValueError(f"[StepLR] step_size must be positive, got {step_size}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr * gamma ** (epoch // step_size)``."""
        return base_lr * self.gamma ** (epoch // self.step_size)


class MultiStepLR(LRScheduler):
    """``lr = initial_lr * gamma ** (number of milestones <= epoch)``.

    Example:
        >>> sched = MultiStepLR(opt, milestones=[30, 80], gamma=0.1)  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = sorted(int(m) for m in milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr * gamma ** bisect_right(milestones, epoch)``."""
        return base_lr * self.gamma ** bisect.bisect_right(self.milestones, epoch)


class ExponentialLR(LRScheduler):
    """``lr = initial_lr * gamma ** epoch``.

    Example:
        >>> sched = ExponentialLR(opt, gamma=0.9)  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr * gamma ** epoch``."""
        return base_lr * self.gamma**epoch


class CosineAnnealingLR(LRScheduler):
    """``lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``.

    Example:
        >>> sched = CosineAnnealingLR(opt, T_max=100)  # doctest: +SKIP
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        if T_max <= 0:
            raise ValueError(f"[CosineAnnealingLR] T_max must be positive, got {T_max}")
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """The cosine curve from ``base_lr`` (epoch 0) to ``eta_min`` (epoch ``T_max``)."""
        return self.eta_min + (base_lr - self.eta_min) * (
            1 + math.cos(math.pi * epoch / self.T_max)) / 2


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
        >>> sched = OneCycleLR(opt, max_lr=0.1, total_steps=1000)  # doctest: +SKIP
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
        self.use_beta1 = "betas" in optimizer.defaults
        if cycle_momentum and not self.use_beta1 and "momentum" not in optimizer.defaults:
            raise ValueError("[OneCycleLR] optimizer must support momentum or betas with "
                             "cycle_momentum enabled")
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
            momentum = self._at(self.group_values[i], self.last_epoch)[1]
            if self.use_beta1:
                group["betas"] = (momentum, *group["betas"][1:])
            else:
                group["momentum"] = momentum
