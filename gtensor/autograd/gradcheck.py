"""Check analytical gradients against central finite differences (float64)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..graph.grad_mode import enable_grad, no_grad
from ..ops.creation import zeros_like
from ..ops.random import randn
from ..tensor_base import TensorBase, from_numpy
from .engine import grad as _grad

if TYPE_CHECKING:
    from ..tensor import Tensor


class GradcheckError(RuntimeError):
    """Analytical and numerical gradients disagree."""


def _outputs(fn: Callable[..., Any], args: Sequence[Any]) -> list[Tensor]:
    out = fn(*args)
    return [out] if isinstance(out, TensorBase) else [o for o in out if isinstance(o, TensorBase)]


def _numerical(fn: Callable[..., Any], args: list[Any], k: int, eps: float,
               n_outputs: int) -> list[np.ndarray]:
    """d outputs / d args[k] by central differences: one (out.numel, x.numel) matrix per output."""
    x = args[k]
    base = x.detach().cpu().numpy().astype(np.float64)
    cols: list[list[np.ndarray]] = [[] for _ in range(n_outputs)]
    for j in range(base.size):
        vals = []
        for sign in (1.0, -1.0):
            probe = base.copy()
            probe.reshape(-1)[j] += sign * eps
            shifted = from_numpy(probe).to(device=x.device, dtype=x.dtype)
            with no_grad():
                outs = _outputs(fn, args[:k] + [shifted] + args[k + 1:])
            vals.append([o.detach().cpu().numpy().astype(np.float64).reshape(-1)
                         for o in outs])
        for i in range(n_outputs):
            cols[i].append((vals[0][i] - vals[1][i]) / (2 * eps))
    return [np.stack(c, axis=1) if c else np.zeros((0, base.size)) for c in cols]


def _analytical(outs: list[Tensor], x: Tensor) -> list[np.ndarray]:
    mats = []
    for out in outs:
        rows = []
        flat = out.reshape(-1)
        for i in range(out.numel()):
            if not out.requires_grad:
                rows.append(np.zeros(x.numel()))
                continue
            cot = zeros_like(flat)
            cot[i] = 1.0
            (g,) = _grad(flat, x, cot, retain_graph=True, allow_unused=True)
            rows.append(np.zeros(x.numel()) if g is None else
                        g.detach().cpu().numpy().astype(np.float64).reshape(-1))
        mats.append(np.stack(rows) if rows else np.zeros((0, x.numel())))
    return mats


def gradcheck(fn: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, fast_mode: bool = False) -> bool:
    """Compare ``fn``'s gradients with finite differences for every input that requires grad.

    Args:
        fn: function of ``inputs`` returning a tensor or a tuple of tensors.
        inputs: a tensor or a tuple of arguments (float64 tensors recommended).
        eps: finite-difference step.
        atol: absolute tolerance.
        rtol: relative tolerance.
        raise_exception: raise :class:`GradcheckError` on mismatch instead of returning False.
        fast_mode: accepted as in PyTorch; the full Jacobians are always compared,
            which is the stricter check.

    Returns:
        True when all Jacobians agree.

    Example:
        >>> x = gt.tensor([0.1, -0.5, 2.0], dtype=gt.float64, requires_grad=True)
        >>> gradcheck(lambda x: x.tanh(), (x,))
        True
    """
    args = [inputs] if isinstance(inputs, TensorBase) else list(inputs)
    diff = [k for k, a in enumerate(args) if isinstance(a, TensorBase) and a.requires_grad]
    if not diff:
        raise ValueError("[gradcheck] no input requires grad")
    for k in diff:
        if args[k].dtype.name != "float64":
            warnings.warn(f"[gradcheck] input {k} is {args[k].dtype.name}, not float64: the "
                          "finite differences may be too inaccurate", stacklevel=2)
    with enable_grad():
        outs = _outputs(fn, args)
    for k in diff:
        analytical = _analytical(outs, args[k])
        numerical = _numerical(fn, args, k, eps, len(outs))
        for i, (a, n) in enumerate(zip(analytical, numerical, strict=True)):
            err = np.abs(a - n) - (atol + rtol * np.abs(n))
            if err.size and err.max() > 0:
                r, c = np.unravel_index(int(np.argmax(err)), err.shape)
                msg = (f"[gradcheck] Jacobian mismatch for output {i} with respect to input "
                       f"{k}: worst element (output index {r}, input index {c}): numerical "
                       f"{n[r, c]:.6g}, analytical {a[r, c]:.6g}, difference "
                       f"{abs(a[r, c] - n[r, c]):.3g} (atol={atol}, rtol={rtol})\n"
                       f"numerical:\n{n}\nanalytical:\n{a}")
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True


def gradgradcheck(fn: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, fast_mode: bool = False) -> bool:
    """Check second derivatives: gradcheck of the (differentiable) VJP of ``fn``.

    Takes :func:`gradcheck`'s keywords; ``grad_outputs`` defaults to random ones.

    Example:
        >>> x = gt.tensor([0.1, -0.5, 2.0], dtype=gt.float64, requires_grad=True)
        >>> gradgradcheck(lambda x: x.tanh(), (x,))
        True
    """
    args = [inputs] if isinstance(inputs, TensorBase) else list(inputs)
    diff = [k for k, a in enumerate(args) if isinstance(a, TensorBase) and a.requires_grad]
    with enable_grad():
        outs = _outputs(fn, args)
    if grad_outputs is None:
        grad_outputs = [randn(o.shape, dtype=o.dtype, device=o.device).requires_grad_()
                        for o in outs]
    else:
        grad_outputs = ([grad_outputs] if isinstance(grad_outputs, TensorBase)
                        else list(grad_outputs))
    n_args = len(args)

    def vjp_fn(*all_args: Any) -> tuple[Tensor, ...]:
        xs = list(all_args[:n_args])
        cots = list(all_args[n_args:])
        with enable_grad():
            for k in diff:
                if not xs[k].requires_grad:  # a finite-difference probe
                    xs[k] = xs[k].detach().requires_grad_()
            grads = _grad(_outputs(fn, xs), [xs[k] for k in diff], cots, create_graph=True,
                          allow_unused=True)
        return tuple(zeros_like(xs[k]) if g is None else g
                     for g, k in zip(grads, diff, strict=True))

    return gradcheck(vjp_fn, args + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
