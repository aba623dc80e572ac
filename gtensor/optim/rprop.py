"""Rprop: resilient backpropagation."""

from __future__ import annotations

import functools
from typing import Any

from ..ops.creation import full_like, zeros_like
from ..ops.elementwise import maximum, minimum, where
from ..tensor import Tensor
from .optimizer import Optimizer, ParamsT, count_step


class Rprop(Optimizer):
    """Rprop (Riedmiller and Braun), as in PyTorch.

    Each element keeps its own step size, started at ``lr``. With ``s`` the
    sign of ``g * g_prev``::

        step = clamp(step * (etaplus if s > 0 else etaminus if s < 0 else 1), *step_sizes)
        g = 0 where s < 0                       (the sign changed: skip this element once)
        p = p - sign(g) * step
        g_prev = g

    Args:
        params: parameters or parameter groups.
        lr: the initial step size (later changes of ``lr`` have no effect).
        etas: ``(etaminus, etaplus)``, the factors that shrink and grow a step size.
        step_sizes: ``(min, max)`` bounds of the step sizes.
        maximize: maximize the objective instead of minimizing.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.Rprop([w], lr=0.01)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.99, -1.99]
    """

    def __init__(self, params: ParamsT, lr: float = 1e-2, etas: tuple[float, float] = (0.5,
                 1.2), step_sizes: tuple[float, float] = (1e-6, 50), *,
                 maximize: bool = False, foreach: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"[Rprop] invalid learning rate {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"[Rprop] invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, {"lr": lr, "etas": tuple(etas),
                                  "step_sizes": tuple(step_sizes), "maximize": maximize})

    def _update_group(self, group: dict[str, Any]) -> None:
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["prev"] = zeros_like(p)
                st["step_size"] = full_like(g, group["lr"])
            st["step"] += 1
            _rprop(p, g, st, group)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        for p, g, st in self._with_grads(group):
            trace.dynamic(functools.partial(count_step, st), 0)
            _rprop(p, g, st, group)


def _rprop(p: Tensor, g: Tensor, st: dict[str, Any], group: dict[str, Any]) -> None:
    """One Rprop update of ``p`` (the same ops eagerly and traced)."""
    etaminus, etaplus = group["etas"]
    sign = (g * st["prev"]).sign()
    # sign is -1, 0 or 1 in p's dtype: these products give each factor exactly in that dtype
    factor = where(sign > 0, sign * etaplus, where(sign < 0, sign * -etaminus, sign + 1))
    lo, hi = group["step_sizes"]
    step_size = st["step_size"]
    step_size.copy_(minimum(maximum(step_size * factor, lo), hi))  # clamp, which fuses
    g = where(sign < 0, 0.0, g)
    p.sub_(g.sign() * step_size)
    st["prev"].copy_(g)
