"""RAdam: Adam with a rectified adaptive learning rate."""

from __future__ import annotations

import functools
import math
from typing import Any

from ..ops.creation import zeros_like
from .adam import _check, update_moments
from .optimizer import Optimizer, ParamsT, count_step


class RAdam(Optimizer):
    """RAdam (Liu et al.), as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        g = g + weight_decay * p            (p = p * (1 - lr * weight_decay) if decoupled)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)
        p = p - lr * m / (1 - beta1**t) * r * sqrt(1 - beta2**t) / (sqrt(v) + eps)  (rho_t > 5)
        p = p - lr * m / (1 - beta1**t)                                                (otherwise)

    where ``r = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))``.

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        betas: decay rates of the first and second moment estimates.
        eps: added to the denominator.
        weight_decay: weight decay, L2 (added to the gradient) unless decoupled.
        decoupled_weight_decay: decay the parameter directly, as AdamW does.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.RAdam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.8, -1.6]
    """

    def __init__(self, params: ParamsT, lr: float = 1e-3, betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8, weight_decay: float = 0.0,
                 decoupled_weight_decay: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None) -> None:
        _check("RAdam", lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay,
                                  "decoupled_weight_decay": decoupled_weight_decay,
                                  "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        eps = group["eps"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["exp_avg"] = zeros_like(p)
                st["exp_avg_sq"] = zeros_like(p)
            decay, plain, adaptive = _advance(st, group)
            _, m, v = update_moments(p, g, st, group, decay, group["decoupled_weight_decay"],
                                     traced=False)
            if adaptive:
                p.addcdiv_(m, v.sqrt().add_(eps), value=-adaptive)
            else:
                p.add_(m, alpha=-plain)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        eps = group["eps"]
        for p, g, st in self._with_grads(group):
            # one of plain and adaptive is zero at each call: the branch is taken by the scalars
            decay, plain, adaptive = trace.dynamic(functools.partial(_advance, st, group), 3)
            _, m, v = update_moments(p, g, st, group, decay, group["decoupled_weight_decay"],
                                     traced=True)
            p.sub_(m * plain + m * adaptive / (v.sqrt() + eps))


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float, float, float]:
    """Count one more step; return the weight decay factor and the step sizes of the plain
    (``rho_t <= 5``) and of the rectified adaptive update, one of them zero."""
    count_step(st)
    t, lr = st["step"], float(group["lr"])
    beta1, beta2 = group["betas"]
    bias1, bias2 = 1 - beta1**t, 1 - beta2**t
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * t * beta2**t / bias2
    decay = 1 - lr * group["weight_decay"]
    if rho_t <= 5.0:
        return decay, lr / bias1, 0.0
    rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2)
                                                            * rho_t))
    return decay, 0.0, lr / bias1 * rect * math.sqrt(bias2)
