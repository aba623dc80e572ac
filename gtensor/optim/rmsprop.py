"""RMSprop."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import zeros_like
from .optimizer import Optimizer, ParamsT, count_step


class RMSprop(Optimizer):
    """RMSprop, as in PyTorch.

    For each parameter with gradient ``g``::

        g = g + weight_decay * p
        s = alpha * s + (1 - alpha) * g * g
        a = alpha * a + (1 - alpha) * g              (centered only)
        d = sqrt(s - a * a) + eps if centered else sqrt(s) + eps
        b = momentum * b + g / d;  p = p - lr * b    (momentum > 0)
        p = p - lr * g / d                           (otherwise)

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        alpha: smoothing constant.
        eps: added to the denominator.
        weight_decay: L2 penalty.
        momentum: momentum factor.
        centered: normalize by an estimate of the gradient's variance.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.RMSprop([w], lr=0.01)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9, -1.9]
    """

    def __init__(self, params: ParamsT, lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0.0, momentum: float = 0.0,
                 centered: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None) -> None:
        for key, value in (("learning rate", lr), ("epsilon", eps), ("momentum", momentum),
                           ("weight_decay", weight_decay), ("alpha", alpha)):
            if value < 0.0:
                raise ValueError(f"[RMSprop] invalid {key} {value}")
        super().__init__(params, {"lr": lr, "alpha": alpha, "eps": eps,
                                  "weight_decay": weight_decay, "momentum": momentum,
                                  "centered": centered, "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, alpha, eps, wd = group["lr"], group["alpha"], group["eps"], group["weight_decay"]
        momentum = group["momentum"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["square_avg"] = zeros_like(p)
                if momentum > 0:
                    st["momentum_buffer"] = zeros_like(p)
                if group["centered"]:
                    st["grad_avg"] = zeros_like(p)
            st["step"] += 1
            if wd:
                g = g.add(p, alpha=wd)
            sq = st["square_avg"].mul_(alpha).addcmul_(g, g, value=1 - alpha)
            if group["centered"]:
                ga = st["grad_avg"].mul_(alpha).add_(g, alpha=1 - alpha)
                avg = sq.addcmul(ga, ga, value=-1).sqrt_().add_(eps)
            else:
                avg = sq.sqrt().add_(eps)
            if momentum > 0:
                buf = st["momentum_buffer"].mul_(momentum).addcdiv_(g, avg)
                p.add_(buf, alpha=-lr)
            else:
                p.addcdiv_(g, avg, value=-lr)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        alpha, eps, wd = group["alpha"], group["eps"], group["weight_decay"]
        momentum = group["momentum"]
        (lr,) = trace.dynamic(lambda: (float(group["lr"]),), 1)
        for p, g, st in self._with_grads(group):
            trace.dynamic(functools.partial(count_step, st), 0)
            if wd:
                g = g.add(p, alpha=wd)
            sq = st["square_avg"].mul_(alpha).add_(g * g, alpha=1 - alpha)
            if group["centered"]:
                ga = st["grad_avg"].mul_(alpha).add_(g, alpha=1 - alpha)
                avg = (sq - ga * ga).sqrt() + eps
            else:
                avg = sq.sqrt() + eps
            if momentum > 0:
                p.sub_(st["momentum_buffer"].mul_(momentum).add_(g / avg) * lr)
            else:
                p.sub_(g / avg * lr)
