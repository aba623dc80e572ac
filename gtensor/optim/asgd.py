"""ASGD: averaged stochastic gradient descent."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import zeros_like
from .optimizer import Optimizer, ParamsT, count_step


class ASGD(Optimizer):
    """Averaged SGD (Polyak and Juditsky), as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        g = g + weight_decay * p
        p = p * (1 - lambd * eta) - eta * g
        ax = p if mu == 1 else ax + mu * (p - ax)
        eta = lr / (1 + lambd * lr * t) ** alpha      (for the next step; eta starts at lr)
        mu = 1 / max(1, t - t0)

    ``eta`` and ``mu`` are Python floats in the state; ``ax`` holds the average.

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        lambd: decay term.
        alpha: power of the ``eta`` update.
        t0: the step from which averaging starts.
        weight_decay: L2 penalty.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.ASGD([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.8, -1.6]
    """

    def __init__(self, params: ParamsT, lr: float = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0.0, *,
                 maximize: bool = False, foreach: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"[ASGD] invalid learning rate {lr}")
        if weight_decay < 0.0:
            raise ValueError(f"[ASGD] invalid weight_decay {weight_decay}")
        super().__init__(params, {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                                  "weight_decay": weight_decay, "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        wd = group["weight_decay"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["eta"] = float(group["lr"])
                st["mu"] = 1.0
                st["ax"] = zeros_like(p)
            eta, decay, mu, _ = _advance(st, group)
            if wd:
                g = g.add(p, alpha=wd)
            p.mul_(decay).add_(g, alpha=-eta)
            if mu != 1:
                st["ax"].add_(p.sub(st["ax"]).mul_(mu))
            else:
                st["ax"].copy_(p)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        wd = group["weight_decay"]
        for p, g, st in self._with_grads(group):
            eta, decay, mu, keep = trace.dynamic(functools.partial(_advance, st, group), 4)
            if wd:
                g = g.add(p, alpha=wd)
            p.mul_(decay).sub_(g * eta)
            # exactly p while mu is 1 (until step t0), as in the eager copy
            st["ax"].mul_(keep).add_(p * mu)


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float, float, float, float]:
    """Count one more step; return this step's ``eta``, ``1 - lambd * eta``, ``mu`` and
    ``1 - mu``, and store the next ``eta`` and ``mu``."""
    count_step(st)
    eta, mu, lambd = st["eta"], st["mu"], group["lambd"]
    lr, t = float(group["lr"]), st["step"]
    st["eta"] = lr / (1 + lambd * lr * t) ** group["alpha"]
    st["mu"] = 1 / max(1, t - group["t0"])
    return eta, 1 - lambd * eta, mu, 1 - mu
