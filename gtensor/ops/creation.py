"""Tensor creation: from data, filled, ranges, identity.

The constructors every op builds its results and constants with; they sit
right above the interop wrappers and below every other op.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cuda import runtime
from ..device import DeviceLike, resolve
from ..dtypes import (
    ALL_DTYPES,
    as_dtype,
    bool_,
    default_complex_dtype,
    dtype,
    float32,
    get_default_dtype,
    int64,
    promote_types,
)
from ..errors import DTypeError, ShapeError, check
from ..graph.grad_mode import is_grad_enabled
from ..graph.inplace import check_inplace, record_write
from ..shape_rules import checked_numel, keyword_sizes, normalize_shape
from ..tensor_base import TensorBase, from_numpy
from . import tracing
from .dispatch import bits_native, launch
from .interop import from_cuda_array_interface, from_dlpack

if TYPE_CHECKING:
    from ..tensor import Tensor


def finish_creation(t: Tensor, requires_grad: bool) -> Tensor:
    """``t``, made a leaf that requires grad when ``requires_grad``."""
    return t.requires_grad_(True) if requires_grad else t


def _infer_dtype(data: Any) -> dtype:
    if isinstance(data, (np.ndarray, np.generic)):  # a NumPy scalar keeps its dtype too
        return as_dtype(data.dtype)
    if isinstance(data, TensorBase):
        return data.dtype
    if isinstance(data, (list, tuple)) and data and isinstance(data[0], TensorBase):
        dt = data[0].dtype  # a sequence of tensors: their dtypes promote, as in PyTorch
        for item in data[1:]:
            dt = promote_types(dt, _infer_dtype(item), "tensor")
        return dt
    arr = host_array(data, None, "tensor")
    if arr.dtype.kind == "b":
        return bool_
    if arr.dtype.kind in "iu":
        return int64
    if arr.dtype.kind == "f":
        return get_default_dtype()
    if arr.dtype.kind == "c":
        return default_complex_dtype()
    raise TypeError(f"[tensor] cannot build a tensor from {type(data).__name__} "
                    f"(NumPy sees dtype {arr.dtype})")


def host_array(data: Any, np_dtype: Any, op: str) -> np.ndarray:
    """A new NumPy array of Python data, NumPy's refusals raised as typed errors naming ``op``."""
    check(not isinstance(data, (str, bytes)), op, lambda: f"cannot build a tensor from "
          f"{type(data).__name__}", DTypeError)
    try:
        return np.array(data, dtype=np_dtype, copy=True)
    except (TypeError, ValueError, OverflowError) as err:
        kind = ShapeError if "inhomogeneous" in str(err) else DTypeError
        what = "the default dtype" if np_dtype is None else np.dtype(np_dtype).name
        raise kind(f"[{op}] cannot convert {type(data).__name__} data to {what}: {err}") \
            from None


def _from_host(array: np.ndarray, dt: dtype, dev: DeviceLike | None) -> Tensor:
    """Copy host data into a new tensor allocated by gtensor's allocator on ``dev``."""
    trace = tracing.state.trace
    if trace is not None:  # gt.compile is tracing: a constant, read by a traced copy
        tracing.state.trace = None
        try:
            constant = _from_host(array, dt, dev)
        finally:
            tracing.state.trace = trace
        return trace.elementwise("cast", (constant,), dt, dt)
    host = np.asarray(array, dtype=dt.numpy, order="C")
    out = TensorBase.empty(host.shape, dt, resolve(dev, "tensor"))
    src = from_numpy(host)
    out._storage.copy_from(src._storage, 0, src._offset * dt.itemsize, out.nbytes)
    return out


def tensor(data: Any, dtype: Any = None, device: DeviceLike | None = None,
           requires_grad: bool = False) -> Tensor:
    """Build a new tensor (always a copy) from nested lists, scalars or arrays.

    Args:
        data: Python numbers, (nested) lists, NumPy arrays or tensors.
        dtype: element type (inferred: bool, int64, the default float dtype, or the
            default complex dtype for complex numbers).
        device: target device (default cpu).
        requires_grad: record operations on the result for autograd.

    Example:
        >>> tensor([[1, 2], [3, 4]]).dtype
        gtensor.int64
    """
    if isinstance(data, TensorBase):
        src = data.detach()
        dt = src.dtype if dtype is None else as_dtype(dtype)
        out = src.to(device=src.device if device is None else resolve(device, "tensor"), dtype=dt,
                     copy=True)
        return finish_creation(out, requires_grad)
    if hasattr(data, "__cuda_array_interface__") or hasattr(data, "__dlpack__") and not \
            isinstance(data, np.ndarray):
        return tensor(as_tensor(data), dtype=dtype, device=device, requires_grad=requires_grad)
    dt = _infer_dtype(data) if dtype is None else as_dtype(dtype)
    arr = host_array(data, dt.numpy, "tensor")
    return finish_creation(_from_host(arr, dt, device), requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """Convert ``data`` to a tensor, sharing memory when dtype and device allow.

    NumPy arrays on cpu and objects exposing ``__cuda_array_interface__`` on
    CUDA are wrapped without a copy (a read-only array gives a read-only
    tensor, an array in non-native byte order is copied: see
    :func:`from_numpy`); DLPack producers go through :func:`gtensor.from_dlpack`.

    Example:
        >>> import numpy as np
        >>> a = np.arange(3.0); as_tensor(a).data_ptr() == a.ctypes.data
        True
    """
    target = None if device is None else resolve(device, "as_tensor")
    if isinstance(data, TensorBase):
        t = data
    elif isinstance(data, np.ndarray):
        t = from_numpy(data) if data.dtype.name in _SUPPORTED else _from_host(
            data, _infer_dtype(data) if dtype is None else as_dtype(dtype), "cpu")
    elif hasattr(data, "__cuda_array_interface__"):
        t = from_cuda_array_interface(data)
    elif hasattr(data, "__dlpack__"):
        t = from_dlpack(data)
    else:
        return tensor(data, dtype=dtype, device=target)
    dev = t.device if target is None else target
    dt = t.dtype if dtype is None else as_dtype(dtype)
    return t.to(device=dev, dtype=dt)


_SUPPORTED = {d.name for d in ALL_DTYPES}


def creation_args(shape: tuple[Any, ...], dtype: Any, device: DeviceLike | None,
                  op: str, default: dtype | None = None) -> tuple[tuple[int, ...], dtype, Any]:
    """Check and resolve the size, dtype and device arguments of a factory (``zeros``...)."""
    dims = normalize_shape(shape, op)
    check(all(n >= 0 for n in dims), op, lambda: f"negative dimension in shape {dims}",
          ValueError)
    dt = (default or get_default_dtype()) if dtype is None else as_dtype(dtype)
    checked_numel(dims, op, dt.itemsize)
    dev = resolve(device, op)
    runtime.prepare(dev, op)
    return dims, dt, dev


def empty(*sizes: Any, size: Any = None, dtype: Any = None, device: DeviceLike | None = None,
          requires_grad: bool = False) -> Tensor:
    """Return an uninitialised tensor of ``size``.

    Example:
        >>> empty(2, 3).shape
        (2, 3)
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "empty")
    dims, dt, dev = creation_args(sizes, dtype, device, "empty")
    return finish_creation(TensorBase.empty(dims, dt, dev), requires_grad)


def fill_(t: Tensor, value: Any) -> Tensor:
    """Set every element of ``t`` to the Python scalar ``value`` in place."""
    t._check_writable("fill_")
    if isinstance(value, TensorBase) and value.requires_grad:
        return t.copy_(value.expand(t.shape))
    grad = t.requires_grad and is_grad_enabled()
    if grad:
        check_inplace(t, "fill_")
    n = t.numel()
    if tracing.state.trace is not None:
        tracing.state.trace.fill(t, _cast_scalar(value, t.dtype))
    elif n:
        # a contiguous target is filled through its storage's flat buffer (no view to build)
        dt = t._dtype
        out = t._storage.flat(dt.kernel)[t._offset:t._offset + n] if t.is_contiguous() \
            else bits_native(t)
        launch("fill", t.device, (dt,), out, kernel_scalar(value, dt))
    t._bump_version()
    if grad:
        record_write(t, None, "fill_")
    return t


def zero_(input: Tensor) -> Tensor:
    """Set every element of ``input`` to zero in place (``fill_(input, 0)``).

    Example:
        >>> gt.ones(2).zero_().tolist()
        [0.0, 0.0]
    """
    return fill_(input, 0)


def _filled(shape: tuple[int, ...], dt: dtype, dev: Any, value: Any) -> Tensor:
    """A new contiguous tensor set to the number ``value`` (fresh: nothing to check)."""
    t = TensorBase.empty(shape, dt, dev)
    if tracing.state.trace is not None:
        tracing.state.trace.fill(t, _cast_scalar(value, dt))
    elif t._storage.nbytes:
        launch("fill", dev, (dt,), t._storage.flat(dt.kernel), kernel_scalar(value, dt))
    return t


def _cast_scalar(value: Any, dt: dtype) -> Any:
    if isinstance(value, TensorBase):
        value = value.item()
    return dt.numpy.type(value).item() if dt is not bool_ else bool(value)


def kernel_scalar(value: Any, dt: dtype) -> Any:
    """``value`` as the fill kernel stores it: a half type's value as its bits."""
    if type(value) is int:  # zeros, ones and other integer fills: cast once per dtype
        key = (value, dt)
        cast = _INT_FILLS.get(key)
        if cast is None:
            if len(_INT_FILLS) >= 1024:
                _INT_FILLS.clear()
            cast = _INT_FILLS[key] = _kernel_scalar(value, dt)
        return cast
    return _kernel_scalar(value, dt)


def _kernel_scalar(value: Any, dt: dtype) -> Any:
    try:
        v = _cast_scalar(value, dt)
    except (TypeError, ValueError, OverflowError):
        raise DTypeError(f"[fill] value {value!r} cannot be converted to {dt.name}") from None
    return int(np.array(v, dt.numpy).view(dt.kernel)) if dt.is_half else v


_INT_FILLS: dict[tuple[int, dtype], Any] = {}


def full(size: Any, fill_value: Any, dtype: Any = None, device: DeviceLike | None = None,
         requires_grad: bool = False) -> Tensor:
    """Return a tensor of ``size`` filled with ``fill_value`` (dtype inferred from it).

    Example:
        >>> full((2,), 7).tolist()
        [7, 7]
    """
    if isinstance(fill_value, np.generic):  # a number here, whatever its NumPy dtype
        fill_value = fill_value.item()
    default = _infer_dtype(fill_value) if dtype is None else None
    dims, dt, dev = creation_args((size,) if not isinstance(size, (tuple, list)) else
                                   (tuple(size),), dtype, device, "full", default)
    if isinstance(fill_value, TensorBase):
        return finish_creation(fill_(TensorBase.empty(dims, dt, dev), fill_value), requires_grad)
    return finish_creation(_filled(dims, dt, dev, fill_value), requires_grad)


def zeros(*sizes: Any, size: Any = None, dtype: Any = None, device: DeviceLike | None = None,
          requires_grad: bool = False) -> Tensor:
    """Return a tensor of zeros.

    Example:
        >>> zeros(2).tolist()
        [0.0, 0.0]
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "zeros")
    dims, dt, dev = creation_args(sizes, dtype, device, "zeros")
    return finish_creation(_filled(dims, dt, dev, 0), requires_grad)


def ones(*sizes: Any, size: Any = None, dtype: Any = None, device: DeviceLike | None = None,
         requires_grad: bool = False) -> Tensor:
    """Return a tensor of ones.

    Example:
        >>> ones(2, dtype="int32").tolist()
        [1, 1]
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "ones")
    dims, dt, dev = creation_args(sizes, dtype, device, "ones")
    return finish_creation(_filled(dims, dt, dev, 1), requires_grad)


def _like(t: Tensor, dtype: Any, device: DeviceLike | None) -> tuple[Any, Any]:
    return (t.dtype if dtype is None else dtype), (t.device if device is None else device)


def empty_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None,
               requires_grad: bool = False) -> Tensor:
    """Return an uninitialised tensor shaped like ``t``."""
    dt, dev = _like(t, dtype, device)
    return empty(t.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def zeros_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None,
               requires_grad: bool = False) -> Tensor:
    """Return zeros shaped like ``t``."""
    if dtype is None and device is None:
        return finish_creation(_filled(t._shape, t._dtype, t._storage.device, 0), requires_grad)
    dt, dev = _like(t, dtype, device)
    return zeros(t.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def ones_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None,
              requires_grad: bool = False) -> Tensor:
    """Return ones shaped like ``t``."""
    if dtype is None and device is None:
        return finish_creation(_filled(t._shape, t._dtype, t._storage.device, 1), requires_grad)
    dt, dev = _like(t, dtype, device)
    return ones(t.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def full_like(t: Tensor, fill_value: Any, dtype: Any = None, device: DeviceLike | None = None,
              requires_grad: bool = False) -> Tensor:
    """Return ``fill_value`` everywhere, shaped like ``t``."""
    dt, dev = _like(t, dtype, device)
    return full(t.shape, fill_value, dtype=dt, device=dev, requires_grad=requires_grad)


def arange(start: float, end: float | None = None, step: float = 1, *, dtype: Any = None,
           device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Return ``start, start+step, ...`` up to (excluding) ``end``.

    Example:
        >>> arange(5).tolist()
        [0, 1, 2, 3, 4]
    """
    if end is None:
        start, end = 0, start
    start, end, step = (v.item() if isinstance(v, TensorBase) else v for v in (start, end, step))
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
    dt = (int64 if is_int else get_default_dtype()) if dtype is None else as_dtype(dtype)
    check(math.isfinite(start) and math.isfinite(end), "arange",
          lambda: f"unsupported range: {start} -> {end}", ValueError)
    count = None
    if not (is_int or dt.is_inexact):  # as PyTorch: start and step truncated to the integer
        if dt is not int64 and step:  # dtype; int64 truncates end too, others count from it
            count = math.ceil((end - start) / step)
        start, end, step = int(start), int(end), int(step)
    check(step != 0, "arange", "step must be nonzero", ValueError)
    check((end - start) * step >= 0 or end == start, "arange",
          lambda: f"upper bound and step sign are inconsistent ({start}, {end}, {step})",
          ValueError)
    n = max(0, math.ceil((end - start) / step) if count is None else count)
    dev = resolve(device, "arange")
    out = tracing.library_call("arange", functools.partial(_arange, n, dt, dev, start, step), (),
                               (n,), dt)
    return finish_creation(out, requires_grad)


def _arange(n: int, dt: dtype, dev: Any, start: float, step: float) -> Tensor:
    """The library call of :func:`arange`: a new tensor of ``n`` values."""
    if dt.is_half:  # values worked out in float32, each rounded once
        return _arange(n, float32, dev, start, step).to(dt)
    out = TensorBase.empty((n,), dt, dev)
    if n:
        launch("arange", out.device, (dt,), out._native(), start, step)
    return out


def linspace(start: float, end: float, steps: int, *, dtype: Any = None,
             device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Return ``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> linspace(0, 1, 3).tolist()
        [0.0, 0.5, 1.0]
    """
    check(isinstance(steps, int) and steps >= 0, "linspace",
          lambda: f"number of steps must be a non-negative int, got {steps}", ValueError)
    ends_complex = complex in (type(start), type(end))
    if dtype is not None:
        dt = as_dtype(dtype)
        check(dt.is_complex or not ends_complex, "linspace", lambda: f"complex ends need a "
              f"complex dtype, got {dt.name}", DTypeError)
    else:
        dt = default_complex_dtype() if ends_complex else get_default_dtype()
    if dt.is_complex or not dt.is_inexact:
        return finish_creation(tensor(_host_linspace(start, end, steps, dt.is_complex), dt,
                                      device), requires_grad)
    if dt.is_half:  # values worked out in float32, each rounded once
        return finish_creation(linspace(start, end, steps, dtype=float32, device=device).to(dt),
                               requires_grad)
    dev = resolve(device, "linspace")
    out = tracing.library_call("linspace", functools.partial(_linspace, steps, dt, dev, start,
                                                             end), (), (steps,), dt)
    return finish_creation(out, requires_grad)


def _host_linspace(start: Any, end: Any, steps: int, is_complex: bool) -> np.ndarray:
    """PyTorch's complex or integer ``linspace`` (integers: truncated ends and values), each
    half stepped from its own end."""
    first, last = (complex(start), complex(end)) if is_complex else (int(start), int(end))
    step = (last - first) / max(steps - 1, 1)
    i = np.arange(steps)
    from_first = (i < steps // 2) | (steps == 1)
    values = np.where(from_first, first + step * i, last - step * (steps - 1 - i))
    return values if is_complex else np.trunc(values)


def _linspace(steps: int, dt: dtype, dev: Any, start: float, end: float) -> Tensor:
    """The library call of :func:`linspace` (a float dtype other than the half types)."""
    out = TensorBase.empty((steps,), dt, dev)
    if steps:
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        launch("arange", out.device, (dt,), out._native(), float(start), float(step))
        if steps > 1:
            fill_(out[steps - 1], end)
    return out


def eye(n: int, m: int | None = None, *, dtype: Any = None, device: DeviceLike | None = None,
        requires_grad: bool = False) -> Tensor:
    """Return the ``n x m`` identity matrix.

    Example:
        >>> eye(2).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    m = n if m is None else m
    check(n >= 0 and m >= 0, "eye", lambda: f"n and m must be >= 0, got {n}, {m}", ValueError)
    out = zeros(n, m, dtype=dtype, device=device)
    k = min(n, m)
    if k:
        fill_(out._make_view((k,), (m + 1,), 0), 1)
    return finish_creation(out, requires_grad)
