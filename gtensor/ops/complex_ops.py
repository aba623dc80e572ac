"""Ops that take complex numbers apart or build them: ``real``, ``imag``, ``conj``, ``angle``,
``sgn``, ``view_as_real``, ``view_as_complex``, ``complex``, ``polar``.

A complex element is two adjacent floats (real part first), as in NumPy and
PyTorch, so ``real``/``imag`` and ``view_as_real`` are views of the complex
storage with doubled strides (``view_as_complex`` the reverse); writing through
them writes the complex tensor. They are views of it for autograd too: an
in-place write through one (``z.real.mul_(2)``, ``z.imag[0] = y``) rewrites
the complex tensor's history, as a write through any view does
(:mod:`gtensor.graph.inplace`).
Gradients follow PyTorch's convention for a real loss ``L`` of complex ``z``:
the gradient is ``dL/d(re z) + 1j * dL/d(im z)``. ``conj`` is always physical:
``conj_physical`` is the same op, ``resolve_conj`` returns its input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import complex_of, dtype, get_default_dtype
from ..errors import DTypeError, ShapeError, check
from ..graph.inplace import dtype_view
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from ..trace_state import state
from .elementwise import takes_out, where
from .launch_plans import run_kernel

if TYPE_CHECKING:
    from ..tensor import Tensor


def _check_tensor(x: Any, op: str) -> None:
    check(isinstance(x, TensorBase), op, lambda: f"expected a Tensor, got {type(x).__name__}",
          TypeError)


def _part(x: Tensor, shift: int) -> Tensor:
    """The real (``shift`` 0) or imaginary (1) parts of complex ``x``, as a view.

    While ``gt.compile`` traces, the parts are an elementwise value of ``x``
    (fused like any other); the result keeps ``x`` as its base, so that a
    write through it is refused by the trace (the function then runs eagerly).
    """
    trace = state.trace
    if trace is not None:
        out = trace.elementwise("imag" if shift else "real", (x,), x._dtype, x._dtype.real_dtype)
        out._base = x if x._base is None else x._base
        return out
    return dtype_view(x, x._shape, tuple(2 * s for s in x._strides), 2 * x._offset + shift,
                       x._dtype.real_dtype)


def _real_vjp(ctx: Node, g: Tensor) -> Tensor:
    return g.to(complex_of(g.dtype))  # type: ignore[attr-defined]


def _imag_vjp(ctx: Node, g: Tensor) -> Tensor:
    return g.to(complex_of(g.dtype)) * 1j  # type: ignore[attr-defined]


def real(input: Tensor) -> Tensor:
    """The real parts of a complex tensor, as a view of its storage (a real tensor itself).

    Example:
        >>> import gtensor as gt
        >>> gt.real(gt.tensor([1 + 2j])).tolist()
        [1.0]
    """
    _check_tensor(input, "real")
    if not input.dtype.is_complex:
        return input
    out = _part(input, 0)
    record("real", out, (input,), _real_vjp)
    return out


def imag(input: Tensor) -> Tensor:
    """The imaginary parts of a complex tensor, as a view of its storage.

    Raises:
        DTypeError: for a real tensor, as PyTorch.

    Example:
        >>> import gtensor as gt
        >>> gt.imag(gt.tensor([1 + 2j])).tolist()
        [2.0]
    """
    _check_tensor(input, "imag")
    check(input.dtype.is_complex, "imag", lambda: "not implemented for tensors with non-complex "
          f"dtypes ({input.dtype.name})", DTypeError)
    out = _part(input, 1)
    record("imag", out, (input,), _imag_vjp)
    return out


def _view_as_real_vjp(ctx: Node, g: Tensor) -> Tensor:
    return view_as_complex(g.contiguous())  # type: ignore[attr-defined]


def _view_as_complex_vjp(ctx: Node, g: Tensor) -> Tensor:
    return view_as_real(g.contiguous())  # type: ignore[attr-defined]


def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor as a real one with a last dim of 2 (real, imaginary): a view.

    Example:
        >>> import gtensor as gt
        >>> gt.view_as_real(gt.tensor([1 + 2j])).tolist()
        [[1.0, 2.0]]
    """
    _check_tensor(input, "view_as_real")
    check(input.dtype.is_complex, "view_as_real", lambda: "is only supported for complex "
          f"tensors, got {input.dtype.name}", DTypeError)
    out = dtype_view(input, (*input._shape, 2), (*(2 * s for s in input._strides), 1),
                      2 * input._offset, input._dtype.real_dtype)
    record("view_as_real", out, (input,), _view_as_real_vjp)
    return out


def view_as_complex(input: Tensor) -> Tensor:
    """A float32/float64 tensor whose last dim (of size 2, stride 1) holds (real, imaginary)
    pairs, as a complex view one dim smaller.

    Raises:
        DTypeError: for other dtypes. ShapeError: for a last dim that is not 2 of stride
        1, or other strides or a storage offset that are not even.

    Example:
        >>> import gtensor as gt
        >>> gt.view_as_complex(gt.tensor([[1.0, 2.0]])).tolist()
        [(1+2j)]
    """
    _check_tensor(input, "view_as_complex")
    dt = input.dtype
    check(dt.name in ("float32", "float64"), "view_as_complex", lambda: "is only supported "
          f"for float32 and float64 tensors, got {dt.name}", DTypeError)
    check(input.ndim > 0 and input.shape[-1] == 2, "view_as_complex", lambda: "tensor must "
          f"have a last dimension of size 2, got shape {input.shape}", ShapeError)
    check(input._strides[-1] == 1, "view_as_complex", "tensor must have a last dimension "
          "with stride 1", ShapeError)
    check(all(s % 2 == 0 for s in input._strides[:-1]) and input._offset % 2 == 0,
          "view_as_complex", "tensor must have a stride divisible by 2 for all but the last "
          "dimension, and an even storage offset", ShapeError)
    out = dtype_view(input, input._shape[:-1], tuple(s // 2 for s in input._strides[:-1]),
                      input._offset // 2, complex_of(dt))
    record("view_as_complex", out, (input,), _view_as_complex_vjp)
    return out


def _conj_vjp(ctx: Node, g: Tensor) -> Tensor:
    return conj(g)


def conj(input: Tensor) -> Tensor:
    """The complex conjugate (a new tensor); a real tensor is returned as it is.

    Example:
        >>> import gtensor as gt
        >>> gt.conj(gt.tensor([1 + 2j])).tolist()
        [(1-2j)]
    """
    _check_tensor(input, "conj")
    dt = input.dtype
    if not dt.is_complex:
        return input
    out = run_kernel("conj", (input,), dt, input.device, (dt,))
    record("conj", out, (input,), _conj_vjp)
    return out


conj_physical = conj


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims (``x.mH``); the transpose for real ``x``.

    Example:
        >>> import gtensor as gt
        >>> gt.adjoint(gt.tensor([[1j, 2.0 + 0j]])).tolist()
        [[-1j], [(2-0j)]]
    """
    _check_tensor(input, "adjoint")
    check(input.ndim >= 2, "adjoint", lambda: f"expected a tensor with 2 or more dims, got "
          f"{input.ndim}-D", ShapeError)
    return conj(input.mT)  # type: ignore[attr-defined]


def resolve_conj(input: Tensor) -> Tensor:
    """``input`` itself: gtensor's ``conj`` is never lazy, so there is nothing to resolve."""
    return input


def is_conj(input: Tensor) -> bool:
    """False: gtensor has no lazily conjugated tensors."""
    return False


def is_complex(input: Tensor) -> bool:
    """True when ``input`` has a complex dtype.

    Example:
        >>> import gtensor as gt
        >>> gt.is_complex(gt.zeros(1, dtype=gt.complex64))
        True
    """
    return input.dtype.is_complex


def _inexact(x: Tensor) -> dtype:
    return x.dtype if x.dtype.is_inexact else get_default_dtype()


def _angle_vjp(ctx: Node, g: Tensor) -> Tensor:
    (x,) = ctx.saved_tensors
    if not x.dtype.is_complex:
        return g * 0.0
    r2 = x.real * x.real + x.imag * x.imag  # type: ignore[attr-defined]
    return where(r2 == 0, 0j, g * x * 1j / where(r2 == 0, 1.0, r2))


@takes_out
def angle(input: Tensor) -> Tensor:
    """The argument of each element, in radians (``atan2(imag, real)``); for real inputs
    ``pi`` below zero, else 0 (integers give the default float dtype).

    Example:
        >>> import gtensor as gt
        >>> round(gt.angle(gt.tensor([1j])).item(), 4)
        1.5708
    """
    _check_tensor(input, "angle")
    dt = _inexact(input)
    x = input if input.dtype is dt else input.to(dt)  # type: ignore[attr-defined]
    out = run_kernel("angle", (x,), dt.real_dtype, x.device, (dt,))
    record("angle", out, (input,), _angle_vjp, save=[input])
    return out


def _sgn_vjp(ctx: Node, g: Tensor) -> Tensor:
    x, s = ctx.saved_tensors
    r = x.abs()  # type: ignore[attr-defined]
    zero = r == 0
    return where(zero, 0j, (g - s * s * conj(g)) / (where(zero, 1.0, r) * 2.0))


@takes_out
def sgn(input: Tensor) -> Tensor:
    """``x / |x|`` for complex ``x`` (0 at 0); the sign (-1, 0, 1) for real tensors.

    Example:
        >>> import gtensor as gt
        >>> gt.sgn(gt.tensor([2j, -3.0 + 0j])).tolist()
        [1j, (-1+0j)]
    """
    _check_tensor(input, "sgn")
    dt = input.dtype
    if not dt.is_complex:
        return input.sign()  # type: ignore[attr-defined]
    out = run_kernel("sgn", (input,), dt, input.device, (dt,))
    record("sgn", out, (input,), _sgn_vjp, save=[input, out])
    return out


def _float_pair(op: str, a: Tensor, b: Tensor) -> None:
    _check_tensor(a, op)
    _check_tensor(b, op)
    check(a.dtype is b.dtype and a.dtype.name in ("float32", "float64"), op,
          lambda: "expected both inputs to be float32 or both float64, got "
          f"{a.dtype.name} and {b.dtype.name}", DTypeError)


def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001 - PyTorch's name
    """The complex tensor ``real + 1j * imag`` (both float32, or both float64; broadcast).

    Example:
        >>> import gtensor as gt
        >>> gt.complex(gt.tensor([1.0]), gt.tensor([2.0])).tolist()
        [(1+2j)]
    """
    _float_pair("complex", real, imag)
    cdt = complex_of(real.dtype)
    return real.to(cdt) + imag.to(cdt) * 1j  # type: ignore[attr-defined]


def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002 - PyTorch's names
    """The complex tensor with magnitudes ``abs`` and arguments ``angle``.

    Example:
        >>> import gtensor as gt
        >>> gt.polar(gt.tensor([2.0]), gt.tensor([0.0])).tolist()
        [(2+0j)]
    """
    _float_pair("polar", abs, angle)
    return complex(abs * angle.cos(), abs * angle.sin())  # type: ignore[attr-defined]


__all__ = ["adjoint", "angle", "complex", "conj", "conj_physical", "imag", "is_complex", "is_conj",
           "polar", "real", "resolve_conj", "sgn", "view_as_complex",
           "view_as_real"]
