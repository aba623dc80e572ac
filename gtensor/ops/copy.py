"""Copies and movement: ``copy_``, ``contiguous``, ``clone``, ``to``, ``type_as``, ``cpu``,
``cuda``; and the dtype query ``is_floating_point``.

Casting complex values to a real dtype keeps the real parts and warns, as
PyTorch does (to ``bool``: nonzero, without a warning).

The pattern every op follows: check inputs (typed errors starting with the op),
compute result metadata, allocate the output, one dispatch lookup, the kernel
call on the device's current stream.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from ..cuda import current_stream
from ..device import DeviceLike, device, resolve
from ..dtypes import as_dtype, dtype
from ..errors import DTypeError, GTensorError, ShapeError, check
from ..graph.inplace import check_inplace, record_write
from ..graph.node import needs_grad, record
from ..graph.overlap import unaliased
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from . import tracing
from .creation import as_tensor
from .dispatch import launch

if TYPE_CHECKING:
    from ..tensor import Tensor


def broadcast_view(t: Tensor, shape: tuple[int, ...], op: str) -> Tensor:
    """Return a broadcast view of ``t`` with ``shape`` (stride 0 on broadcast dims; not recorded).

    Example:
        >>> broadcast_view(gt.ones(3), (2, 3), "add").stride()
        (0, 1)
    """
    if t.shape == shape:
        return t
    check(len(shape) >= t.ndim, op, lambda: f"cannot broadcast shape {t.shape} to {shape}")
    lead = len(shape) - t.ndim
    strides = [0] * lead
    for i, (n, s) in enumerate(zip(t.shape, t._strides, strict=True)):
        target = shape[lead + i]
        if n == target:
            strides.append(s)
        else:
            check(n == 1, op, lambda: f"cannot broadcast shape {t.shape} to {shape}")
            strides.append(0)
    return t._make_view(shape, tuple(strides), t._offset)


def _copy_same_device(dst: Tensor, src: Tensor) -> None:
    if src._dtype.category == 3 and 0 < dst._dtype.category < 3:
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=4)
    trace = tracing.state.trace
    if trace is not None:
        trace.elementwise("cast", (src,), dst._dtype, dst._dtype, out=dst)
        return
    launch("copy", dst.device, (src.dtype, dst.dtype), src._native(), dst._native())


def _to_device_contiguous(src: Tensor, dev: device) -> Tensor:
    """Contiguous copy of ``src`` on ``dev`` (bytes cross the bus once)."""
    src = src.contiguous()
    out = TensorBase.empty(src.shape, src.dtype, dev)
    stream = None
    if dev.type == "cuda" or src.device.type == "cuda":
        stream = current_stream(dev if dev.type == "cuda" else src.device)
    out._storage.copy_from(src._storage, 0, src._offset * src.itemsize, src.nbytes, stream)
    return out


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` into ``self`` in place (broadcasting, converting dtype and device).

    When ``src`` shares memory with ``self`` without being exactly ``self``
    (``x[1:].copy_(x[:-1])``), it is read in full before anything is written,
    as in PyTorch.

    Args:
        src: the values; broadcastable to ``self.shape``; any device and dtype.
        non_blocking: accepted for PyTorch compatibility.

    Returns:
        ``self``.

    Raises:
        GTensorError: ``self`` is read-only (it wraps read-only memory).

    Example:
        >>> x = gt.zeros(2, 3)
        >>> x.copy_(gt.tensor([1.0, 2.0, 3.0])).tolist()
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    """
    self._check_writable("copy_")
    if not isinstance(src, TensorBase):
        src = as_tensor(src, dtype=self.dtype, device=self.device)
    broadcast_shapes(src.shape, self.shape, op="copy_")
    grad = needs_grad(self, src)
    if grad:
        check_inplace(self, "copy_")
    values = broadcast_view(unaliased(self, src), self.shape, "copy_")
    if values.device != self.device:
        values = _to_device_contiguous(values, self.device)
    if self.numel():
        _copy_same_device(self, values)
    self._bump_version()
    if grad:
        record_write(self, src)
    return self


def write_out(result: Tensor, out: Tensor | None, op: str) -> Tensor:
    """``result``, or ``out`` holding it when an ``out=`` tensor was given.

    ``out`` must have the result's shape and a dtype category (bool, integer,
    float, complex) at least as wide; it cannot take part in autograd.

    Example:
        >>> o = gt.empty(2)
        >>> write_out(gt.ones(2), o, "ones") is o
        True
    """
    if out is None:
        return result
    check(not needs_grad(result), op, "out=... arguments don't support automatic "
          "differentiation", GTensorError)
    check(out.shape == result.shape, op, lambda: f"out has shape {out.shape} but the result "
          f"has shape {result.shape}", ShapeError)
    check(result.dtype.category <= out.dtype.category, op, lambda: f"result type "
          f"{result.dtype.name} can't be cast to the desired output type {out.dtype.name}",
          DTypeError)
    return copy_(out, result)


def contiguous(self: Tensor) -> Tensor:
    """Return ``self`` if it is C-contiguous, else a contiguous copy.

    Example:
        >>> gt.ones(2, 3).T.contiguous().is_contiguous()
        True
    """
    if self.is_contiguous():
        return self
    return clone(self)


def clone(self: Tensor) -> Tensor:
    """Return a contiguous copy with its own storage.

    Example:
        >>> x = gt.ones(2, 3).T
        >>> y = x.clone()
        >>> y.is_contiguous(), y.data_ptr() != x.data_ptr(), y.tolist() == x.tolist()
        (True, True, True)
    """
    out = TensorBase.empty(self.shape, self.dtype, self.device)
    if self.numel():
        _copy_same_device(out, self)
    record("clone", out, (self,), _pass_through)
    return out


def _pass_through(ctx: object, g: Tensor) -> Tensor:
    """VJP of value-preserving ops: the engine casts and moves ``g`` back to the input."""
    return g


def _parse_to_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    dev, dt = kwargs.pop("device", None), kwargs.pop("dtype", None)
    for a in args:
        if isinstance(a, TensorBase):
            dev, dt = a.device, a.dtype
        elif isinstance(a, (device, str)) and not _is_dtype_name(a):
            dev = a
        else:
            dt = a
    return dev, dt


def _is_dtype_name(a: Any) -> bool:
    if not isinstance(a, str):
        return False
    try:
        as_dtype(a)
    except TypeError:
        return False
    return True


def to(self: Tensor, *args: Any, copy: bool = False, non_blocking: bool = False,
       **kwargs: Any) -> Tensor:
    """Return the tensor on another device and/or dtype (``self`` when nothing changes).

    Args:
        *args: a device, a dtype, both, or another tensor to match.
        copy: always return a new tensor.
        non_blocking: accepted for PyTorch compatibility.
        **kwargs: ``device=`` and ``dtype=``.

    Example:
        >>> y = gt.ones(2).to("cuda", gt.float64)
        >>> y.device.type, y.dtype
        ('cuda', gtensor.float64)
    """
    dev_spec, dt_spec = _parse_to_args(args, dict(kwargs))
    unknown = set(kwargs) - {"device", "dtype"}
    check(not unknown, "to", lambda: f"unexpected keyword arguments {sorted(unknown)}", TypeError)
    dev = self.device if dev_spec is None else resolve(dev_spec, "to")
    dt: dtype = self.dtype if dt_spec is None else as_dtype(dt_spec)
    if dev == self.device and dt is self.dtype and not copy:
        return self
    out = self
    if dev != self.device:
        out = _to_device_contiguous(self, dev)
    if dt is not out.dtype and tracing.state.trace is not None:
        out = tracing.state.trace.elementwise("cast", (out,), dt, dt)
    elif dt is not out.dtype:
        converted = TensorBase.empty(out.shape, dt, dev)
        if out.numel():
            _copy_same_device(converted, out)
        out = converted
    elif out is self:
        return clone(self)
    record("to", out, (self,), _pass_through)
    return out


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """``self`` with ``other``'s dtype and device, as ``self.type(other.type())`` (``self``
    itself when it already has them).

    Example:
        >>> gt.tensor([1, 2]).type_as(gt.zeros(1)).dtype
        gtensor.float32
    """
    check(isinstance(other, TensorBase), "type_as", lambda: f"expected a tensor, got "
          f"{type(other).__name__}", TypeError)
    return to(self, other)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input``'s dtype is a real floating point type.

    Example:
        >>> gt.is_floating_point(gt.zeros(1))
        True
    """
    check(isinstance(input, TensorBase), "is_floating_point", lambda: f"expected a tensor, got "
          f"{type(input).__name__}", TypeError)
    return input.dtype.is_floating_point


def cpu(self: Tensor) -> Tensor:
    """Return a copy on the cpu (``self`` when already there)."""
    return to(self, "cpu")


def cuda(self: Tensor, device: DeviceLike | int | None = None) -> Tensor:
    """Return a copy on a CUDA device (the current one by default)."""
    if isinstance(device, int):
        device = f"cuda:{device}"
    return to(self, "cuda" if device is None else device)

