"""Adam and AdamW, and the moment update the Adam variants share."""

from __future__ import annotations

import functools
import math
from typing import Any

from ..ops.creation import empty, zeros_like
from ..ops.dispatch import launch
from ..ops.elementwise import maximum
from ..tensor import Tensor
from .optimizer import Optimizer, ParamsT, count_step


def _check(name: str, lr: float, betas: tuple[float, float], eps: float,
           weight_decay: float) -> None:
    if lr < 0.0:
        raise ValueError(f"[{name}] invalid learning rate {lr}")
    if eps < 0.0:
        raise ValueError(f"[{name}] invalid epsilon {eps}")
    for i, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise ValueError(f"[{name}] invalid beta parameter at index {i}: {b}")
    if weight_decay < 0.0:
        raise ValueError(f"[{name}] invalid weight_decay {weight_decay}")


class Adam(Optimizer):
    """Adam (Kingma and Ba), with optional L2 weight decay and AMSGrad, as in PyTorch.

    For each parameter, at step ``t`` (from 1) with gradient ``g``::

        g = g + weight_decay * p            (Adam; AdamW decays p instead)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        v_hat = max(v_hat, v) if amsgrad else v
        p = p - lr / (1 - beta1**t) * m / (sqrt(v_hat) / sqrt(1 - beta2**t) + eps)

    Args:
        params: parameters or parameter groups.
        lr: learning rate.
        betas: decay rates of the first and second moment estimates.
        eps: added to the denominator.
        weight_decay: L2 penalty (added to the gradient).
        amsgrad: use the running maximum of the second moment.
        maximize: maximize the objective instead of minimizing.
        foreach, fused: accepted as in PyTorch; gtensor picks its kernels itself.
        master_weights: update float16 and bfloat16 parameters through float32
            copies, with float32 moments (see :mod:`gtensor.optim.optimizer`).
        decoupled_weight_decay: decay the parameters as AdamW does.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9, -1.9]
    """

    _decoupled = False

    def __init__(self, params: ParamsT, lr: float = 1e-3, betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8, weight_decay: float = 0.0, amsgrad: bool = False,
                 *, maximize: bool = False,
                 foreach: bool | None = None, fused: bool | None = None,
                 master_weights: bool = False, decoupled_weight_decay: bool = False) -> None:
        _check(type(self).__name__, lr, betas, eps, weight_decay)
        if decoupled_weight_decay:
            self._decoupled = True
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize, "master_weights": master_weights})

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group[
            "weight_decay"]
        for p, g, st in self._with_grads(group):
            if not st:
                st["step"] = 0
                st["exp_avg"] = zeros_like(p)
                st["exp_avg_sq"] = zeros_like(p)
                if group["amsgrad"]:
                    st["max_exp_avg_sq"] = zeros_like(p)
            st["step"] += 1
            t = st["step"]
            if _fused_step(p, g, st, group, t, self._decoupled):
                continue
            if wd and self._decoupled:
                p.mul_(1 - lr * wd)
            elif wd:
                g = g.add(p, alpha=wd)
            m, v = st["exp_avg"], st["exp_avg_sq"]
            m.mul_(beta1).add_(g, alpha=1 - beta1)
            v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
            if group["amsgrad"]:
                v = st["max_exp_avg_sq"].copy_(maximum(st["max_exp_avg_sq"], v))
            denom = v.sqrt().div_(math.sqrt(1 - beta2**t)).add_(eps)
            p.addcdiv_(m, denom, value=-lr / (1 - beta1**t))


    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        eps = group["eps"]
        for p, g, st in self._with_grads(group):
            step_size, bias2_sqrt, decay = trace.dynamic(functools.partial(_advance, st, group),
                                                         3)
            _, m, v = update_moments(p, g, st, group, decay, self._decoupled, traced=True)
            if group["amsgrad"]:
                v = st["max_exp_avg_sq"].copy_(maximum(st["max_exp_avg_sq"], v))
            p.sub_(m / (v.sqrt() / bias2_sqrt + eps) * step_size)


def update_moments(p: Tensor, g: Tensor, st: dict[str, Any], group: dict[str, Any],
                   decay: Any, decoupled: bool, traced: bool) -> tuple[Tensor, Tensor, Tensor]:
    """Apply the weight decay (``p * decay`` when decoupled, else L2 into ``g``) and move the
    moments ``exp_avg`` and ``exp_avg_sq`` towards ``g``; return ``(g, exp_avg, exp_avg_sq)``.

    Traced, the updates use no ternary op (those are not fused); eagerly ``exp_avg`` moves by
    ``lerp_``, as in PyTorch's Adamax, NAdam and RAdam.
    """
    wd = group["weight_decay"]
    if wd and decoupled:
        p.mul_(decay)
    elif wd:
        g = g.add(p, alpha=wd)
    beta1, beta2 = group["betas"]
    m, v = st["exp_avg"], st["exp_avg_sq"]
    if traced:
        m.mul_(beta1).add_(g, alpha=1 - beta1)
        v.mul_(beta2).add_(g * g, alpha=1 - beta2)
    else:
        m.lerp_(g, 1 - beta1)
        v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    return g, m, v


def _advance(st: dict[str, Any], group: dict[str, Any]) -> tuple[float, float, float]:
    """Count one more step; return its step size, ``sqrt(1 - beta2**t)`` and weight decay
    factor (a compiled step calls this at every call)."""
    count_step(st)
    t, lr = st["step"], float(group["lr"])
    beta1, beta2 = group["betas"]
    return lr / (1 - beta1**t), math.sqrt(1 - beta2**t), 1 - lr * group["weight_decay"]


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter), as in PyTorch.

    Same update as :class:`Adam`, except that weight decay multiplies the
    parameter by ``1 - lr * weight_decay`` before the step instead of
    entering the gradient.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.AdamW([w], lr=0.1, weight_decay=0.01)
        >>> (w * w).sum().backward(); opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.899, -1.898]
    """

    _decoupled = True

    def __init__(self, params: ParamsT, lr: float = 1e-3, betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False,
                 *, maximize: bool = False,
                 foreach: bool | None = None, fused: bool | None = None,
                 master_weights: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         master_weights=master_weights)


def _fused_step(p: Tensor, g: Tensor, st: dict[str, Any], group: dict[str, Any], t: int,
                decoupled: bool) -> bool:
    """Run the whole update as one ``adam_step`` kernel when the layouts allow; True if done."""
    m, v = st["exp_avg"], st["exp_avg_sq"]
    # never alias two kernel arguments (the CUDA simulator copies each one back)
    vmax = st["max_exp_avg_sq"] if "max_exp_avg_sq" in st else empty(1, dtype=p.dtype,
                                                                        device=p.device)
    tensors = (p, g, m, v, vmax)
    if p.dtype.name not in ("float32", "float64") or any(
            x.dtype is not p.dtype or x.device != p.device or not x.is_contiguous()
            for x in tensors):
        return False
    beta1, beta2 = group["betas"]
    launch("adam_step", p.device, (p.dtype,), *(x.reshape(-1)._native() for x in tensors),
           float(group["lr"]), float(beta1), float(beta2), float(group["eps"]),
           float(group["weight_decay"]), 1.0 - beta1 ** t, math.sqrt(1.0 - beta2 ** t),
           decoupled, bool(group["amsgrad"]), 1.0)
    for x in (p, m, v, vmax):
        x._bump_version()
    return True
