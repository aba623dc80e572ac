"""Adadelta."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import zeros_like
from .optimizer import Optimizer, ParamsT, count_step


class Adadelta(Optimizer):
    """Adadelta (Zeiler), as in PyTorch.

    For each parameter with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p
        s = rho * s + (1 - rho) * g * g
        delta = sqrt(u + eps) / sqrt(s + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        p = p - lr * delta

    Args:
        params: parameters or parameter groups.
        lr: coefficient that scales ``delta``.
        rho: decay rate of the running averages.
        eps: added inside both square roots.
        weight_decay: L2 penalty.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.Adadelta([w])
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9968, -1.9968]
    """

    def __init__(self, params: ParamsT, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0.0, *, maximize: bool = False,
                 foreach: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"[Adadelta] invalid learning rate {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"[Adadelta] invalid rho {rho}")
        if eps < 0.0:
            raise ValueError(f"[Adadelta] invalid epsilon {eps}")
        if weight_decay < 0.0:
            raise ValueError(f"[Adadelta] invalid weight_decay {weight_decay}")
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["square_avg"] = zeros_like(p)
                st["acc_delta"] = zeros_like(p)
            st["step"] += 1
            if wd:
                g = g.add(p, alpha=wd)
            s, u = st["square_avg"], st["acc_delta"]
            s.mul_(rho).addcmul_(g, g, value=1 - rho)
            delta = u.add(eps).sqrt_().div_(s.add(eps).sqrt_()).mul_(g)
            u.mul_(rho).addcmul_(delta, delta, value=1 - rho)
            p.add_(delta, alpha=-lr)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        rho, eps, wd = group["rho"], group["eps"], group["weight_decay"]
        (lr,) = trace.dynamic(lambda: (float(group["lr"]),), 1)
        for p, g, st in self._with_grads(group):
            trace.dynamic(functools.partial(count_step, st), 0)
            if wd:
                g = g.add(p, alpha=wd)
            s, u = st["square_avg"], st["acc_delta"]
            s.mul_(rho).add_(g * g, alpha=1 - rho)
            delta = (u + eps).sqrt() / (s + eps).sqrt() * g
            u.mul_(rho).add_(delta * delta, alpha=1 - rho)
            p.sub_(delta * lr)
