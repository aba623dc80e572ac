"""TensorBase: storage + shape + strides + storage offset + dtype + device.

The core of every tensor: its metadata, its autograd fields, and the
conversions to raw buffers. It sits below :mod:`gtensor.ops`; the public
:class:`gtensor.Tensor`, which declares the op API, subclasses it above them.
Ops check ``isinstance(x, TensorBase)`` and the core constructs every new
tensor as an instance of the class :mod:`gtensor.tensor` registers with
:func:`register_tensor_class`, as PyTorch's C++ core wraps its results in the
Python class that ``torch/_tensor.py`` registers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from . import memory
from .cuda import current_stream, runtime
from .device import CPU, device
from .dtypes import as_dtype, dtype
from .errors import DeviceMismatchError, DTypeError, GTensorError, ShapeError, check
from .shape_rules import wrap_sized_dim
from .storage import Storage, cuda_array_interface, host_view, interface_typestr
from .trace_state import state as _tracing

if TYPE_CHECKING:
    from .tensor import Tensor

_tensor_class: type[Tensor]  # the public class, set once by register_tensor_class
_T = TypeVar("_T", bound="TensorBase")


def register_tensor_class(cls: type[Tensor]) -> None:
    """Make ``cls`` the class of every tensor the core creates (``gtensor.tensor`` calls this).

    Example:
        >>> register_tensor_class(gt.Tensor)  # done once, when gtensor is imported
        >>> type(gt.ones(1)) is gt.Tensor
        True
    """
    global _tensor_class
    _tensor_class = cls


_layouts: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}  # shape -> (numel, strides)


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


def from_storage(storage: Storage, shape: tuple[int, ...], strides: tuple[int, ...],
                 offset: int, dt: dtype) -> Tensor:
    """Return a new tensor (no view base, no graph) over ``storage`` with this layout.

    Example:
        >>> x = gt.arange(4.0)
        >>> from_storage(x._storage, (2,), (2,), 1, x.dtype)  # x[1::2], with no view base
        tensor([1., 3.])
    """
    return _tensor_class(storage, shape, strides, offset, dt)


def planned_empty(nbytes: int, shape: tuple[int, ...], strides: tuple[int, ...], dt: dtype,
                  dev: device, stream: Any = None) -> Tensor:
    """A new uninitialised tensor whose layout a launch plan worked out (``nbytes`` included).

    :meth:`TensorBase.empty` without its per-call work: the caller has checked
    that ``gt.compile`` is not tracing and keeps the layout in its plan.

    Example:
        >>> planned_empty(8, (2,), (1,), gt.float32, gt.device("cpu")).shape
        (2,)
    """
    storage = Storage.allocate(nbytes, dev, stream)
    # the constructor's fields, written out: every planned op's result is made here
    t = _new(_tensor_class)
    t._storage = storage
    t._shape = shape
    t._strides = strides
    t._offset = 0
    t._ptr = storage.ptr
    t._dtype = dt
    t._requires_grad = False
    t._grad = None
    t.grad_fn = None
    t._base = None
    t._output_nr = 0
    t._view_version = 0
    t._native_cache = None
    return t


_new = object.__new__


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
        >>> import gtensor as gt, numpy as np
        >>> a = np.zeros(3); t = gt.from_numpy(a); a[0] = 1; t[0].item()
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
    return _tensor_class(storage, tuple(array.shape), strides, offset, dt)


class TensorBase:
    """An n-dimensional array on a device, with autograd metadata (the core of gtensor.Tensor).

    Example:
        >>> import gtensor as gt
        >>> x = gt.tensor([[1.0, 2.0]])
        >>> x.shape, x.dtype, x.device
        ((1, 2), gtensor.float32, device(type='cpu'))
    """

    __slots__ = ("_storage", "_shape", "_strides", "_offset", "_ptr", "_dtype", "_requires_grad",
                 "_grad", "grad_fn", "_base", "_output_nr", "_view_version", "_native_cache",
                 "__weakref__", "__dict__")

    # What few tensors ever set lives in the instance dict, made by the first assignment
    # (so every op's result is built with four stores fewer); until then these defaults.
    # The dict also takes user attributes, as a PyTorch tensor's does.
    _retains_grad = False
    _post_acc_hooks: list[Callable] | None = None
    _backward_hooks: list[Callable] | None = None
    _grad_accumulator: Any = None

    def __init__(self, storage: Storage, shape: tuple[int, ...], strides: tuple[int, ...],
                 offset: int, dt: dtype, requires_grad: bool = False,
                 base: TensorBase | None = None) -> None:
        self._storage = storage
        self._shape = shape
        self._strides = strides
        self._offset = offset
        ptr = storage.ptr  # None for a symbolic tensor (gt.compile)
        self._ptr = None if ptr is None else ptr + offset * dt.itemsize  # first element's address
        self._dtype = dt
        self._requires_grad = requires_grad
        self._grad: Tensor | None = None
        self.grad_fn: Any = None
        self._base = base
        self._output_nr = 0
        self._view_version = storage.version
        self._native_cache: Any = None

    # -- construction helpers ------------------------------------------------------------
    @staticmethod
    def empty(shape: tuple[int, ...], dt: dtype, dev: device, stream: Any = None) -> Tensor:
        """Allocate an uninitialised contiguous tensor (prefer :func:`gtensor.empty`).

        ``stream``: the stream it is used on, when the caller already looked it
        up (default: the device's current stream).
        """
        if _tracing.trace is not None:  # gt.compile is tracing: a value to be written
            return _tracing.trace.value_node("empty", shape, dt)
        layout = _layouts.get(shape)
        if layout is None:
            if len(_layouts) >= 4096:
                _layouts.clear()
            layout = _layouts[shape] = (math.prod(shape), contiguous_strides(shape))
        storage = Storage.allocate(layout[0] * dt.itemsize, dev, stream)
        return _tensor_class(storage, shape, layout[1], 0, dt)

    def _make_view(self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> Tensor:
        base = self if self._base is None else self._base
        return _tensor_class(self._storage, tuple(shape), tuple(strides), offset, self._dtype,
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

    def _wrap_dim(self, dim: int, op: str) -> int:
        return wrap_sized_dim(dim, self.ndim, op)

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("[len] len() of a 0-d tensor")
        return self._shape[0]

    def __hash__(self) -> int:
        return id(self)

    # -- autograd fields -------------------------------------------------------------------
    def requires_grad_(self: _T, requires_grad: bool = True) -> _T:
        """Set ``requires_grad`` in place on a leaf and return ``self``."""
        check(self.grad_fn is None or requires_grad, "requires_grad_",
              "can only change requires_grad of leaf tensors")
        check(not requires_grad or self._dtype.is_inexact, "requires_grad_",
              lambda: "only floating point and complex tensors can require gradients, got "
              f"{self._dtype.name}")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient: None until a backward pass reaches this tensor.

        An assigned value must be None or a tensor of this tensor's shape,
        dtype and device, as in PyTorch.
        """
        if _tracing.trace is not None:
            return _tracing.trace.read_grad(self)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            check(isinstance(value, TensorBase), "grad", lambda: "assigned grad expected to be "
                  f"a Tensor or None, got {type(value).__name__}", TypeError)
            check(value._shape == self._shape, "grad", lambda: "assigned grad has data of a "
                  f"different size: {value._shape}, expected {self._shape}", ShapeError)
            check(value._dtype is self._dtype, "grad", lambda: "assigned grad has data of a "
                  f"different type: {value._dtype.name}, expected {self._dtype.name}", DTypeError)
            check(value._storage.device == self._storage.device, "grad", lambda: "assigned grad "
                  f"has data located on a different device: {value.device}, expected "
                  f"{self.device}", DeviceMismatchError)
        if _tracing.trace is not None:
            _tracing.trace.write_grad(self, value)
        self._grad = value

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded op."""
        return self.grad_fn is None

    def detach(self) -> Tensor:
        """Return a tensor sharing this one's storage and layout, cut from the autograd graph."""
        return _tensor_class(self._storage, self._shape, self._strides, self._offset,
                             self._dtype)

    def detach_(self: _T) -> _T:
        """Cut this tensor from the autograd graph in place: it becomes a leaf without grad.

        Example:
            >>> y = gt.ones(2, requires_grad=True) * 2
            >>> y.detach_().requires_grad, y.is_leaf
            (False, True)
        """
        check(self._base is None, "detach_", "can't detach views in-place; use detach() instead")
        self.grad_fn = None
        self._requires_grad = False
        return self

    # -- memory and raw buffers ------------------------------------------------------------
    def record_stream(self, stream: Any) -> None:
        """Keep this tensor's memory from reuse until work queued on ``stream`` so far is done.

        Example:
            >>> x, s = gt.ones(2, device="cuda"), gt.cuda.Stream()
            >>> s.wait_stream(gt.cuda.current_stream())
            >>> with gt.cuda.stream(s):
            ...     y = x * 2
            >>> x.record_stream(s); del x  # its memory is reused only after s's work so far
            >>> s.synchronize(); y.tolist()
            [2.0, 2.0]
        """
        if self._storage.block is not None:
            memory.record_stream(self._storage.block, stream)

    def _native(self) -> Any:
        """Return the backend's array for this view: NumPy on host memory, Numba on a GPU.

        The array holds this tensor's storage alive, so the native array of a
        temporary (``t.contiguous()._native()``) stays valid while a kernel uses it.
        """
        if _tracing.trace is not None:
            _tracing.trace.refuse(self)
        cached = self._native_cache
        if cached is not None:
            return cached
        s = self._storage
        if s.host is not None:
            np_dt = self._dtype.numpy
            if np_dt.kind == "V" and s.device.type != "cpu":  # as on a GPU: bfloat16 as bits
                np_dt = self._dtype.kernel
            arr = host_view(s, np_dt, self._shape, self._strides, self._offset)
        else:
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

    def _set_data(self, new: TensorBase) -> None:
        """Point this tensor at ``new``'s storage and layout (``Module.to`` moves parameters)."""
        self._storage = new._storage
        self._shape = new._shape
        self._strides = new._strides
        self._offset = new._offset
        self._ptr = new._ptr
        self._dtype = new._dtype
        self._base = None
        self._view_version = new._storage.version
        self._native_cache = None

    def _cai(self, stream_handle: int | None) -> dict[str, Any]:
        # bfloat16 has no type string: kernels see its bits as uint16
        return cuda_array_interface(self._storage, interface_typestr(self._dtype.numpy),
                                    self._shape,
                                    self._strides, self._offset, self._dtype.itemsize,
                                    stream_handle)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """CUDA array interface (v3) of a CUDA tensor, zero-copy for CuPy, Numba and PyTorch."""
        if not self.is_cuda:
            raise AttributeError("[__cuda_array_interface__] only CUDA tensors expose it; "
                                 "this tensor is on cpu")
        if self._dtype.numpy.kind == "V":
            raise TypeError(f"[__cuda_array_interface__] {self._dtype.name} has no type string "
                            "in the CUDA array interface; use DLPack (__dlpack__)")
        handle = current_stream(self.device).handle
        return self._cai(1 if handle == 0 else handle)
