"""Zero-copy exchange with NumPy, CuPy, PyTorch and Numba (DLPack and the CUDA array interface)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..cuda import current_stream, runtime
from ..device import device, resolve
from ..dtypes import as_dtype
from ..errors import check
from ..storage import Storage
from ..tensor_base import TensorBase, contiguous_strides, from_numpy, from_storage

if TYPE_CHECKING:
    from ..tensor import Tensor

_DL_CPU, _DL_CUDA = 1, 2


def __dlpack_device__(self: Tensor) -> tuple[int, int]:  # noqa: N807
    """Return the DLPack device tuple: ``(1, 0)`` for cpu, ``(2, index)`` for CUDA.

    On the simulated CUDA device the memory is host memory, so it is exported as cpu.
    """
    if self.is_cuda and self._storage.host is None:
        return _DL_CUDA, self.device.index or 0
    return _DL_CPU, 0


def __dlpack__(self: Tensor, *, stream: Any = None, max_version: Any = None,  # noqa: N807
               dl_device: Any = None, copy: bool | None = None) -> Any:
    """Export this tensor as a DLPack capsule (zero-copy).

    Args:
        stream: the consumer's CUDA stream (DLPack convention: None or 1 for the legacy
            default stream, 2 for the per-thread one, -1 for no synchronization); work
            queued on gtensor's current stream before the export is ordered before it.
        max_version: the newest DLPack version the consumer reads.
        dl_device: the DLPack device the consumer wants the data on: this tensor's own
            (``__dlpack_device__()``), or ``(1, 0)`` (cpu) for a copy of a GPU tensor.
        copy: True exports a copy; False refuses (``BufferError``) where one is needed.

    Example:
        >>> import numpy as np
        >>> np.from_dlpack(gt.arange(3)).tolist()
        [0, 1, 2]
    """
    check(not self.requires_grad, "__dlpack__",
          "can't export a tensor that requires grad; use .detach()", RuntimeError)
    kwargs: dict[str, Any] = {}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if dl_device is not None and tuple(dl_device) != __dlpack_device__(self):
        check(tuple(dl_device) == (_DL_CPU, 0), "__dlpack__", lambda: f"can't export a "
              f"{self.device} tensor to DLPack device {tuple(dl_device)}", BufferError)
        check(copy is not False, "__dlpack__", lambda: f"copy=False, but a {self.device} "
              "tensor must be copied to reach the cpu", BufferError)
        return self.cpu().numpy().__dlpack__(**kwargs)
    if copy is not None:
        kwargs["copy"] = copy
    if self._storage.host is not None:
        return self._native().__dlpack__(**kwargs)  # host memory, simulated CUDA too
    cp = runtime.cupy()
    with cp.cuda.Device(self.device.index or 0), \
            cp.cuda.ExternalStream(current_stream(self.device).handle):
        arr = cp.asarray(_CaiHolder(self))
        return arr.__dlpack__(stream=stream, **kwargs)


class _CaiHolder:
    def __init__(self, t: Tensor) -> None:
        self._t = t
        self.__cuda_array_interface__ = t._cai(None)


def from_cuda_array_interface(obj: Any) -> Tensor:
    """Wrap an object exposing ``__cuda_array_interface__`` as a CUDA tensor, without copying.

    Memory the interface marks read-only gives a read-only tensor (writes raise). When
    the interface names the producer's stream, gtensor's current stream waits for the
    work queued on it so far (version 3 of the protocol), without blocking the host.

    Example:
        >>> src = gt.arange(3, device="cuda")  # any producer: CuPy, Numba, PyTorch
        >>> t = from_cuda_array_interface(src)
        >>> t.tolist(), t.data_ptr() == src.data_ptr()
        ([0, 1, 2], True)
    """
    runtime.ensure_initialized("from_cuda_array_interface")
    desc = obj.__cuda_array_interface__
    dt = as_dtype(np.dtype(desc["typestr"]))
    shape = tuple(desc["shape"])
    item = dt.itemsize
    strides = desc.get("strides")
    strides = tuple(s // item for s in strides) if strides else contiguous_strides(shape)
    if runtime.is_simulated():
        dev = resolve(device("cuda", runtime.current_device()), "from_cuda_array_interface")
    else:
        dev = resolve(device("cuda", _pointer_device(desc["data"][0])),
                      "from_cuda_array_interface")
        _wait_for_producer(desc.get("stream"), dev)
    # simulated device memory is host memory, addressable through NumPy
    storage, offset = Storage.wrap(desc["data"][0], shape, strides, item, dev, obj,
                                   host=runtime.is_simulated(), readonly=bool(desc["data"][1]))
    return from_storage(storage, shape, strides, offset, dt)


def from_dlpack(obj: Any) -> Tensor:
    """Wrap a DLPack producer (NumPy, CuPy, PyTorch, gtensor) as a tensor, without copying.

    Example:
        >>> import numpy as np
        >>> from_dlpack(np.arange(3.0)).tolist()
        [0.0, 1.0, 2.0]
    """
    if isinstance(obj, TensorBase):
        return obj.detach()
    check(hasattr(obj, "__dlpack_device__"), "from_dlpack",
          lambda: f"{type(obj).__name__} does not implement the DLPack protocol", TypeError)
    dev_type, _ = obj.__dlpack_device__()
    if dev_type == _DL_CPU:
        return from_numpy(np.from_dlpack(obj))
    check(dev_type == _DL_CUDA, "from_dlpack",
          lambda: f"unsupported DLPack device type {dev_type}", RuntimeError)
    cp = runtime.cupy()
    # CuPy passes its current stream to the producer's __dlpack__: make it gtensor's
    with cp.cuda.ExternalStream(current_stream().handle):
        return from_cuda_array_interface(cp.from_dlpack(obj))


def _pointer_device(ptr: int) -> int:
    """The ordinal of the GPU that owns device pointer ``ptr`` (the current one for null)."""
    if not ptr:
        return runtime.current_device()
    attrs = runtime.cupy().cuda.runtime.pointerGetAttributes(ptr)
    return int(attrs.device)


def _wait_for_producer(stream_ptr: int | None, dev: device) -> None:
    """Order gtensor's current stream on ``dev`` after the producer's stream ``stream_ptr``."""
    ours = current_stream(dev)
    legacy = (0, 1)  # 0: the null stream, 1: the protocol's name for the legacy default
    if stream_ptr is None or stream_ptr == ours.handle or (stream_ptr in legacy
                                                           and ours.handle in legacy):
        return
    cp = runtime.cupy()
    with cp.cuda.Device(dev.index or 0):
        event = cp.cuda.Event(disable_timing=True)
        event.record(cp.cuda.ExternalStream(int(stream_ptr)))
        cp.cuda.ExternalStream(ours.handle).wait_event(event)

