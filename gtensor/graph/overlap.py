"""Memory overlap between an op's output and its inputs, so in-place ops read before they write.

An in-place op whose input shares memory with its output (``x[1:].add_(x[:-1])``,
``y.add_(y.T)``) would read elements the kernel already overwrote. PyTorch
computes such ops as if every input were read first; gtensor does the same by
copying an input that partially overlaps the output to a temporary. An input
that is exactly the output (``x.add_(x)``) is safe for elementwise kernels,
which read each element before writing it, and is not copied; ops that read
other positions than they write (``x.index_add_(0, i, x)``) copy it too.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from ..kernels.common.strided import span
from ..tensor_base import TensorBase
from .grad_mode import no_grad

if TYPE_CHECKING:
    from ..tensor import Tensor


class Overlap(Enum):
    """How an input's memory relates to the output's."""

    NONE = 0
    FULL = 1
    PARTIAL = 2


def overlap(out: Tensor, src: Tensor) -> Overlap:
    """Return how ``src``'s memory overlaps ``out``'s.

    ``FULL`` means every index of ``out`` addresses the same bytes in ``src``
    (same storage, offset, element size, shape and strides, ignoring size-1
    dims); ``PARTIAL`` means the byte ranges the two views span intersect
    otherwise. ``PARTIAL`` is conservative: interleaved views such as
    ``x[::2]`` and ``x[1::2]`` report it although no byte is shared.

    Example:
        >>> x = gt.arange(6.0)
        >>> overlap(x[1:], x[:-1]), overlap(x, x)
        (<Overlap.PARTIAL: 2>, <Overlap.FULL: 1>)
    """
    if out._storage is not src._storage:
        return Overlap.NONE
    if out.numel() == 0 or src.numel() == 0:
        return Overlap.NONE
    if (out._offset == src._offset and out._dtype.itemsize == src._dtype.itemsize
            and out._shape == src._shape and all(
                n == 1 or a == b for n, a, b in zip(out._shape, out._strides, src._strides,
                                                    strict=True))):
        return Overlap.FULL
    out_lo, out_hi = _byte_range(out)
    src_lo, src_hi = _byte_range(src)
    return Overlap.PARTIAL if out_lo < src_hi and src_lo < out_hi else Overlap.NONE


def _byte_range(t: Tensor) -> tuple[int, int]:
    """The half-open range of storage bytes ``t`` touches."""
    lo, hi = span(t._shape, t._strides)
    isz = t._dtype.itemsize
    return (t._offset + lo) * isz, (t._offset + hi + 1) * isz


def unaliased(out: Tensor, value: Any, elementwise: bool = True) -> Any:
    """Return ``value``, or a copy of it when the op writing ``out`` could read it after a write.

    Args:
        out: the tensor the op writes.
        value: an argument of the op (anything; only tensors are checked).
        elementwise: the op reads ``value`` at the index it writes, so an
            input that is exactly ``out`` is safe and not copied. Ops that read
            elsewhere (``index_add_``, ``scatter_``) pass False: any overlap copies.

    Example:
        >>> x = gt.arange(6.0)
        >>> unaliased(x[1:], x[:-1]).data_ptr() != x.data_ptr()
        True
    """
    if isinstance(value, TensorBase) and value._storage is out._storage:
        status = overlap(out, value)
        if status is Overlap.PARTIAL or (status is Overlap.FULL and not elementwise):
            with no_grad():
                return value.clone()
    return value
