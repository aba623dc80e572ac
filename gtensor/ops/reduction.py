"""Reductions: sum, mean, prod, amax/amin, max/min, argmax/argmin, var/std, norm, any/all,
logsumexp, with their VJPs.

A reduction call: normalize ``dim`` (None = all dims), pick the kernel and result
dtypes, allocate the result with the reduced shape (``keepdim`` keeps size-1
dims), launch one kernel, and record one autograd node. The kernels accumulate
float32 in float64 and integers in int64 (see ``gtensor.kernels.cpu.reduction``).
"""

from __future__ import annotations

import builtins
import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..dtypes import as_dtype, bool_, dtype, float32, get_default_dtype, int64, uint8
from ..errors import DTypeError, check
from ..graph.autocast_mode import autocast_inputs
from ..graph.grad_mode import no_grad
from ..graph.node import Node, needs_grad, record
from ..shape_rules import wrap_dim
from ..tensor_base import contiguous_strides, planned_empty
from . import elementwise, tracing
from .complex_rules import refuse_complex
from .creation import arange, ones, ones_like, zeros_like
from .dispatch import PlanCache, current_stream_of, kernel, launch
from .layout.copies import cat
from .layout.views import expand_to
from .ternary import where
from .unary import sgn

if TYPE_CHECKING:
    from ..tensor import Tensor
else:
    from ..tensor_base import TensorBase as Tensor  # run time: the core class, below the ops

Dims = int | Sequence[int] | None


def reduce_dims(x: Tensor, dim: Dims, op: str) -> tuple[int, ...]:
    """Normalize ``dim`` into sorted unique non-negative dims (None: every dim).

    Example:
        >>> reduce_dims(gt.ones(2, 3), -1, "sum")
        (1,)
    """
    if dim is None:
        return _EVERY_DIM[len(x._shape)] if len(x._shape) < 8 else tuple(range(x.ndim))
    if type(dim) is int and x._shape:  # the common single dim, checked inline
        ndim = len(x._shape)
        if -ndim <= dim < ndim:
            return (dim + ndim if dim < 0 else dim,)
    dims = tuple(dim) if hasattr(dim, "__iter__") else (dim,)
    wrapped = [wrap_dim(d, x.ndim, op) for d in dims]
    check(len(set(wrapped)) == len(wrapped), op, lambda: f"dim {tuple(dims)} appears multiple "
          "times in the list of dims", RuntimeError)
    return tuple(sorted(wrapped)) if x.ndim else ()


_EVERY_DIM = [tuple(range(n)) for n in range(8)]


def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    """The result shape of reducing ``dims`` of ``shape``."""
    if keepdim:
        return tuple(1 if d in dims else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in dims)


_plans = PlanCache()


def run_reduction(op: str, x: Tensor, dims: tuple[int, ...], keepdim: bool, out_dt: dtype,
                  param: float = 0.0) -> Tensor:
    """Allocate the result and launch reduction kernel ``op`` (half types accumulate in float32).

    The result shape and the kernel's bound layout are planned once per
    (op, device, dtypes, shape, strides, dims, keepdim).

    Example:
        >>> x = gt.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> run_reduction("sum", x, (0,), False, x.dtype).tolist()
        [4.0, 6.0]
    """
    if tracing.state.trace is not None:
        if param or op not in tracing.FUSABLE_REDUCTIONS:  # the kernel, run at every call
            return tracing.library_call(op, functools.partial(
                _reduced, op=op, dims=dims, keepdim=keepdim, out_dt=out_dt, param=param), (x,),
                kept_shape(x._shape, dims, keepdim), out_dt)
        return tracing.state.trace.reduce(op, x, dims, keepdim, out_dt)
    kdt = x._dtype
    res_dt = out_dt
    if kdt.is_half and out_dt is not kdt and out_dt is not bool_:
        # the half kernels accumulate in float32 and round into their own type only
        kdt = float32
        x = x.to(kdt)  # type: ignore[attr-defined]
        res_dt = float32 if out_dt.is_half else out_dt
    dev = x._storage.device
    if dev._type == "cpu":  # one device, no streams: a shorter key (lengths never collide)
        stream = None
        key: tuple[Any, ...] = (op, kdt, res_dt, x._shape, x._strides, dims, keepdim)
    else:
        stream = current_stream_of(dev)
        key = (op, dev._index, stream.handle, kdt, res_dt, x._shape, x._strides, dims, keepdim)
    plan = _plans.get(key)
    if plan is None:
        plan = _plans.add(key, _plan_reduction(op, x, dims, keepdim, res_dt,
                                               None if stream is None else stream.numba))
    shape, run, by_address, strides, nbytes = plan
    result = planned_empty(nbytes, shape, strides, res_dt, dev, stream)
    if by_address is not None:  # x and result are held here while the kernel runs
        by_address(x._ptr, result._ptr, param if type(param) is float else float(param))
    else:
        run(x._storage.flat(kdt.kernel), x._offset, result._storage.flat(res_dt.kernel), 0,
            param)
    return result if res_dt is out_dt else result.to(out_dt)  # type: ignore[attr-defined]


def _reduced(x: Tensor, op: str, dims: tuple[int, ...], keepdim: bool, out_dt: dtype,
             param: float) -> Tensor:
    return run_reduction(op, x, dims, keepdim, out_dt, param)


def _plan_reduction(op: str, x: Tensor, dims: tuple[int, ...], keepdim: bool,
                    res_dt: dtype, stream: Any
                    ) -> tuple[tuple[int, ...], Any, Any, tuple[int, ...], int]:
    """The result shape, the plan over flat buffers, the one by address (or None), and the
    result's strides and bytes."""
    shape = kept_shape(x._shape, dims, keepdim)
    out_strides = contiguous_strides(kept_shape(x._shape, dims, False))
    fn = kernel(op, x._storage.device, x._dtype)
    args = (x._shape, x._strides, out_strides, dims, x._dtype.kernel, res_dt.kernel)
    by_address = getattr(fn, "plan_pointers", None)
    return (shape, fn.plan(*args, stream),
            None if by_address is None else by_address(*args),
            contiguous_strides(shape), math.prod(shape) * res_dt.itemsize)


def _restore(t: Tensor, ctx: Node) -> Tensor:
    return t if ctx.keepdim else t.reshape(kept_shape(ctx.in_shape, ctx.dims, True))  # type: ignore[attr-defined]


def _spread(g: Tensor, ctx: Node) -> Tensor:
    """``g`` broadcast back over the reduced dims (a 0-d ``g`` of a full reduction as it is)."""
    return expand_to(g if ctx.full or ctx.keepdim else _restore(g, ctx), ctx.in_shape, "expand")


def _sum_vjp(ctx: Node, g: Tensor) -> Tensor:
    return _spread(g, ctx)


def _mean_vjp(ctx: Node, g: Tensor) -> Tensor:
    return _spread(g, ctx) / builtins.max(ctx.count, 1)


def _exclusive_prod(x: Tensor, dims: tuple[int, ...], n: int) -> Tensor:
    """For each element, the product of the other elements of its slice over ``dims``.

    Two exclusive running products (from the front and from the back) of the
    slice flattened into one dim: exact with any number of zeros, no division.
    """
    if n <= 1 or x.ndim == 0:
        return ones_like(x)
    keep = [d for d in range(x.ndim) if d not in dims]
    order = keep + list(dims)
    moved = x.permute(order)  # type: ignore[attr-defined]
    lead = moved.shape[:len(keep)]
    rows = moved.reshape(lead + (n,))  # type: ignore[attr-defined]
    one = ones(lead + (1,), dtype=x.dtype, device=x.device)
    front = cat([one, rows.narrow(-1, 0, n - 1)], -1).cumprod(-1)  # type: ignore[attr-defined]
    back = cat([one, rows.flip(-1).narrow(-1, 0, n - 1)], -1)  # type: ignore[attr-defined]
    excl = (front * back.cumprod(-1).flip(-1)).reshape(moved.shape)  # type: ignore[attr-defined]
    return excl.permute([order.index(i) for i in range(x.ndim)])  # type: ignore[attr-defined]


def _prod_vjp(ctx: Node, g: Tensor) -> Tensor:
    """``result / x`` on slices without zeros (PyTorch's choice there), exact products else."""
    x, result = ctx.saved_tensors
    gr = _restore(g, ctx)
    if x.numel() == 0:
        return gr.expand(ctx.in_shape)  # type: ignore[attr-defined]
    has_zero = (x == 0).any(dim=ctx.dims, keepdim=True)  # type: ignore[attr-defined]
    quotient = _restore(result, ctx) / where(has_zero, 1.0, x)
    others = where(has_zero, _exclusive_prod(x, ctx.dims, ctx.count), quotient)
    return gr * (others.conj() if x.dtype.is_complex else others)  # type: ignore[attr-defined]


def _extreme_vjp(ctx: Node, g: Tensor) -> Tensor:
    """``amax``/``amin``: ties share evenly; a nan result gives nan (PyTorch)."""
    x, result = ctx.saved_tensors
    mask = (x == _restore(result, ctx)).to(g.dtype)  # type: ignore[attr-defined]
    count = mask.sum(dim=ctx.dims, keepdim=True)  # type: ignore[attr-defined]
    return _restore(g, ctx) * mask / count


def _evenly_vjp(ctx: Node, g: Tensor) -> Tensor:
    """Full ``max()``/``min()``: the gradient is split evenly among the elements equal to the
    result, or among the nans when the result is nan (PyTorch)."""
    x, result = ctx.saved_tensors
    r = _restore(result, ctx)
    mask = ((x == r) | (x.isnan() & r.isnan())).to(g.dtype)  # type: ignore[attr-defined]
    return _restore(g, ctx) * mask / mask.sum(dim=ctx.dims, keepdim=True)  # type: ignore


def _var_grad(ctx: Node, x: Tensor, gr: Tensor) -> Tensor:
    """PyTorch's ``var_backward`` for a gradient ``gr`` of the variance, in kept dims.

    ``2 / (n - correction)`` is inf when ``n == correction``; a full reduction
    with no degree of freedom gives nan where ``x`` equals the mean, inf elsewhere.
    """
    mean = x.mean(dim=ctx.dims, keepdim=True)  # type: ignore[attr-defined]
    dof = ctx.count - ctx.correction
    if ctx.full and dof <= 0:
        return gr * where(x == mean, math.nan, math.inf)
    return gr * (x - mean) * (2.0 / dof if dof != 0 else math.inf)


def _var_vjp(ctx: Node, g: Tensor) -> Tensor:
    (x,) = ctx.saved_tensors
    return _var_grad(ctx, x, _restore(g, ctx))


def _std_vjp(ctx: Node, g: Tensor) -> Tensor:
    """The variance's gradient scaled by ``1 / (2 std)``, and 0 where the std is 0."""
    x, result = ctx.saved_tensors
    r = _restore(result, ctx)
    zero = r == 0
    gv = where(zero, 0.0, _restore(g, ctx) / where(zero, 1.0, r * 2.0))
    return _var_grad(ctx, x, gv)


def _logsumexp_vjp(ctx: Node, g: Tensor) -> Tensor:
    x, result = ctx.saved_tensors
    return _restore(g, ctx) * (x - _restore(result, ctx)).exp()  # type: ignore[attr-defined]


def _norm_vjp(ctx: Node, g: Tensor) -> Tensor:
    """PyTorch's ``norm_backward``: 0 where the norm is 0, ties and nans share an inf-norm."""
    x, result = ctx.saved_tensors
    p = ctx.p
    r = _restore(result, ctx)
    gr = _restore(g, ctx)
    if p == 0:
        return zeros_like(x)
    if p == 1:
        return sgn(x) * gr
    zero = r == 0
    if p == 2:
        return gr * where(zero, 0.0, x / where(zero, 1.0, r))
    if math.isinf(p):
        ax = x.abs()  # type: ignore[attr-defined]
        mask = ((ax == r) | ax.isnan()).to(g.dtype)  # type: ignore[attr-defined]
        return sgn(x) * (gr / mask.sum(dim=ctx.dims, keepdim=True) * mask)  # type: ignore
    if p < 1:
        at_zero = x == 0
        scaled = sgn(x) * where(at_zero, 0.0, where(at_zero, 1.0, x.abs()) ** (p - 1))  # type: ignore
        return scaled * gr * r ** (1 - p)
    scaled = sgn(x) * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)  # type: ignore
    return scaled * where(zero, 0.0, gr / where(zero, 1.0, r) ** (p - 1))


def _all_if_empty(dim: Dims) -> Dims:
    """``dim=()`` (or ``[]``) reduces over every dim, as ``None`` does (PyTorch)."""
    return None if isinstance(dim, (tuple, list)) and not dim else dim


def _reduce(op: str, x: Tensor, dim: Dims, keepdim: bool, out_dt: dtype, vjp: Any,
            save_input: bool, save_output: bool, param: float = 0.0, *,
            kernel: str | None = None, src: Tensor | None = None, **attrs: Any) -> Tensor:
    """Run reduction ``kernel`` (default ``op``) on ``src`` (default ``x``); record ``op``."""
    if dim is None and len(x._shape) < 8:  # the common full reduction, without two calls
        dims = _EVERY_DIM[len(x._shape)]
    else:
        dim = _all_if_empty(dim)
        dims = reduce_dims(x, dim, op)
    result = run_reduction(kernel or op, x if src is None else src, dims, keepdim, out_dt, param)
    if vjp is not None and out_dt.category >= 2 and (
            x._requires_grad or x._base is not None) and needs_grad(x):
        count = 1
        for d in dims:
            count *= x.shape[d]
        save = [x] if save_input else []
        record(op, result, (x,), vjp, save=save + ([result] if save_output else []),
               dims=dims, keepdim=keepdim, in_shape=x.shape, count=count,
               full=dim is None or x.ndim == 0, **attrs)
    return result


def _into(result: Tensor, out: Tensor | None, op: str) -> Tensor:
    """``result``, or written into ``out=`` (same shape, a dtype it casts to)."""
    return result if out is None else elementwise.finish(result, result.dtype, out, op)


def _float_dtype(x: Tensor, op: str) -> dtype:
    check(x.dtype.is_inexact, op, lambda: f"expected a floating point or complex input, got "
          f"{x.dtype.name}; cast it or pass dtype=", DTypeError)
    return x.dtype


def _with_dtype(x: Tensor, dt: Any) -> Tensor:
    return x if dt is None or as_dtype(dt) is x.dtype else x.to(as_dtype(dt))  # type: ignore[attr-defined]


def _check_nonempty(x: Tensor, dims: Dims, op: str) -> None:
    for d in reduce_dims(x, dim=_all_if_empty(dims), op=op):
        check(x.shape[d] != 0, op, lambda: f"cannot reduce over a zero-size dimension of "
              f"shape {x.shape}: the operation has no identity", IndexError)


def sum(input: Tensor, dim: Dims = None, keepdim: bool = False, *,  # noqa: A001
        dtype: Any = None, out: Tensor | None = None) -> Tensor:
    """Sum over ``dim`` (all dims when None); integers and bools sum into int64.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).sum(1).tolist()
        [3, 7]
    """
    (input,) = autocast_inputs("sum", input)
    x = input if dtype is None else _with_dtype(input, dtype)
    out_dt = x._dtype if x._dtype.category >= 2 else int64
    return _into(_reduce("sum", x, dim, keepdim, out_dt, _sum_vjp, False, False), out, "sum")


def mean(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None,
         out: Tensor | None = None) -> Tensor:
    """Mean over ``dim``; floating inputs only (as in PyTorch). Empty -> nan.

    Example:
        >>> gt.tensor([1.0, 2.0]).mean().item()
        1.5
    """
    x = _with_dtype(input, dtype)
    return _into(_reduce("mean", x, dim, keepdim, _float_dtype(x, "mean"), _mean_vjp, False,
                         False), out, "mean")


def prod(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None,
         out: Tensor | None = None) -> Tensor:
    """Product over ``dim``; integers multiply into int64.

    Example:
        >>> gt.tensor([2.0, 3.0]).prod().item()
        6.0
    """
    (input,) = autocast_inputs("prod", input)
    x = _with_dtype(input, dtype)
    out_dt = x.dtype if x.dtype.is_inexact else int64
    return _into(_reduce("prod", x, dim, keepdim, out_dt, _prod_vjp, True, True), out, "prod")


def amax(input: Tensor, dim: Dims = None, keepdim: bool = False, *,
         out: Tensor | None = None) -> Tensor:
    """Maximum over ``dim``; nan wins; ties share the gradient evenly.

    Example:
        >>> gt.tensor([1.0, 5.0]).amax().item()
        5.0
    """
    refuse_complex("amax", input.dtype)
    _check_nonempty(input, dim, "amax")
    return _into(_reduce("amax", input, dim, keepdim, input.dtype, _extreme_vjp, True, True),
                 out, "amax")


def amin(input: Tensor, dim: Dims = None, keepdim: bool = False, *,
         out: Tensor | None = None) -> Tensor:
    """Minimum over ``dim``; nan wins; ties share the gradient evenly.

    Example:
        >>> gt.tensor([1.0, 5.0]).amin().item()
        1.0
    """
    refuse_complex("amin", input.dtype)
    _check_nonempty(input, dim, "amin")
    return _into(_reduce("amin", input, dim, keepdim, input.dtype, _extreme_vjp, True, True),
                 out, "amin")


def _arg_extreme(op: str, x: Tensor, dim: int | None, keepdim: bool,
                 values: bool) -> tuple[Tensor, Tensor | None]:
    refuse_complex(op, x.dtype)
    _check_nonempty(x, dim, op)
    dims = reduce_dims(x, dim, op)
    if dim is None:
        keepdim = keepdim and x.ndim > 0
    src = x.to(float32) if x.dtype.is_half else x  # type: ignore[attr-defined]
    shape = kept_shape(x.shape, dims, keepdim)
    outputs = [(shape, int64), (shape, src.dtype)] if values else [(shape, int64)]
    found = tracing.library_calls(op, functools.partial(_arg_extreme_kernel, op=op, dims=dims,
                                                        shape=shape, values=values),
                                  (src,), outputs)
    return found[0], found[1] if values else None


def _arg_extreme_kernel(src: Tensor, op: str, dims: tuple[int, ...], shape: tuple[int, ...],
                        values: bool) -> tuple[Tensor, ...]:
    """The library call of :func:`_arg_extreme`: new indices (and values) tensors."""
    idx = Tensor.empty(shape, int64, src.device)
    vals = Tensor.empty(shape, src.dtype, src.device) if values else None
    launch(op, src.device, (src.dtype,), src._native(), idx._native(), dims,
           values=None if vals is None else vals._native())
    return (idx,) if vals is None else (idx, vals)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the maximum along ``dim`` (of the flattened input when None); first wins.

    Example:
        >>> gt.tensor([1.0, 5.0, 5.0]).argmax().item()
        1
    """
    return _arg_extreme("argmax", input, dim, keepdim, False)[0]


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the minimum along ``dim`` (of the flattened input when None); first wins.

    Example:
        >>> gt.tensor([3.0, 1.0]).argmin().item()
        1
    """
    return _arg_extreme("argmin", input, dim, keepdim, False)[0]


class ValuesIndices(NamedTuple):
    """``(values, indices)`` as returned by ``max(dim)`` and ``min(dim)``."""
    values: Tensor
    indices: Tensor


def _pick_vjp(ctx: Node, g: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    if not ctx.dims:  # a 0-d input: its one element is the pick
        return g.reshape(ctx.in_shape)
    d = ctx.dims[0]
    shape = [1] * len(ctx.in_shape)
    shape[d] = ctx.in_shape[d]
    positions = arange(ctx.in_shape[d], device=g.device).reshape(shape)  # type: ignore[attr-defined]
    return _restore(g, ctx) * (positions == _restore(idx, ctx)).to(g.dtype)  # type: ignore[attr-defined]


def _max_min(op: str, input: Tensor, dim: Any, keepdim: bool) -> Any:
    if isinstance(dim, Tensor):
        return getattr(elementwise, "maximum" if op == "max" else "minimum")(input, dim)
    refuse_complex(op, input.dtype)
    if dim is None:
        kernel = "amax" if op == "max" else "amin"
        _check_nonempty(input, None, op)
        return _reduce(op, input, None, False, input.dtype, _evenly_vjp, True, True,
                       kernel=kernel)
    idx, vals = _arg_extreme("argmax" if op == "max" else "argmin", input, dim, keepdim, True)
    assert vals is not None
    if vals.dtype is not input.dtype:
        vals = vals.to(input.dtype)  # type: ignore[attr-defined]
    if input.dtype.is_floating_point:
        record(op, vals, (input,), _pick_vjp, save=[idx], dims=reduce_dims(input, dim, op),
               keepdim=keepdim, in_shape=input.shape)
    return ValuesIndices(vals, idx)


def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """``max()`` -> the maximum; ``max(dim)`` -> ``(values, indices)``; ``max(other)`` ->
    elementwise maximum.

    Example:
        >>> gt.tensor([[1.0, 4.0], [3.0, 2.0]]).max(1).indices.tolist()
        [1, 0]
    """
    return _max_min("max", input, dim, keepdim)


def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """``min()`` -> the minimum; ``min(dim)`` -> ``(values, indices)``; ``min(other)`` ->
    elementwise minimum.

    Example:
        >>> gt.tensor([3.0, 1.0]).min().item()
        1.0
    """
    return _max_min("min", input, dim, keepdim)


def _correction(correction: float | None, unbiased: bool | None) -> float:
    if correction is not None:
        return float(correction)
    return 0.0 if unbiased is False else 1.0


def var(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False,
        *, correction: float | None = None) -> Tensor:
    """Variance over ``dim`` with ``correction`` (1 by default: Bessel's), two-pass in float64.

    A complex input's variance is real: ``mean(|z - mean(z)|**2)`` with the correction.

    Example:
        >>> gt.tensor([1.0, 3.0]).var().item()
        2.0
    """
    c = _correction(correction, unbiased)
    if input.dtype.is_complex:  # E|z - mean z|^2: the parts' variances add up
        return (var(input.real, dim, keepdim=keepdim, correction=c)  # type: ignore[attr-defined]
                + var(input.imag, dim, keepdim=keepdim, correction=c))  # type: ignore[attr-defined]
    return _reduce("var", input, dim, keepdim, _float_dtype(input, "var"), _var_vjp, True,
                   False, c, correction=c)


def std(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False,
        *, correction: float | None = None) -> Tensor:
    """Standard deviation over ``dim`` with ``correction`` (1 by default).

    Example:
        >>> gt.tensor([1.0, 3.0]).std().item()
        1.4142135381698608
    """
    c = _correction(correction, unbiased)
    if input.dtype.is_complex:
        return var(input, dim, keepdim=keepdim, correction=c).sqrt()  # type: ignore[attr-defined]
    return _reduce("std", input, dim, keepdim, _float_dtype(input, "std"), _std_vjp, True, True,
                   c, correction=c)


def logsumexp(input: Tensor, dim: Dims = None, keepdim: bool = False, *,
              out: Tensor | None = None) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim``, shifted by the max (stable on large inputs);
    integers and bools reduce in the default float.

    Example:
        >>> gt.tensor([1000.0, 1000.0]).logsumexp(0).item()
        1000.6931762695312
    """
    (input,) = autocast_inputs("logsumexp", input)
    if not input.dtype.is_inexact:  # integers and bools in the default float, as in PyTorch
        input = input.to(get_default_dtype())  # type: ignore[attr-defined]
    return _into(_reduce("logsumexp", input, dim, keepdim, _float_dtype(input, "logsumexp"),
                         _logsumexp_vjp, True, True), out, "logsumexp")


def norm(input: Tensor, p: float | str = 2, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """Vector p-norm over ``dim`` (``"fro"`` is 2, ``inf`` the max of ``|x|``, ``-inf`` the min,
    0 counts nonzeros).

    Example:
        >>> gt.tensor([3.0, 4.0]).norm().item()
        5.0
    """
    (input,) = autocast_inputs("norm", input)
    if input.dtype.is_complex:  # the norm of the magnitudes, real
        return norm(input.abs(), p, dim, keepdim)  # type: ignore[attr-defined]
    check(not isinstance(p, str) or p == "fro", "norm", lambda: f"p={p!r} is a matrix norm: "
          f"use gt.linalg.matrix_norm(input, {p!r})", ValueError)
    order = 2.0 if p == "fro" else float(p)
    out_dt = _float_dtype(input, "norm")
    if math.isinf(order) or order < 0:  # no identity: the min or a negative power
        _check_nonempty(input, dim, "norm")
    if order == -math.inf:
        with no_grad():
            magnitude = input.abs()  # type: ignore[attr-defined]
        return _reduce("norm", input, dim, keepdim, out_dt, _norm_vjp, True, True, p=order,
                       kernel="amin", src=magnitude)
    return _reduce("norm", input, dim, keepdim, out_dt, _norm_vjp, True, True, order, p=order)


def any(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where any element over ``dim`` is nonzero (False for an empty reduction).

    ``uint8`` inputs give ``uint8`` results; ``dim=()`` reduces nothing (PyTorch).

    Example:
        >>> gt.tensor([0, 2]).any().item()
        True
    """
    return _any_all("any", input, dim, keepdim)


def all(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where every element over ``dim`` is nonzero (True for an empty reduction).

    ``uint8`` inputs give ``uint8`` results; ``dim=()`` reduces nothing (PyTorch).

    Example:
        >>> gt.tensor([1, 2]).all().item()
        True
    """
    return _any_all("all", input, dim, keepdim)


def _any_all(op: str, x: Tensor, dim: Dims, keepdim: bool) -> Tensor:
    out_dt = uint8 if x.dtype is uint8 else bool_
    if x.dtype.is_complex:
        x = x != 0
    if _all_if_empty(dim) is None and dim is not None:
        nonzero = x != 0
        return nonzero if out_dt is bool_ else nonzero.to(out_dt)  # type: ignore[attr-defined]
    return _reduce(op, x, dim, keepdim, out_dt, None, False, False)
