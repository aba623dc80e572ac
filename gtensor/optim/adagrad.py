"""Adagrad."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import full_like
from .optimizer import Optimizer, ParamsT, count_step


class Adagrad(Optimizer):
    """Adagrad, as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        clr = lr / (1 + (t - 1) * lr_decay)
        g = g + weight_decay * p
        s = s + g * g                      (s starts at initial_accumulator_value)
        p = p - clr * g / (sqrt(s) + eps)

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        lr_decay: learning rate decay per step.
        weight_decay: L2 penalty.
        initial_accumulator_value: starting value of the sum of squares.
        eps: added to the denominator.
        maximize: maximize the objective instead of minimizing.
        foreach, fused: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.Adagrad([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9, -1.9]
    """

    def __init__(self, params: ParamsT, lr: float = 1e-2, lr_decay: float = 0.0,
                 weight_decay: float = 0.0, initial_accumulator_value: float = 0.0,
                 eps: float = 1e-10, *, maximize: bool = False,
                 foreach: bool | None = None, fused: bool | None = None) -> None:
        for key, value in (("learning rate", lr), ("lr_decay", lr_decay), ("epsilon", eps),
                           ("weight_decay", weight_decay),
                           ("initial_accumulator_value", initial_accumulator_value)):
            if value < 0.0:
                raise ValueError(f"[Adagrad] invalid {key} {value}")
        super().__init__(params, {"lr": lr, "lr_decay": lr_decay, "weight_decay": weight_decay,
                                  "initial_accumulator_value": initial_accumulator_value,
                                  "eps": eps, "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        wd = group["weight_decay"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["sum"] = full_like(p, group["initial_accumulator_value"])
            st["step"] += 1
            if wd:
                g = g.add(p, alpha=wd)
            clr = group["lr"] / (1 + (st["step"] - 1) * group["lr_decay"])
            s = st["sum"].addcmul_(g, g, value=1.0)
            p.addcdiv_(g, s.sqrt().add_(group["eps"]), value=-clr)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        wd, eps = group["weight_decay"], group["eps"]
        for p, g, st in self._with_grads(group):
            (clr,) = trace.dynamic(functools.partial(_advance, st, group), 1)
            if wd:
                g = g.add(p, alpha=wd)
            s = st["sum"].add_(g * g)
            p.sub_(g / (s.sqrt() + eps) * clr)


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float]:
    """Count one more step; return its learning rate (a compiled step calls this every call)."""
    count_step(st)
    return (group["lr"] / (1 + (st["step"] - 1) * group["lr_decay"]),)
