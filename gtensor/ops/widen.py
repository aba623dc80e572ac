"""Ops without half-precision kernels run half inputs in float32: one cast in, one cast back.

Convolutions, pooling and resampling have float32 and float64 kernels only;
given float16 or bfloat16 tensors they compute in float32, as PyTorch does on
the CPU (``BLAS in float32``), and return the input's half type. The casts are
differentiable, so gradients come back in the half type too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from ..dtypes import dtype, float32
from ..tensor_base import TensorBase

F = TypeVar("F", bound=Callable[..., Any])


def _half_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dtype | None:
    """The half dtype every floating tensor argument has, else None."""
    found: set[dtype] = {a.dtype for a in (*args, *kwargs.values())
                         if isinstance(a, TensorBase) and a.dtype.is_floating_point}
    if len(found) == 1:
        (dt,) = found
        return dt if dt.is_half else None
    return None


def _widen(x: Any) -> Any:
    return x.to(float32) if isinstance(x, TensorBase) and x.dtype.is_half else x


def _narrow(x: Any, dt: dtype) -> Any:
    if isinstance(x, TensorBase):
        return x.to(dt) if x.dtype is float32 else x
    if isinstance(x, tuple):
        return tuple(_narrow(v, dt) for v in x)
    return x


def half_in_float32(fn: F) -> F:
    """Run ``fn`` in float32 when its floating tensor arguments share one half dtype.

    Example:
        >>> seen = half_in_float32(lambda x: (x.dtype, x + 1))
        >>> seen(gt.ones(1, dtype=gt.float16))
        (gtensor.float32, tensor([2.], dtype=gtensor.float16))
    """
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        dt = _half_of(args, kwargs)
        if dt is None:
            return fn(*args, **kwargs)
        return _narrow(fn(*[_widen(a) for a in args],
                          **{k: _widen(v) for k, v in kwargs.items()}), dt)
    return wrapper  # type: ignore[return-value]
