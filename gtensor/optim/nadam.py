"""NAdam: Adam with Nesterov momentum."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import zeros_like
from .adam import _check, update_moments
from .optimizer import Optimizer, ParamsT, count_step


class NAdam(Optimizer):
    """NAdam (Dozat), with momentum decay, as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        g = g + weight_decay * p            (p = p * (1 - lr * weight_decay) if decoupled)
        mu_t = beta1 * (1 - 0.96 ** (t * momentum_decay) / 2)
        P_t = mu_1 * ... * mu_t
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        d = sqrt(v / (1 - beta2**t)) + eps
        p = p - lr * (1 - mu_t) / (1 - P_t) * g / d - lr * mu_{t+1} / (1 - P_t * mu_{t+1}) * m / d

    ``P_t`` is kept as a Python float in ``state["mu_product"]``.

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        betas: decay rates of the first and second moment estimates.
        eps: added to the denominator.
        weight_decay: weight decay, L2 (added to the gradient) unless decoupled.
        momentum_decay: how fast ``mu_t`` approaches ``beta1``.
        decoupled_weight_decay: decay the parameter directly, as AdamW does.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.NAdam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.8944, -1.8944]
    """

    def __init__(self, params: ParamsT, lr: float = 2e-3, betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8, weight_decay: float = 0.0,
                 momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None) -> None:
        _check("NAdam", lr, betas, eps, weight_decay)
        if momentum_decay < 0.0:
            raise ValueError(f"[NAdam] invalid momentum_decay {momentum_decay}")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay,
                                  "decoupled_weight_decay": decoupled_weight_decay,
                                  "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        eps = group["eps"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["mu_product"] = 1.0
                st["exp_avg"] = zeros_like(p)
                st["exp_avg_sq"] = zeros_like(p)
            decay, bias2, grad_size, avg_size = _advance(st, group)
            g, m, v = update_moments(p, g, st, group, decay, group["decoupled_weight_decay"],
                                     traced=False)
            denom = v.div(bias2).sqrt_().add_(eps)
            p.addcdiv_(g, denom, value=-grad_size)
            p.addcdiv_(m, denom, value=-avg_size)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        eps = group["eps"]
        for p, g, st in self._with_grads(group):
            decay, bias2, grad_size, avg_size = trace.dynamic(
                functools.partial(_advance, st, group), 4)
            g, m, v = update_moments(p, g, st, group, decay, group["decoupled_weight_decay"],
                                     traced=True)
            p.sub_((g * grad_size + m * avg_size) / ((v / bias2).sqrt() + eps))


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float, float, float, float]:
    """Count one more step and update ``mu_product``; return the weight decay factor,
    ``1 - beta2**t`` and the step sizes of the gradient and of the first moment."""
    count_step(st)
    t, lr = st["step"], float(group["lr"])
    beta1, beta2 = group["betas"]
    mu = beta1 * (1.0 - 0.5 * 0.96 ** (t * group["momentum_decay"]))
    mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((t + 1) * group["momentum_decay"]))
    st["mu_product"] *= mu
    product = st["mu_product"]
    return (1 - lr * group["weight_decay"], 1 - beta2**t, lr * (1 - mu) / (1 - product),
            lr * mu_next / (1 - product * mu_next))
