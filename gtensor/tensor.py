"""Tensor: storage + shape + strides + storage offset + dtype + device.

This module holds the metadata and the conversions to raw buffers. Ops live
in :mod:`gtensor.ops` and attach themselves as methods with
:func:`tensor_method`, so adding an op never edits this file.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .device import device
from .dtypes import dtype
from .errors import DeviceMismatchError, DTypeError, GTensorError, ShapeError, check
from .shape_rules import wrap_dim
from .storage import Storage, cuda_array_interface, host_view


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Return C-order strides (in elements) for ``shape``.

    Example:
        >>> contiguous_strides((2, 3, 4))
        (12, 4, 1)
    """
    strides = []
    acc = 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


class Tensor:
    """An n-dimensional array on a device, with autograd metadata.

    Make tensors with :func:`gtensor.tensor`, :func:`gtensor.zeros` and friends.

    Example:
        >>> import gtensor as gt
        >>> x = gt.tensor([[1.0, 2.0]])
        >>> x.shape, x.dtype, x.device
        ((1, 2), gtensor.float32, device(type='cpu'))
    """

    __slots__ = ("_storage", "_shape", "_strides", "_offset", "_dtype", "_requires_grad",
                 "_grad", "grad_fn", "_base", "_retains_grad", "_post_acc_hooks",
                 "_backward_hooks", "_output_nr", "_grad_accumulator", "_view_version",
                 "_native_cache",
                 "__weakref__")

    def __init__(self, storage: Storage, shape: tuple[int, ...], strides: tuple[int, ...],
                 offset: int, dt: dtype, requires_grad: bool = False,
                 base: Tensor | None = None) -> None:
        self._storage = storage
        self._shape = shape
        self._strides = strides
        self._offset = offset
        self._dtype = dt
        self._requires_grad = requires_grad
        self._grad: Tensor | None = None
        self.grad_fn: Any = None
        self._base = base
        self._retains_grad = False
        self._post_acc_hooks: list[Callable] | None = None
        self._backward_hooks: list[Callable] | None = None
        self._output_nr = 0
        self._grad_accumulator: Any = None
        self._view_version = storage.version
        self._native_cache: Any = None

    # -- construction helpers ------------------------------------------------------------
    @classmethod
    def empty(cls, shape: tuple[int, ...], dt: dtype, dev: device) -> Tensor:
        """Allocate an uninitialised contiguous tensor (prefer :func:`gtensor.empty`)."""
        numel = math.prod(shape)
        storage = Storage.allocate(numel * dt.itemsize, dev)
        return cls(storage, shape, contiguous_strides(shape), 0, dt)

    def _make_view(self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> Tensor:
        base = self if self._base is None else self._base
        return Tensor(self._storage, tuple(shape), tuple(strides), offset, self._dtype,
                      base=base)

    # -- metadata --------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's size in each dimension."""
        return self._shape

    def size(self, dim: int | None = None) -> tuple[int, ...] | int:
        """Return the shape, or the size of one dimension."""
        if dim is None:
            return self._shape
        return self._shape[self._wrap_dim(dim, "size")]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self._shape)

    def dim(self) -> int:
        """Number of dimensions."""
        return len(self._shape)

    def numel(self) -> int:
        """Number of elements."""
        return math.prod(self._shape)

    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """Return the strides (in elements), or the stride of one dimension."""
        if dim is None:
            return self._strides
        return self._strides[self._wrap_dim(dim, "stride")]

    def storage_offset(self) -> int:
        """Offset of the first element in the storage, in elements."""
        return self._offset

    def is_contiguous(self) -> bool:
        """True when the elements are laid out in C order without gaps."""
        expected = 1
        for n, s in zip(reversed(self._shape), reversed(self._strides), strict=True):
            if n == 0:
                return True
            if n != 1 and s != expected:
                return False
            expected *= n
        return True

    def data_ptr(self) -> int:
        """Address of the first element."""
        return self._storage.ptr + self._offset * self._dtype.itemsize

    def element_size(self) -> int:
        """Bytes per element."""
        return self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes spanned by the elements (``numel() * element_size()``)."""
        return self.numel() * self._dtype.itemsize

    @property
    def dtype(self) -> dtype:
        """The element type."""
        return self._dtype

    @property
    def device(self) -> device:
        """Where the memory lives."""
        return self._storage.device

    @property
    def is_cuda(self) -> bool:
        """True for tensors on a CUDA device."""
        return self._storage.device.type == "cuda"

    @property
    def _version(self) -> int:
        return self._storage.version

    def _bump_version(self) -> None:
        self._storage.version += 1

    @property
    def requires_grad(self) -> bool:
        """Whether gradients flow to this tensor."""
        if self._base is not None and self._view_version != self._storage.version:
            from .autograd.inplace import refresh_view

            refresh_view(self)
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place on a leaf and return ``self``."""
        check(self.grad_fn is None or requires_grad, "requires_grad_",
              "can only change requires_grad of leaf tensors")
        check(not requires_grad or self._dtype.is_floating_point, "requires_grad_",
              lambda: f"only floating point tensors can require gradients, got {self._dtype.name}")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient: None until a backward pass reaches this tensor.

        An assigned value must be None or a tensor of this tensor's shape,
        dtype and device, as in PyTorch.
        """
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            check(isinstance(value, Tensor), "grad", lambda: "assigned grad expected to be a "
                  f"Tensor or None, got {type(value).__name__}", TypeError)
            check(value._shape == self._shape, "grad", lambda: "assigned grad has data of a "
                  f"different size: {value._shape}, expected {self._shape}", ShapeError)
            check(value._dtype is self._dtype, "grad", lambda: "assigned grad has data of a "
                  f"different type: {value._dtype.name}, expected {self._dtype.name}", DTypeError)
            check(value._storage.device == self._storage.device, "grad", lambda: "assigned grad "
                  f"has data located on a different device: {value.device}, expected "
                  f"{self.device}", DeviceMismatchError)
        self._grad = value

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded op."""
        return self.grad_fn is None

    def _wrap_dim(self, dim: int, op: str) -> int:
        return wrap_dim(dim, self.ndim, op)

    def record_stream(self, stream: Any) -> None:
        """Keep this tensor's memory from reuse until work queued on ``stream`` so far is done.

        Example:
            >>> x.record_stream(gt.cuda.Stream())  # doctest: +SKIP
        """
        if self._storage.block is not None:
            from . import memory

            memory.record_stream(self._storage.block, stream)

    # -- raw buffers -----------------------------------------------------------------------
    def _native(self) -> Any:
        """Return the backend's array for this view: NumPy on host memory, Numba on a GPU.

        The array holds this tensor's storage alive, so the native array of a
        temporary (``t.contiguous()._native()``) stays valid while a kernel uses it.
        """
        cached = self._native_cache
        if cached is not None:
            return cached
        s = self._storage
        if s.host is not None:
            arr = host_view(s, self._dtype.numpy, self._shape, self._strides, self._offset)
        else:
            from .cuda import runtime

            arr = runtime.numba_cuda().from_cuda_array_interface(self._cai(None), owner=s,
                                                                 sync=False)
        self._native_cache = arr
        return arr

    def _check_writable(self, op: str) -> None:
        """Raise before ``op`` writes into a tensor over read-only memory."""
        if self._storage.readonly:
            raise GTensorError(f"[{op}] cannot write into a read-only tensor (it wraps read-only "
                               "memory such as bytes or a read-only memory map); clone() it "
                               "first")

    def _set_data(self, new: Tensor) -> None:
        """Point this tensor at ``new``'s storage and layout (``Module.to`` moves parameters)."""
        self._storage = new._storage
        self._shape = new._shape
        self._strides = new._strides
        self._offset = new._offset
        self._dtype = new._dtype
        self._base = None
        self._view_version = new._storage.version
        self._native_cache = None

    def _cai(self, stream_handle: int | None) -> dict[str, Any]:
        return cuda_array_interface(self._storage, self._dtype.numpy.str, self._shape,
                                    self._strides, self._offset, self._dtype.itemsize,
                                    stream_handle)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """CUDA array interface (v3) of a CUDA tensor, zero-copy for CuPy, Numba and PyTorch."""
        if not self.is_cuda:
            raise AttributeError("[__cuda_array_interface__] only CUDA tensors expose it; "
                                 "this tensor is on cpu")
        from .cuda import current_stream

        handle = current_stream(self.device).handle
        return self._cai(1 if handle == 0 else handle)

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """Return a NumPy array sharing memory with this CPU tensor.

        Args:
            force: copy a CUDA tensor to the host (and detach) instead of raising.
        """
        if self.is_cuda:
            check(force, "numpy", lambda: f"can't convert a {self.device} tensor to NumPy; "
                  "use .cpu() first (or numpy(force=True))", TypeError)
            return self.detach().cpu().numpy()
        check(not self._requires_grad or force, "numpy",
              "can't call numpy() on a tensor that requires grad; use .detach().numpy()",
              RuntimeError)
        return host_view(self._storage, self._dtype.numpy, self._shape, self._strides,
                         self._offset)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        arr = self.detach().cpu().numpy()
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        return arr.copy() if copy else arr

    def item(self) -> bool | int | float:
        """Return the value of a one-element tensor as a Python number."""
        check(self.numel() == 1, "item", lambda: "a Tensor with "
              f"{self.numel()} elements cannot be converted to Scalar", RuntimeError)
        return self.detach().cpu().numpy().reshape(()).item()

    def tolist(self) -> Any:
        """Return the elements as (nested) Python lists."""
        return self.detach().cpu().numpy().tolist()

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("[len] len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if not self._shape:
            raise TypeError("[iter] iteration over a 0-d tensor")
        return iter(self.unbind(0))  # type: ignore[attr-defined]

    def __bool__(self) -> bool:
        check(self.numel() == 1, "bool", lambda: f"Boolean value of Tensor with {self.numel()} "
              "elements is ambiguous", RuntimeError)
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        check(not self._dtype.is_floating_point and self.numel() == 1, "index",
              "only integer tensors of a single element can be converted to an index", TypeError)
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from .printing import tensor_repr

        return tensor_repr(self)


def tensor_method(name: str | None = None, *aliases: str) -> Callable[[Callable], Callable]:
    """Attach the decorated function to :class:`Tensor` as a method (and as ``aliases``).

    Example:
        >>> @tensor_method("double")
        ... def double(self): return self + self
    """

    def decorate(fn: Callable) -> Callable:
        for n in (name or fn.__name__, *aliases):
            setattr(Tensor, n, fn)
        return fn

    return decorate


def tensor_property(name: str) -> Callable[[Callable], Callable]:
    """Attach the decorated function to :class:`Tensor` as a read-only property."""

    def decorate(fn: Callable) -> Callable:
        setattr(Tensor, name, property(fn))
        return fn

    return decorate
