"""Schedulers that decay the rate along a closed form of the step count: StepLR, MultiStepLR,
ExponentialLR, CosineAnnealingLR, LinearLR, PolynomialLR and CosineAnnealingWarmRestarts."""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from ..optimizer import Optimizer
from .base import LRScheduler


class StepLR(LRScheduler):
    """``lr = initial_lr * gamma ** (epoch // step_size)``.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = StepLR(opt, step_size=2, gamma=0.1)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        1.0 0.1 0.1 0.01
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
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = MultiStepLR(opt, milestones=[1, 3], gamma=0.1)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.1 0.1 0.01 0.01
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
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = ExponentialLR(opt, gamma=0.5)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5 0.25 0.125 0.0625
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
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = CosineAnnealingLR(opt, T_max=4)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.8536 0.5 0.1464 0.0
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


class LinearLR(LRScheduler):
    """``lr = initial_lr * factor``, the factor moving linearly from ``start_factor`` (epoch 0)
    to ``end_factor`` (epoch ``total_iters`` and after).

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = LinearLR(opt, start_factor=0.25, total_iters=3)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5 0.75 1.0 1.0
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if not 0 < start_factor <= 1:
            raise ValueError(f"[LinearLR] start_factor must be in (0, 1], got {start_factor}")
        if not 0 <= end_factor <= 1:
            raise ValueError(f"[LinearLR] end_factor must be in [0, 1], got {end_factor}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """``base_lr`` times the factor interpolated at ``min(epoch, total_iters)``."""
        done = min(epoch, self.total_iters) / self.total_iters if self.total_iters else 0.0
        return base_lr * (self.start_factor + (self.end_factor - self.start_factor) * done)


class PolynomialLR(LRScheduler):
    """``lr = initial_lr * (1 - min(epoch, total_iters) / total_iters) ** power``.

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = PolynomialLR(opt, total_iters=4, power=2.0)
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5625 0.25 0.0625 0.0
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """The polynomial decay from ``base_lr`` (epoch 0) to 0 (epoch ``total_iters``)."""
        done = min(epoch, self.total_iters) / self.total_iters if self.total_iters else 0.0
        return base_lr * (1.0 - done) ** self.power


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``initial_lr`` to ``eta_min`` over ``T_i`` epochs, restarted at
    ``initial_lr`` each time (SGDR, Loshchilov and Hutter), as in PyTorch.

    ``T_i`` starts at ``T_0`` and is multiplied by ``T_mult`` at each restart;
    ``T_cur`` counts the epochs since the last restart, so
    ``lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2``.
    :meth:`step` may be given a fractional epoch (e.g. ``epoch + batch / batches``).

    Example:
        >>> opt = gt.optim.SGD([gt.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
        >>> for _ in range(6):
        ...     opt.step(); sched.step(); print(round(sched.get_last_lr()[0], 4), end=" ")
        0.5 1.0 0.8536 0.5 0.1464 1.0
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1,  # noqa: N803
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        name = "CosineAnnealingWarmRestarts"
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"[{name}] expected a positive integer T_0, got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"[{name}] expected an integer T_mult >= 1, got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"[{name}] expected a float or int eta_min, got {eta_min!r} of "
                             f"type {type(eta_min).__name__}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur: float = last_epoch
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int, group: int) -> float:
        """The cosine curve at ``T_cur / T_i`` (the epoch enters through ``T_cur``)."""
        return self.eta_min + (base_lr - self.eta_min) * (
            1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch: float | None = None) -> None:
        """Advance one epoch, or go to ``epoch`` (which may be fractional).

        Raises:
            ValueError: ``epoch`` is negative.
        """
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur %= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"[CosineAnnealingWarmRestarts] expected a non-negative epoch, "
                             f"got {epoch}")
        elif epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult**n
        self.last_epoch = math.floor(epoch)
        self._apply()
