"""In-place view ops (``squeeze_``, ``unsqueeze_``, ``t_``, ``transpose_``, ``as_strided_``):
the tensor itself takes the view's shape, strides and offset.

Each computes the out-of-place view and moves its layout (and, under autograd, its
history) into ``self``, as PyTorch rebases the tensor's ``grad_fn`` on the view's
backward. As in PyTorch, a leaf that requires grad (or a view of one) is refused
while grad mode is on; the storage and its contents are untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import Untraceable
from ...graph.inplace import check_inplace
from ...trace_state import state as _tracing
from . import strided, views

if TYPE_CHECKING:
    from ...tensor import Tensor


def _relayout(op: str, self: Tensor, view: Callable[[], Tensor]) -> Tensor:
    if _tracing.trace is not None:
        raise Untraceable(f"[compile] {op} changes a tensor's layout in place")
    if self.requires_grad:
        check_inplace(self, op)
    new = view()
    self._shape, self._strides, self._offset = new._shape, new._strides, new._offset
    self._ptr = new._ptr
    self._native_cache = None
    if new.grad_fn is not None:
        self.grad_fn, self._output_nr = new.grad_fn, new._output_nr
    return self


def squeeze_(self: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """In-place :meth:`squeeze`: ``self`` drops its size-1 dims (or those of ``dim``).

    Example:
        >>> x = gt.zeros(2, 1); x.squeeze_().shape
        (2,)
    """
    return _relayout("squeeze_", self, lambda: views.squeeze(self, dim))


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """In-place :meth:`unsqueeze`.

    Example:
        >>> x = gt.zeros(2); x.unsqueeze_(0).shape
        (1, 2)
    """
    return _relayout("unsqueeze_", self, lambda: views.unsqueeze(self, dim))


def t_(self: Tensor) -> Tensor:
    """In-place :meth:`t` (a tensor of at most 2 dims).

    Example:
        >>> x = gt.zeros(2, 3); x.t_().shape
        (3, 2)
    """
    return _relayout("t_", self, lambda: views.t(self))


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """In-place :meth:`transpose` (also ``swapaxes_`` and ``swapdims_``).

    Example:
        >>> x = gt.zeros(2, 3, 4); x.transpose_(0, 2).shape
        (4, 3, 2)
    """
    return _relayout("transpose_", self, lambda: views.transpose(self, dim0, dim1))


def as_strided_(self: Tensor, size: Sequence[int], stride: Sequence[int],
                storage_offset: int | None = None) -> Tensor:
    """In-place :func:`gtensor.as_strided`: ``self`` takes this layout over its storage.

    Example:
        >>> x = gt.arange(6.0); x.as_strided_((2, 2), (1, 2), 1).tolist()
        [[1.0, 3.0], [2.0, 4.0]]
    """
    args: Any = (size, stride, storage_offset)
    return _relayout("as_strided_", self, lambda: strided.as_strided(self, *args))
