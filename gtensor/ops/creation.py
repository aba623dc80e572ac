"""Tensor creation: from data, filled, ranges, identity."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..autograd.grad_mode import is_grad_enabled
from ..autograd.inplace import check_inplace, record_write
from ..cuda import runtime
from ..device import CPU, DeviceLike, resolve
from ..dtypes import as_dtype, bool_, dtype, get_default_dtype, int64
from ..errors import check
from ..shape_rules import checked_numel, normalize_shape
from ..storage import Storage
from ..tensor import Tensor, tensor_method
from .dispatch import launch


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    return t.requires_grad_(True) if requires_grad else t


def from_numpy(array: np.ndarray) -> Tensor:
    """Return a cpu tensor sharing memory with ``array`` (any strides).

    A read-only array (``np.frombuffer(bytes)``, ``np.load(..., mmap_mode="r")``)
    gives a read-only tensor: it shares the memory, reads work, and every
    write into it or its views (in-place ops, ``x[i] = v``, ``copy_``,
    ``fill_``, ``out=``) raises :class:`~gtensor.errors.GTensorError`;
    ``clone()`` gives a writable copy. PyTorch instead warns and shares the
    memory writable. An array in non-native byte order (``dtype=">f4"`` on a
    little-endian machine) is copied to native byte order, so that tensor does
    not share memory with ``array``.

    Example:
        >>> import numpy as np
        >>> a = np.zeros(3); t = from_numpy(a); a[0] = 1; t[0].item()
        1.0
    """
    check(isinstance(array, np.ndarray), "from_numpy",
          lambda: f"expected np.ndarray, got {type(array).__name__}", TypeError)
    dt = as_dtype(array.dtype)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    check(all(s % array.itemsize == 0 for s in array.strides), "from_numpy",
          "strides must be multiples of the element size", ValueError)
    strides = tuple(s // array.itemsize for s in array.strides)
    storage, offset = Storage.wrap(array.__array_interface__["data"][0], array.shape, strides,
                                   array.itemsize, CPU, array, host=True,
                                   readonly=not array.flags.writeable)
    return Tensor(storage, tuple(array.shape), strides, offset, dt)


def _infer_dtype(data: Any) -> dtype:
    if isinstance(data, np.ndarray):
        return as_dtype(data.dtype)
    arr = np.asarray(data)
    if arr.dtype.kind == "b":
        return bool_
    if arr.dtype.kind in "iu":
        return int64
    if arr.dtype.kind == "f":
        return get_default_dtype()
    raise TypeError(f"[tensor] cannot build a tensor from {type(data).__name__} "
                    f"(NumPy sees dtype {arr.dtype})")


def _from_host(array: np.ndarray, dt: dtype, dev: DeviceLike | None) -> Tensor:
    """Copy host data into a new tensor allocated by gtensor's allocator on ``dev``."""
    host = np.asarray(array, dtype=dt.numpy, order="C")
    out = Tensor.empty(host.shape, dt, resolve(dev, "tensor"))
    src = from_numpy(host)
    out._storage.copy_from(src._storage, 0, src._offset * dt.itemsize, out.nbytes)
    return out


def tensor(data: Any, dtype: Any = None, device: DeviceLike | None = None,
           requires_grad: bool = False) -> Tensor:
    """Build a new tensor (always a copy) from nested lists, scalars or arrays.

    Args:
        data: Python numbers, (nested) lists, NumPy arrays or tensors.
        dtype: element type (inferred: bool, int64, or the default float dtype).
        device: target device (default cpu).
        requires_grad: record operations on the result for autograd.

    Example:
        >>> tensor([[1, 2], [3, 4]]).dtype
        gtensor.int64
    """
    if isinstance(data, Tensor):
        src = data.detach()  # type: ignore[attr-defined]
        dt = src.dtype if dtype is None else as_dtype(dtype)
        out = src.to(device=src.device if device is None else resolve(device, "tensor"), dtype=dt,
                     copy=True)
        return _finish(out, requires_grad)
    if hasattr(data, "__cuda_array_interface__") or hasattr(data, "__dlpack__") and not \
            isinstance(data, np.ndarray):
        return tensor(as_tensor(data), dtype=dtype, device=device, requires_grad=requires_grad)
    dt = _infer_dtype(data) if dtype is None else as_dtype(dtype)
    arr = np.array(data, dtype=dt.numpy, copy=True)
    return _finish(_from_host(arr, dt, device), requires_grad)


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
    if isinstance(data, Tensor):
        t = data
    elif isinstance(data, np.ndarray):
        t = from_numpy(data) if data.dtype.name in _SUPPORTED else _from_host(
            data, _infer_dtype(data) if dtype is None else as_dtype(dtype), "cpu")
    elif hasattr(data, "__cuda_array_interface__"):
        from .interop import from_cuda_array_interface

        t = from_cuda_array_interface(data)
    elif hasattr(data, "__dlpack__"):
        from .interop import from_dlpack

        t = from_dlpack(data)
    else:
        return tensor(data, dtype=dtype, device=target)
    dev = t.device if target is None else target
    dt = t.dtype if dtype is None else as_dtype(dtype)
    return t.to(device=dev, dtype=dt)  # type: ignore[attr-defined]


_SUPPORTED = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64"}


def _creation_args(shape: tuple[Any, ...], dtype: Any, device: DeviceLike | None,
                   op: str, default: dtype | None = None) -> tuple[tuple[int, ...], dtype, Any]:
    dims = normalize_shape(shape, op)
    check(all(n >= 0 for n in dims), op, lambda: f"negative dimension in shape {dims}",
          ValueError)
    dt = (default or get_default_dtype()) if dtype is None else as_dtype(dtype)
    checked_numel(dims, op, dt.itemsize)
    dev = resolve(device, op)
    runtime.prepare(dev, op)
    return dims, dt, dev


def empty(*size: Any, dtype: Any = None, device: DeviceLike | None = None,
          requires_grad: bool = False) -> Tensor:
    """Return an uninitialised tensor of ``size``.

    Example:
        >>> empty(2, 3).shape
        (2, 3)
    """
    dims, dt, dev = _creation_args(size, dtype, device, "empty")
    return _finish(Tensor.empty(dims, dt, dev), requires_grad)


def fill_(t: Tensor, value: Any) -> Tensor:
    """Set every element of ``t`` to the Python scalar ``value`` in place."""
    t._check_writable("fill_")
    if isinstance(value, Tensor) and value.requires_grad:
        return t.copy_(value.expand(t.shape))  # type: ignore[attr-defined]
    grad = t.requires_grad and is_grad_enabled()
    if grad:
        check_inplace(t, "fill_")
    if t.numel():
        launch("fill", t.device, (t.dtype,), t._native(), _cast_scalar(value, t.dtype))
    t._bump_version()
    if grad:
        record_write(t, None, "fill_")
    return t


tensor_method("fill_")(fill_)


def _cast_scalar(value: Any, dt: dtype) -> Any:
    if isinstance(value, Tensor):
        value = value.item()
    return dt.numpy.type(value).item() if dt is not bool_ else bool(value)


def full(size: Any, fill_value: Any, dtype: Any = None, device: DeviceLike | None = None,
         requires_grad: bool = False) -> Tensor:
    """Return a tensor of ``size`` filled with ``fill_value`` (dtype inferred from it).

    Example:
        >>> full((2,), 7).tolist()
        [7, 7]
    """
    default = _infer_dtype(fill_value) if dtype is None else None
    dims, dt, dev = _creation_args((size,) if not isinstance(size, (tuple, list)) else
                                   (tuple(size),), dtype, device, "full", default)
    return _finish(fill_(Tensor.empty(dims, dt, dev), fill_value), requires_grad)


def zeros(*size: Any, dtype: Any = None, device: DeviceLike | None = None,
          requires_grad: bool = False) -> Tensor:
    """Return a tensor of zeros.

    Example:
        >>> zeros(2).tolist()
        [0.0, 0.0]
    """
    dims, dt, dev = _creation_args(size, dtype, device, "zeros")
    return _finish(fill_(Tensor.empty(dims, dt, dev), 0), requires_grad)


def ones(*size: Any, dtype: Any = None, device: DeviceLike | None = None,
         requires_grad: bool = False) -> Tensor:
    """Return a tensor of ones.

    Example:
        >>> ones(2, dtype="int32").tolist()
        [1, 1]
    """
    dims, dt, dev = _creation_args(size, dtype, device, "ones")
    return _finish(fill_(Tensor.empty(dims, dt, dev), 1), requires_grad)


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
    dt, dev = _like(t, dtype, device)
    return zeros(t.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def ones_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None,
              requires_grad: bool = False) -> Tensor:
    """Return ones shaped like ``t``."""
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
    check(step != 0, "arange", "step must be nonzero", ValueError)
    check((end - start) * step >= 0 or end == start, "arange",
          lambda: f"upper bound and step sign are inconsistent ({start}, {end}, {step})",
          ValueError)
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
    dt = (int64 if is_int else get_default_dtype()) if dtype is None else as_dtype(dtype)
    n = max(0, math.ceil((end - start) / step))
    out = Tensor.empty((n,), dt, resolve(device, "arange"))
    if n:
        launch("arange", out.device, (dt,), out._native(), start, step)
    return _finish(out, requires_grad)


def linspace(start: float, end: float, steps: int, *, dtype: Any = None,
             device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Return ``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> linspace(0, 1, 3).tolist()
        [0.0, 0.5, 1.0]
    """
    check(isinstance(steps, int) and steps >= 0, "linspace",
          lambda: f"number of steps must be a non-negative int, got {steps}", ValueError)
    dt = get_default_dtype() if dtype is None else as_dtype(dtype)
    out = Tensor.empty((steps,), dt, resolve(device, "linspace"))
    if steps:
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        launch("arange", out.device, (dt,), out._native(), float(start), float(step))
        if steps > 1:
            fill_(out[steps - 1], end)  # type: ignore[index]
    return _finish(out, requires_grad)


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
    return _finish(out, requires_grad)
