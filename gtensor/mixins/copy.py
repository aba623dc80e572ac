"""Methods that copy or move data: ``clone``, ``to``, ``cpu``, ``copy_``, ``fill_``, DLPack.

``detach`` copies nothing: it is :meth:`TensorBase.detach`.
"""

from __future__ import annotations

from ..ops import copy, creation, interop


class CopyMethods:
    """Copies across dtypes and devices, in-place fills, and the DLPack export protocol."""

    __slots__ = ()

    copy_ = copy.copy_
    contiguous = copy.contiguous
    clone = copy.clone
    to = copy.to
    cpu = copy.cpu
    cuda = copy.cuda
    fill_ = creation.fill_
    __dlpack__ = interop.__dlpack__
    __dlpack_device__ = interop.__dlpack_device__
