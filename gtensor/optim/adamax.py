"""Adamax: Adam with the infinity norm."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import zeros_like
from ..ops.elementwise import maximum
from .adam import _check
from .optimizer import Optimizer, ParamsT, count_step


class Adamax(Optimizer):
    """Adamax (Kingma and Ba), as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        g = g + weight_decay * p
        m = beta1 * m + (1 - beta1) * g
        u = max(beta2 * u, |g| + eps)
        p = p - lr / (1 - beta1**t) * m / u

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        betas: decay rates of the first moment and of the infinity norm.
        eps: added to ``|g|``.
        weight_decay: L2 penalty.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.Adamax([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9, -1.9]
    """

    def __init__(self, params: ParamsT, lr: float = 2e-3, betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8, weight_decay: float = 0.0, *,
                 maximize: bool = False, foreach: bool | None = None) -> None:
        _check("Adamax", lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        (beta1, beta2), eps, wd = group["betas"], group["eps"], group["weight_decay"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["exp_avg"] = zeros_like(p)
                st["exp_inf"] = zeros_like(p)
            st["step"] += 1
            if wd:
                g = g.add(p, alpha=wd)
            m, u = st["exp_avg"], st["exp_inf"]
            m.lerp_(g, 1 - beta1)
            u.copy_(maximum(u.mul_(beta2), g.abs().add_(eps)))
            p.addcdiv_(m, u, value=-group["lr"] / (1 - beta1 ** st["step"]))

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        (beta1, beta2), eps, wd = group["betas"], group["eps"], group["weight_decay"]
        for p, g, st in self._with_grads(group):
            (clr,) = trace.dynamic(functools.partial(_advance, st, group), 1)
            if wd:
                g = g.add(p, alpha=wd)
            m, u = st["exp_avg"], st["exp_inf"]
            m.mul_(beta1).add_(g, alpha=1 - beta1)
            u.copy_(maximum(u * beta2, g.abs() + eps))
            p.sub_(m / u * clr)


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float]:
    """Count one more step; return its step size (a compiled step calls this every call)."""
    count_step(st)
    return (float(group["lr"]) / (1 - group["betas"][0] ** st["step"]),)
