"""Gradient clipping, computed on the gradients' device (no host round trip)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from ...graph.grad_mode import no_grad
from ...ops.creation import zeros
from ...ops.layout.copies import stack
from ...tensor import Tensor


def _grads(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p.grad for p in params if p.grad is not None]


def _norm(g: Tensor, norm_type: float) -> Tensor:
    a = g.abs()
    if math.isinf(norm_type):
        return a.amax()
    return (a**norm_type).sum() ** (1.0 / norm_type)


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: bool | None = None) -> Tensor:
    """Scale gradients in place so that their joint ``norm_type``-norm is at most ``max_norm``.

    The norm is that of all gradients concatenated; the scale factor
    ``min(1, max_norm / (norm + 1e-6))`` is computed and applied on the device.

    Args:
        parameters: tensors (or one tensor) whose ``.grad`` is clipped.
        max_norm: the largest allowed norm.
        norm_type: the p of the p-norm (``float("inf")`` for the max norm).
        error_if_nonfinite: raise when the norm is nan or inf (reads it on the host).
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Returns:
        The total norm before clipping (a 0-d tensor on the gradients' device).

    Example:
        >>> p = nn.Parameter(gt.zeros(2))
        >>> p.grad = gt.tensor([3.0, 4.0])
        >>> gt.nn.utils.clip_grad_norm_([p], 1.0), p.grad
        (tensor(5.), tensor([0.6000, 0.8000]))
    """
    grads = _grads(parameters)
    total = _total_norm(grads, norm_type, error_if_nonfinite, "clip_grad_norm_")
    _scale(grads, max_norm, total)
    return total


def _total_norm(tensors: list[Tensor], norm_type: float, error_if_nonfinite: bool,
                op: str) -> Tensor:
    norm_type = float(norm_type)
    if not tensors:
        return zeros(())
    dev = tensors[0].device
    with no_grad():
        norms = stack([_norm(g, norm_type).to(dev) for g in tensors])
        total = _norm(norms, norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(f"[{op}] the total norm of order {norm_type} of the "
                           "gradients is non-finite, so it cannot be clipped")
    return total


def _scale(grads: list[Tensor], max_norm: float, total: Tensor) -> None:
    if not grads:
        return
    with no_grad():
        scale = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale.to(g.device, g.dtype))


def get_total_norm(tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The ``norm_type``-norm of all ``tensors`` concatenated (a 0-d tensor on their device).

    Args:
        tensors: tensors (or one tensor), typically gradients.
        norm_type: the p of the p-norm (``float("inf")`` for the max norm).
        error_if_nonfinite: raise when the norm is nan or inf (reads it on the host).
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> gt.nn.utils.get_total_norm([gt.tensor([3.0]), gt.tensor([4.0])])
        tensor(5.)
    """
    ts = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    return _total_norm(ts, norm_type, error_if_nonfinite, "get_total_norm")


def clip_grads_with_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                          total_norm: Tensor, foreach: bool | None = None) -> None:
    """Scale gradients in place by ``min(1, max_norm / (total_norm + 1e-6))``.

    Args:
        parameters: tensors (or one tensor) whose ``.grad`` is scaled.
        max_norm: the largest allowed norm.
        total_norm: the norm to clip against (from :func:`get_total_norm`).
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> p = nn.Parameter(gt.zeros(2))
        >>> p.grad = gt.tensor([3.0, 4.0])
        >>> gt.nn.utils.clip_grads_with_norm_([p], 1.0, gt.tensor(5.0)); p.grad
        tensor([0.6000, 0.8000])
    """
    _scale(_grads(parameters), max_norm, total_norm)


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]`` in place.

    Args:
        parameters: tensors (or one tensor) whose ``.grad`` is clamped.
        clip_value: the largest allowed magnitude.
        foreach: accepted as in PyTorch; gtensor picks its kernels itself.

    Example:
        >>> p = nn.Parameter(gt.zeros(3))
        >>> p.grad = gt.tensor([-2.0, 0.25, 1.0])
        >>> gt.nn.utils.clip_grad_value_([p], 0.5); p.grad
        tensor([-0.5000,  0.2500,  0.5000])
    """
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
