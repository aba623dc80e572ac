"""Storage: a refcounted run of device bytes shared by a tensor and all its views.

Memory comes from :mod:`gtensor.memory` (the caching allocator) or wraps a
foreign buffer without copying (``from_numpy``, DLPack, CUDA array interface).
The storage layer is also where bytes cross between host and device, so it
counts those transfers (:func:`transfer_count`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import memory
from .cuda import runtime
from .cuda.device_errors import raise_pending
from .device import CPU, check_device_index, device, resolve
from .kernels.common import transfers
from .kernels.common.strided import is_c_contiguous, span
from .memory.streams import current_stream_handle


def transfer_count() -> dict[str, int]:
    """Return how many host<->device copies the storage layer has made so far.

    Example:
        >>> sorted(transfer_count())
        ['device_to_host', 'host_to_device']
    """
    return transfers.counts()


class Storage:
    """Device bytes plus the version counter shared by every view of them.

    Use :meth:`allocate` or :meth:`wrap` rather than
    the constructor.

    Example:
        >>> s = Storage.allocate(64, CPU)
        >>> s.nbytes
        64
    """

    __slots__ = ("device", "nbytes", "ptr", "host", "block", "owner", "version", "readonly",
                 "_flat", "__weakref__")

    def __init__(self, device: device, nbytes: int, ptr: int, host: np.ndarray | None,
                 block: Any = None, owner: Any = None, readonly: bool = False) -> None:
        self.device = device
        self.nbytes = nbytes
        self.ptr = ptr
        self.host = host  # uint8 view of the bytes when they are host-addressable
        self.block = block
        self.owner = owner  # keeps a foreign buffer alive
        self.version = 0
        self.readonly = readonly  # foreign memory that must not be written (bytes, mmap 'r')
        self._flat: Any = None

    @classmethod
    def allocate(cls, nbytes: int, dev: device, stream: Any = None) -> Storage:
        """Allocate ``nbytes`` on ``dev`` through the caching allocator.

        ``stream``: the stream the memory is used on (default: ``dev``'s current one).
        """
        route = dev._route
        if route is None:
            route = _route(dev)
        if stream is not None:
            handle = stream.handle
        elif route[1]:
            handle = 0
        else:
            handle = current_stream_handle(dev)
        block = route[0].allocate(nbytes, handle)
        # written out rather than through __init__: every op's result is made here
        self = _new(cls)
        self.device = dev
        self.nbytes = nbytes
        self.ptr = block.ptr
        self.host = block.host
        self.block = block
        self.owner = None
        self.version = 0
        self.readonly = False
        self._flat = None
        return self

    def flat(self, dtype: np.dtype) -> Any:
        """Return all of this storage as one 1-D array of ``dtype`` (cached for the last dtype).

        Kernels take this buffer plus element offsets and strides, so a tensor
        needs no array object of its own shape per call. On the host (and the
        simulated device) it is a NumPy view of the bytes; on a GPU a Numba
        device array. The array does not reference the storage: callers keep
        the tensor alive while a kernel reads it, as for any raw pointer.

        Example:
            >>> Storage.allocate(16, CPU).flat(np.dtype("float32")).shape
            (4,)
        """
        cached = self._flat
        if cached is not None and cached.dtype is dtype:
            return cached
        block = self.block
        if block is not None:  # the last storage over this block may have made it already
            cached = block.flat
            if cached is not None and cached.dtype is dtype:
                self._flat = cached
                return cached
        count = self.nbytes // dtype.itemsize
        host = self.host
        if host is not None and (not self.readonly or self.device.type == "cpu"):
            arr = host[: count * dtype.itemsize].view(dtype)
        elif host is not None:  # the CUDA simulator writes every array argument back
            arr = np.asarray(_ArrayInterface(host, {
                "shape": (count,), "typestr": interface_typestr(dtype), "version": 3,
                "data": (self.ptr, False)})).view(dtype) if count else np.empty(0, dtype)
        else:
            arr = runtime.numba_cuda().from_cuda_array_interface({
                "shape": (count,), "strides": None, "typestr": interface_typestr(dtype),
                "version": 3,
                "data": (self.ptr if count else 0, False), "stream": None}, owner=None,
                sync=False)
        self._flat = arr
        if block is not None:
            block.flat = arr
        return arr

    def __deepcopy__(self, memo: dict[int, Any]) -> Storage:
        """A new storage of this one's bytes on its device (``copy.deepcopy``, once per storage
        within one deep copy, so views copied together keep sharing)."""
        twin = Storage.allocate(self.nbytes, self.device)
        twin.copy_from(self, 0, 0, self.nbytes)
        return twin

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the bytes (read to the host) and the device (rebuilt by :func:`restore`)."""
        host = Storage.allocate(self.nbytes, CPU)
        host.copy_from(self, 0, 0, self.nbytes)
        return restore, (host.host.copy(), str(self.device))

    def __del__(self) -> None:
        # cheaper than weakref.finalize; the allocator defers frees that arrive re-entrantly
        block = self.block
        if block is not None:
            self.block = None
            try:
                block.segment.owner.recycle(block)  # the allocator that made it
            except Exception:  # interpreter shutdown: the allocator may already be gone
                pass

    @classmethod
    def wrap(cls, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int,
             dev: device, owner: Any, host: bool, readonly: bool = False) -> tuple[Storage, int]:
        """Wrap foreign memory holding a strided view, without copying.

        Args:
            ptr: address of the view's first element.
            shape: the view's shape.
            strides: its strides in elements (any sign).
            itemsize: bytes per element.
            dev: the device the memory belongs to.
            owner: object kept alive while the storage lives.
            host: whether the memory is host-addressable (cpu, simulated cuda).
            readonly: the memory must not be written; tensors over it refuse writes.

        Returns:
            The storage and the first element's offset in it, in elements.

        Example:
            >>> a = np.zeros(3)
            >>> s, off = Storage.wrap(a.ctypes.data, (3,), (1,), 8, CPU, a, True)
            >>> s.nbytes, off
            (24, 0)
        """
        lo, hi = span(shape, strides)
        nbytes = 0 if 0 in shape else (hi - lo + 1) * itemsize
        start = ptr + lo * itemsize
        raw = None
        if host:
            raw = np.asarray(_ArrayInterface(owner, {
                "shape": (nbytes,), "typestr": "|u1", "data": (start, readonly), "version": 3,
            })) if nbytes else np.empty(0, np.uint8)
        return cls(dev, nbytes, start, raw, owner=owner, readonly=readonly), -lo

    def copy_from(self, src: Storage, dst_offset: int, src_offset: int, nbytes: int,
                  stream: Any = None) -> None:
        """Copy ``nbytes`` from ``src`` (any device) into this storage, byte offsets given.

        Example:
            >>> a, b = Storage.allocate(8, CPU), Storage.allocate(8, CPU)
            >>> a.copy_from(b, 0, 0, 8)
        """
        if nbytes == 0:
            return
        crossing = self.device.type != src.device.type
        if crossing:
            transfers.count("host_to_device" if src.device.type == "cpu" else "device_to_host")
        if self.host is not None and src.host is not None:
            self.host[dst_offset:dst_offset + nbytes] = src.host[src_offset:src_offset + nbytes]
        else:
            cp = runtime.cupy()
            handle = 0 if stream is None else stream.handle
            cp.cuda.runtime.memcpyAsync(self.ptr + dst_offset, src.ptr + src_offset, nbytes,
                                        cp.cuda.runtime.memcpyDefault, handle)
            if crossing:
                cp.cuda.runtime.streamSynchronize(handle)
        if crossing:
            raise_pending()  # the host waited for the device: errors kernels recorded surface


_new = object.__new__


def restore(data: np.ndarray, where: str) -> Storage:
    """The storage a pickled one stands for: ``data``'s bytes on device ``where``.

    Example:
        >>> restore(np.arange(4, dtype=np.uint8), "cpu").nbytes
        4
    """
    dev = resolve(where, "restore")
    out = Storage.allocate(data.nbytes, dev)
    source = Storage.allocate(data.nbytes, CPU)
    if data.nbytes:
        source.host[:] = data.view(np.uint8).reshape(-1)
    out.copy_from(source, 0, 0, data.nbytes)
    return out


def _route(dev: device) -> tuple[Any, bool]:
    """Check ``dev`` once and remember ``(its allocator, is_cpu)`` on the device object."""
    if dev.type == "cuda":
        runtime.ensure_initialized("allocate")
        check_device_index(dev, "allocate")
    route = dev._route = (memory.allocator_for(dev), dev == CPU)
    return route


class _ArrayInterface:
    """An ``__array_interface__`` whose NumPy arrays hold ``owner`` alive through their base."""

    __slots__ = ("_owner", "__array_interface__")

    def __init__(self, owner: Any, interface: dict[str, Any]) -> None:
        self._owner = owner
        self.__array_interface__ = interface


_TYPESTR: dict[np.dtype, str] = {}


def host_view(storage: Storage, dtype: np.dtype, shape: tuple[int, ...],
              strides: tuple[int, ...], offset: int) -> np.ndarray:
    """Return a NumPy array over host-addressable ``storage`` that holds the storage alive.

    The array's base references ``storage`` (and nothing references the array
    back), so the memory cannot return to the allocator while a kernel or a user
    still holds the array, and no reference cycle delays the free. The array
    is read-only when the storage is (on the cpu).

    Args:
        storage: the storage (its ``host`` must not be None).
        dtype: NumPy element type.
        shape: array shape.
        strides: strides in elements.
        offset: storage offset in elements.

    Example:
        >>> s = Storage.allocate(16, CPU)
        >>> host_view(s, np.dtype("float32"), (2, 2), (2, 1), 0).shape
        (2, 2)
    """
    if 0 in shape:
        return np.empty(shape, dtype)
    itemsize = dtype.itemsize
    # the CUDA simulator writes every array argument back after a kernel, even inputs
    readonly = storage.readonly and storage.device.type == "cpu"
    typestr = _TYPESTR.get(dtype)
    if typestr is None:  # ``dtype.str`` builds a new string on every access
        typestr = _TYPESTR[dtype] = interface_typestr(dtype)
    arr = np.asarray(_ArrayInterface(storage, {
        "shape": shape, "typestr": typestr, "version": 3,
        "data": (storage.ptr + offset * itemsize, readonly),
        "strides": tuple([s * itemsize for s in strides]),
    }))
    return arr if arr.dtype is dtype else arr.view(dtype)


def interface_typestr(dtype: np.dtype) -> str:
    """The array-interface type string of ``dtype``; an unsigned integer of its width for
    element types the interface cannot name (``bfloat16``), viewed back as ``dtype`` after.

    Example:
        >>> interface_typestr(np.dtype("float32"))
        '<f4'
    """
    return f"<u{dtype.itemsize}" if dtype.kind == "V" else dtype.str


def cuda_array_interface(storage: Storage, typestr: str, shape: tuple[int, ...],
                         strides: tuple[int, ...], offset: int, itemsize: int,
                         stream_handle: int | None) -> dict[str, Any]:
    """Return a ``__cuda_array_interface__`` (v3) dict for a strided view of ``storage``."""
    contiguous = is_c_contiguous(shape, strides)
    return {
        "shape": tuple(shape),
        "strides": None if contiguous else tuple(s * itemsize for s in strides),
        "typestr": typestr,
        "data": (storage.ptr + offset * itemsize if storage.nbytes else 0, False),
        "version": 3,
        "stream": stream_handle,
    }
