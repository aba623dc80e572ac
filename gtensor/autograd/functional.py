"""``torch.autograd.functional``: Jacobians, Hessians and their products of a function.

Each takes a function and its inputs (a tensor or a tuple of tensors), runs the
function on detached copies that require grad, and differentiates through
:func:`gtensor.autograd.grad`. Results are detached unless ``create_graph``.
The shape of a result follows its inputs and outputs: a tensor for a tensor,
a tuple for a tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..graph.grad_mode import enable_grad
from ..ops.creation import ones_like, zeros, zeros_like
from ..ops.layout.copies import stack
from ..tensor_base import TensorBase
from .engine import grad

if TYPE_CHECKING:
    from ..tensor import Tensor


def _as_tuple(x: Any, op: str, what: str) -> tuple[bool, tuple[Tensor, ...]]:
    is_tuple = isinstance(x, (tuple, list))
    xs = tuple(x) if is_tuple else (x,)
    for t in xs:
        if not isinstance(t, TensorBase):
            raise TypeError(f"[{op}] the {what} must be tensors or a tuple of tensors, got "
                            f"{type(t).__name__}")
    return is_tuple, xs


def _unwrap(xs: tuple[Any, ...], is_tuple: bool) -> Any:
    return xs if is_tuple else xs[0]


def _prepare(inputs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_()
                 for t in inputs)


def _run(func: Callable[..., Any], inputs: Any, create_graph: bool,
         op: str) -> tuple[bool, tuple[Tensor, ...], bool, tuple[Tensor, ...]]:
    is_in, ins = _as_tuple(inputs, op, "inputs")
    ins = _prepare(ins, create_graph)
    is_out, outs = _as_tuple(func(*ins), op, "outputs of the function")
    return is_in, ins, is_out, outs


def _grads(outs: Any, ins: tuple[Tensor, ...], v: Any, create_graph: bool, strict: bool,
           op: str) -> tuple[Tensor, ...]:
    got = grad(outs, ins, v, retain_graph=True, create_graph=create_graph, allow_unused=True)
    if strict and any(g is None for g in got):
        raise RuntimeError(f"[{op}] the output is independent of an input (strict=True)")
    return tuple(zeros_like(x) if g is None else g for g, x in zip(got, ins, strict=True))


def _done(xs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    return xs if create_graph else tuple(x.detach() for x in xs)


def _check_v(v: Any, like: tuple[Tensor, ...], op: str) -> tuple[Tensor, ...]:
    _, vs = _as_tuple(v, op, "v")
    if len(vs) != len(like) or any(a.shape != b.shape for a, b in zip(vs, like, strict=True)):
        raise ValueError(f"[{op}] v has shapes {[tuple(a.shape) for a in vs]}, expected "
                         f"{[tuple(b.shape) for b in like]}")
    return vs


def _scalar_v(outs: tuple[Tensor, ...], op: str) -> tuple[Tensor, ...]:
    if len(outs) != 1 or outs[0].numel() != 1:
        raise RuntimeError(f"[{op}] v can be omitted only when the function returns a single "
                           "tensor with a single element")
    return (ones_like(outs[0]),)


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """Return ``func(inputs)`` and the vector-Jacobian product ``v^T J``.

    Example:
        >>> out, g = vjp(lambda x: x * x, gt.tensor([1.0, 2.0]), gt.ones(2))
        >>> g.tolist()
        [2.0, 4.0]
    """
    with enable_grad():
        is_in, ins, is_out, outs = _run(func, inputs, create_graph, "vjp")
        vs = _scalar_v(outs, "vjp") if v is None else _check_v(v, outs, "vjp")
        gs = _grads(outs, ins, vs, create_graph, strict, "vjp")
    return _unwrap(_done(outs, create_graph), is_out), _unwrap(_done(gs, create_graph), is_in)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """Return ``func(inputs)`` and the Jacobian-vector product ``J v``.

    Example:
        >>> out, t = jvp(lambda x: x * x, gt.tensor([1.0, 2.0]), gt.ones(2))
        >>> t.tolist()
        [2.0, 4.0]
    """
    with enable_grad():
        is_in, ins, is_out, outs = _run(func, inputs, create_graph, "jvp")
        vs = _scalar_v(ins, "jvp") if v is None else _check_v(v, ins, "jvp")
        us = tuple(zeros_like(o).requires_grad_() for o in outs)
        gs = _grads(outs, ins, us, True, strict, "jvp")
        got = grad(gs, us, vs, retain_graph=True, create_graph=create_graph, allow_unused=True)
        js = tuple(zeros_like(o) if g is None else g for g, o in zip(got, outs, strict=True))
    return _unwrap(_done(outs, create_graph), is_out), _unwrap(_done(js, create_graph), is_out)


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: shape ``output.shape + input.shape``.

    For several inputs or outputs the result is a tuple (outputs, then inputs).
    ``vectorize`` and ``strategy`` are accepted as in PyTorch; the values do not
    depend on them.

    Example:
        >>> jacobian(lambda x: x * x, gt.tensor([1.0, 2.0])).tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError(f"[jacobian] strategy must be 'reverse-mode' or 'forward-mode', got "
                         f"{strategy!r}")
    with enable_grad():
        is_in, ins, is_out, outs = _run(func, inputs, create_graph, "jacobian")
        rows_per_out = []
        for out in outs:
            flat = out.reshape(-1)
            cols: list[list[Tensor]] = [[] for _ in ins]
            for k in range(flat.shape[0]):
                for c, g in zip(cols, _grads(flat[k], ins, None, create_graph, strict,
                                             "jacobian"), strict=True):
                    c.append(g)
            jac = tuple((stack(c) if c else zeros((0, *x.shape), dtype=x.dtype,
                                                  device=x.device)).reshape(*out.shape, *x.shape)
                        for c, x in zip(cols, ins, strict=True))
            rows_per_out.append(_unwrap(_done(jac, create_graph), is_in))
    return _unwrap(tuple(rows_per_out), is_out)


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of scalar-valued ``func`` at ``inputs``: shape ``input.shape * 2``.

    Example:
        >>> hessian(lambda x: (x ** 3).sum(), gt.tensor([1.0, 2.0])).tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """
    is_in, _ = _as_tuple(inputs, "hessian", "inputs")

    def gradient(*xs: Tensor) -> tuple[Tensor, ...]:
        _, outs = _as_tuple(func(*xs), "hessian", "outputs of the function")
        _scalar_v(outs, "hessian")
        return _grads(outs, xs, None, True, strict, "hessian")

    jac = jacobian(gradient, inputs, create_graph, strict, vectorize, outer_jacobian_strategy)
    return jac if is_in else jac[0]


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """Return ``func(inputs)`` (a scalar) and the Hessian-vector product ``H v``.

    Example:
        >>> out, h = hvp(lambda x: (x ** 3).sum(), gt.tensor([1.0, 2.0]), gt.ones(2))
        >>> h.tolist()
        [6.0, 12.0]
    """
    with enable_grad():
        is_in, ins, _, outs = _run(func, inputs, create_graph, "hvp")
        _scalar_v(outs, "hvp")
        vs = _scalar_v(ins, "hvp") if v is None else _check_v(v, ins, "hvp")
        gs = _grads(outs, ins, None, True, strict, "hvp")
        hs = _grads(gs, ins, vs, create_graph, strict, "hvp")
    return _done(outs, create_graph)[0], _unwrap(_done(hs, create_graph), is_in)


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """Return ``func(inputs)`` (a scalar) and ``v^T H`` (equal to ``H v``: H is symmetric).

    Example:
        >>> out, h = vhp(lambda x: (x ** 3).sum(), gt.tensor([1.0, 2.0]), gt.ones(2))
        >>> h.tolist()
        [6.0, 12.0]
    """
    return hvp(func, inputs, v, create_graph, strict)
