"""Differentiation transforms over the autograd engine: ``grad``, ``vjp``, ``jvp``, ``jacrev``...

They nest: an inner transform records its backward pass whenever its inputs
already carry an outer transform's graph, so ``grad(grad(f))`` works.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..autograd.engine import grad as _grad
from ..graph.grad_mode import enable_grad
from ..ops.creation import zeros, zeros_like
from ..ops.layout.copies import stack
from ..tensor import Tensor
from .pytree import flatten, unflatten

Argnums = int | Sequence[int]


def _prepare(args: tuple[Any, ...], argnums: Argnums, op: str,
             trees: bool = False) -> tuple[list[Any], list[int]]:
    """Make the ``argnums`` arguments differentiable (tensors in nested containers if ``trees``)."""
    nums = [argnums] if isinstance(argnums, int) else list(argnums)
    args = list(args)
    for n in nums:
        if not -len(args) <= n < len(args):
            raise ValueError(f"[{op}] argnums {n} is out of range for {len(args)} arguments")
        leaves, spec = flatten(args[n]) if trees else ([args[n]], None)
        args[n] = unflatten(spec, [_differentiable(x, n, op) for x in leaves])[0]
    return args, nums


def _differentiable(x: Any, n: int, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"[{op}] argument {n} must be a Tensor, got {type(x).__name__}")
    if not x.dtype.is_floating_point:
        raise TypeError(f"[{op}] argument {n} must be floating point, got {x.dtype.name}")
    # a connected alias when an outer transform is tracking x, else a fresh leaf
    return x.view(x.shape) if x.requires_grad else x.detach().requires_grad_()


def _nested(xs: Sequence[Tensor]) -> bool:
    return any(x.grad_fn is not None for x in xs)


def value_and_grad(f: Callable[..., Any], argnums: Argnums = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """Return a function computing ``f``'s value and its gradient w.r.t. ``argnums``.

    Args:
        f: returns a scalar tensor (or ``(scalar, aux)`` with ``has_aux``).
        argnums: which positional argument(s) to differentiate; each may be a
            tensor or nested tuples, lists and dicts of tensors (the gradient
            has the same structure).
        has_aux: ``f`` returns an extra value passed through untouched.

    Returns:
        A function returning ``(value, grads)`` or ``((value, aux), grads)``.

    Example:
        >>> v, g = value_and_grad(lambda x: (x * x).sum())(gt.ones(3))
        >>> float(v), g.tolist()
        (3.0, [2.0, 2.0, 2.0])
    """

    def wrapped(*args: Any) -> Any:
        with enable_grad():
            prepared, nums = _prepare(args, argnums, "grad", trees=True)
            result = f(*prepared)
            value, aux = result if has_aux else (result, None)
            if not isinstance(value, Tensor) or value.numel() != 1:
                raise RuntimeError("[grad] f must return a scalar tensor (one element), got "
                                   f"{getattr(value, 'shape', type(value).__name__)}")
            trees = [flatten(prepared[n]) for n in nums]
            xs = [x for leaves, _ in trees for x in leaves]
            grads = _grad(value, xs, create_graph=_nested(xs), allow_unused=True)
        flat = [g if g is not None else _zeros(x) for g, x in zip(grads, xs, strict=True)]
        start, grouped = 0, []
        for _, spec in trees:
            tree, start = unflatten(spec, flat, start)
            grouped.append(tree)
        out = grouped[0] if isinstance(argnums, int) else tuple(grouped)
        value = value if value.grad_fn is None or _nested(xs) else value.detach()
        return ((value, aux), out) if has_aux else (value, out)

    return wrapped


def grad(f: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """Return a function computing the gradient of scalar-valued ``f``.

    Example:
        >>> grad(lambda x: (x ** 3).sum())(gt.tensor([2.0]))
        tensor([12.])
    """
    vg = value_and_grad(f, argnums, has_aux)

    def wrapped(*args: Any) -> Any:
        value, g = vg(*args)
        return (g, value[1]) if has_aux else g

    return wrapped


def grad_and_value(f: Callable[..., Any], argnums: Argnums = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """Return a function computing ``(gradient, value)`` of scalar-valued ``f``, as ``torch.func``.

    With ``has_aux`` the second item is ``(value, aux)``.

    Example:
        >>> g, v = grad_and_value(lambda x: (x * x).sum())(gt.ones(2))
        >>> g.tolist(), float(v)
        ([2.0, 2.0], 2.0)
    """
    vg = value_and_grad(f, argnums, has_aux)

    def wrapped(*args: Any) -> Any:
        value, g = vg(*args)
        return g, value

    return wrapped


def _zeros(x: Tensor) -> Tensor:
    return zeros_like(x)


def vjp(f: Callable[..., Any], *primals: Tensor, has_aux: bool = False) -> Any:
    """Return ``f(*primals)`` and a function mapping output cotangents to input cotangents.

    Example:
        >>> out, pullback = vjp(lambda x: x * 2, gt.ones(3))
        >>> pullback(gt.ones(3))
        (tensor([2., 2., 2.]),)
    """
    with enable_grad():
        prepared, nums = _prepare(primals, list(range(len(primals))), "vjp")
        result = f(*prepared)
    out, aux = result if has_aux else (result, None)
    outs = [out] if isinstance(out, Tensor) else list(out)
    xs = [prepared[n] for n in nums]

    def pullback(*cotangents: Tensor) -> tuple[Tensor, ...]:
        cots = list(cotangents)
        if len(cots) != len(outs):
            raise ValueError(f"[vjp] expected {len(outs)} cotangents, got {len(cots)}")
        with enable_grad():
            got = _grad(outs, xs, cots, retain_graph=True,
                        create_graph=_nested(xs) or any(c.requires_grad for c in cots),
                        allow_unused=True)
        return tuple(g if g is not None else _zeros(x) for g, x in zip(got, xs, strict=True))

    shown = out if _nested(xs) else _detached(out)
    return (shown, pullback, aux) if has_aux else (shown, pullback)


def _detached(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out.detach()
    return type(out)(o.detach() for o in out)


def jvp(f: Callable[..., Any], primals: Sequence[Tensor],
        tangents: Sequence[Tensor]) -> tuple[Any, Any]:
    """Return ``f(*primals)`` and the forward derivative along ``tangents``.

    Computed as two reverse passes (the VJP of the VJP is linear in the cotangent).

    Example:
        >>> out, t = jvp(lambda x: x * 3, (gt.ones(2),), (gt.ones(2),))
        >>> out.tolist(), t.tolist()
        ([3.0, 3.0], [3.0, 3.0])
    """
    if len(primals) != len(tangents):
        raise ValueError(f"[jvp] {len(primals)} primals but {len(tangents)} tangents")
    for p, t in zip(primals, tangents, strict=True):
        if p.shape != t.shape:
            raise ValueError(f"[jvp] tangent shape {t.shape} does not match primal shape "
                             f"{p.shape}")
    with enable_grad():
        prepared, nums = _prepare(tuple(primals), list(range(len(primals))), "jvp")
        out = f(*prepared)
        outs = [out] if isinstance(out, Tensor) else list(out)
        dummies = [zeros_like(o).requires_grad_() for o in outs]
        xs = [prepared[n] for n in nums]
        vjps = _grad(outs, xs, dummies, create_graph=True, allow_unused=True)
        pairs = [(g, t) for g, t in zip(vjps, tangents, strict=True) if g is not None]
        if pairs:
            got = _grad([g for g, _ in pairs], dummies, [t for _, t in pairs],
                        create_graph=_nested(xs), allow_unused=True)
        else:
            got = (None,) * len(dummies)
    tangent_out = [g if g is not None else zeros_like(o) for g, o in zip(got, outs, strict=True)]
    if not _nested(xs):
        tangent_out = [t.detach() for t in tangent_out]
        out = _detached(out)
    return out, tangent_out[0] if isinstance(out, Tensor) else tuple(tangent_out)


def _jacobians(f: Callable[..., Any], args: tuple[Any, ...], argnums: Argnums,
               has_aux: bool, op: str) -> Any:
    """Jacobians of each output of ``f`` w.r.t. each ``argnums`` input, one reverse pass a row."""
    with enable_grad():
        prepared, nums = _prepare(args, argnums, op)
        result = f(*prepared)
        out, aux = result if has_aux else (result, None)
        single = isinstance(out, Tensor)
        if op == "jacobian" and not single:
            raise TypeError("[jacobian] f must return a single tensor")
        outs = [out] if single else list(out) if isinstance(out, (tuple, list)) else [out]
        if not all(isinstance(o, Tensor) for o in outs):
            raise TypeError(f"[{op}] f must return a tensor or a tuple of tensors, got "
                            f"{type(out).__name__}")
        xs = [prepared[n] for n in nums]
        nested = _nested(xs)
        per_out = []
        for o in outs:
            flat = o.reshape(-1)
            rows: list[list[Tensor]] = [[] for _ in xs]
            for i in range(o.numel()):
                got = _grad(flat[i], xs, retain_graph=True, create_graph=nested,
                            allow_unused=True)
                for row, g, x in zip(rows, got, xs, strict=True):
                    row.append(g if g is not None else _zeros(x))
            per_out.append(tuple(
                stack(row).reshape(o.shape + x.shape) if row
                else zeros(o.shape + x.shape, dtype=x.dtype, device=x.device)
                for row, x in zip(rows, xs, strict=True)))
    if not nested:
        per_out = [tuple(j.detach() for j in jacs) for jacs in per_out]
    picked = [jacs[0] if isinstance(argnums, int) else jacs for jacs in per_out]
    jac = picked[0] if single else tuple(picked)
    return (jac, aux) if has_aux else jac


def jacrev(f: Callable[..., Any], argnums: Argnums = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """Return a function computing the Jacobian of ``f`` by reverse mode (PyTorch's ``jacrev``).

    One backward pass per output element. Each Jacobian has shape
    ``out.shape + x.shape``; with a tuple ``argnums`` one per argument, and
    with a tuple of outputs one such result per output.

    Args:
        f: returns a tensor or a tuple of tensors (``(out, aux)`` with ``has_aux``).
        argnums: which positional argument(s) to differentiate.
        has_aux: ``f`` returns an extra value passed through untouched.

    Example:
        >>> jacrev(lambda x: x.sin())(gt.zeros(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    def wrapped(*args: Any) -> Any:
        return _jacobians(f, args, argnums, has_aux, "jacrev")

    return wrapped


def jacfwd(f: Callable[..., Any], argnums: Argnums = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """Return a function computing the Jacobian of ``f`` (PyTorch's ``jacfwd``).

    gtensor has no forward-mode engine: the Jacobian is assembled from reverse
    passes, one per output element, as in :func:`jacrev`; values and shapes are
    those of forward mode.

    Example:
        >>> jacfwd(lambda x: x * x)(gt.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    def wrapped(*args: Any) -> Any:
        return _jacobians(f, args, argnums, has_aux, "jacfwd")

    return wrapped


def jacobian(f: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """Return a function computing the Jacobian of ``f`` (shape ``out.shape + x.shape``).

    Example:
        >>> jacobian(lambda x: x * x)(gt.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    def wrapped(*args: Any) -> Any:
        return _jacobians(f, args, argnums, False, "jacobian")

    return wrapped


def hessian(f: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """Return a function computing the Hessian of scalar-valued ``f``.

    With a tuple ``argnums`` the result is nested: ``h[i][j]`` pairs arguments i and j.

    Example:
        >>> hessian(lambda x: (x ** 3).sum())(gt.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(grad(f, argnums), argnums)
