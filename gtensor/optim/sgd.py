"""Stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

from __future__ import annotations

from typing import Any

from .optimizer import Optimizer, ParamsT, required


class SGD(Optimizer):
    """SGD, as in PyTorch.

    For each parameter ``p`` with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p
        b = g                                   (first step)
        b = momentum * b + (1 - dampening) * g  (later steps)
        g = g + momentum * b if nesterov else b (when momentum != 0)
        p = p - lr * g

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        momentum: momentum factor.
        dampening: dampening of the momentum.
        weight_decay: L2 penalty.
        nesterov: use Nesterov momentum (needs momentum > 0 and dampening 0).
        maximize: maximize the objective instead of minimizing.
        foreach, fused: accepted as in PyTorch; gtensor picks its kernels itself.
        master_weights: update float16 and bfloat16 parameters through float32
            copies, with a float32 momentum buffer (see :mod:`gtensor.optim.optimizer`).

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.8, -1.6]
    """

    def __init__(self, params: ParamsT, lr: float = required, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 *, maximize: bool = False,
                 foreach: bool | None = None, fused: bool | None = None,
                 master_weights: bool = False) -> None:
        if lr is not required and lr < 0.0:
            raise ValueError(f"[SGD] invalid learning rate {lr}")
        if momentum < 0.0:
            raise ValueError(f"[SGD] invalid momentum {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"[SGD] invalid weight_decay {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("[SGD] Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize, "master_weights": master_weights})

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        for p, g, st in self._with_grads(group):
            if wd:
                g = g.add(p, alpha=wd)
            if momentum:
                buf = st.get("momentum_buffer")
                if buf is None:
                    buf = st["momentum_buffer"] = g.detach().clone()
                else:
                    buf.mul_(momentum).add_(g, alpha=1 - group["dampening"])
                g = g.add(buf, alpha=momentum) if group["nesterov"] else buf
            p.add_(g, alpha=-lr)

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        momentum, wd = group["momentum"], group["weight_decay"]
        (lr,) = trace.dynamic(lambda: (float(group["lr"]),), 1)
        for p, g, st in self._with_grads(group):
            if wd:
                g = g.add(p, alpha=wd)
            if momentum:
                buf = st["momentum_buffer"]  # made by the first step, run eagerly
                buf.mul_(momentum).add_(g, alpha=1 - group["dampening"])
                g = g.add(buf, alpha=momentum) if group["nesterov"] else buf
            p.sub_(g * lr)
