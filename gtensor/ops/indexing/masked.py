"""Boolean-mask ops: ``masked_fill``, ``masked_select``, ``nonzero``, ``argwhere``.

``masked_fill`` and ``masked_fill_`` are one elementwise select (``where``).
The others plan the mask as an advanced index (the index rows of its nonzero
positions, see :mod:`.rows`) read through :mod:`.subscript`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dtypes import int64
from ...errors import check, check_same_device
from ...graph.grad_mode import no_grad
from ...graph.inplace import differentiable_inplace
from ...shape_rules import broadcast_shapes
from ...tensor_base import TensorBase
from ..copy import write_out
from ..creation import full
from ..dispatch import launch
from ..elementwise import where as elementwise_where
from ..layout.views import expand_to
from .rows import plan_index
from .subscript import advanced_getitem

if TYPE_CHECKING:
    from ...tensor import Tensor


def _bool_mask(mask: Any, t: Tensor, op: str) -> Tensor:
    check(isinstance(mask, TensorBase) and mask.dtype.name == "bool", op,
          lambda: f"expected a bool mask tensor, got {getattr(mask, 'dtype', type(mask).__name__)}",
          TypeError)
    check_same_device(op, t.device, mask.device)
    return mask


def _select_args(self: Tensor, mask: Any, value: Any, op: str) -> tuple[Tensor, Tensor]:
    """Check a ``masked_fill`` call; return the mask and ``value`` as a 0-d tensor like ``self``."""
    mask = _bool_mask(mask, self, op)
    check(broadcast_shapes(mask.shape, self.shape, op=op) == self.shape, op,
          lambda: f"mask of shape {mask.shape} does not broadcast to {self.shape}")
    if isinstance(value, TensorBase):
        check(value.ndim == 0, op, lambda: "value must be a number or a 0-d tensor, got shape "
              f"{value.shape}")
        return mask, value.to(self.device, self.dtype)
    return mask, full((), value, dtype=self.dtype, device=self.device)


def _masked_fill_raw(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """The in-place path of ``masked_fill_`` (no recording): the select written back."""
    mask, fill = _select_args(self, mask, value, "masked_fill_")
    with no_grad():
        self.copy_(elementwise_where(mask, fill, self))
    return self


def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """Return a copy of ``self`` set to ``value`` where ``mask`` (broadcast to ``self``) is True.

    One elementwise select (no index planning, so no wait for the device and
    fused under :func:`gtensor.compile`). Differentiable in ``self`` (zero
    gradient under the mask) and in a 0-d tensor ``value`` (the sum of the
    gradient under the mask).

    Example:
        >>> gt.zeros(3).masked_fill(gt.tensor([True, False, True]), 2.0).tolist()
        [2.0, 0.0, 2.0]
    """
    mask, fill = _select_args(self, mask, value, "masked_fill")
    return elementwise_where(mask, fill, self)


@differentiable_inplace(masked_fill)
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """Set ``self`` to ``value`` where ``mask`` (broadcast to ``self``) is True, in place.

    Example:
        >>> x = gt.zeros(3); x.masked_fill_(gt.tensor([True, False, True]), 2.0).tolist()
        [2.0, 0.0, 2.0]
    """
    return _masked_fill_raw(self, mask, value)


def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    """Return the 1-D tensor of elements where ``mask`` is True (both broadcast together).

    Differentiable: the gradient flows back to the selected positions.

    Example:
        >>> gt.tensor([1, 2, 3]).masked_select(gt.tensor([True, False, True])).tolist()
        [1, 3]
    """
    mask = _bool_mask(mask, self, "masked_select")
    shape = broadcast_shapes(mask.shape, self.shape, op="masked_select")
    x = expand_to(self, shape, "masked_select")
    plan = plan_index(x, (expand_to(mask, shape, "masked_select"),), "masked_select")
    assert plan is not None
    return advanced_getitem(x, plan).reshape(-1)


def nonzero(self: Tensor, *, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Return the coordinates of the nonzero elements, ``(count, ndim)`` int64 in C order.

    Integer coordinates: never part of a gradient.

    Args:
        as_tuple: return one 1-D index tensor per dim instead.

    Example:
        >>> gt.tensor([[0, 1], [2, 0]]).nonzero().tolist()
        [[0, 1], [1, 0]]
    """
    src = (self if self.ndim else self.reshape(1)).contiguous()
    if src.dtype.is_half:  # -0.0 is zero, though its bits are not
        src = src != 0
    native = src._native()
    count = launch("nonzero", self.device, (src.dtype,), native)
    coords = TensorBase.empty((count, src.ndim), int64, self.device)
    if count:
        launch("nonzero", self.device, (src.dtype,), native, coords._native())
    if as_tuple:  # a 0-d input counts as 1-d here, as in PyTorch
        return tuple(coords.select(1, j) for j in range(coords.shape[1]))
    return coords[:, :0] if self.ndim == 0 else coords


def argwhere(self: Tensor) -> Tensor:
    """Same as :meth:`nonzero`: the ``(count, ndim)`` coordinates of nonzero elements.

    Example:
        >>> gt.tensor([0, 3, 0, 4]).argwhere().tolist()
        [[1], [3]]
    """
    return nonzero(self)  # type: ignore[return-value]


_NO_ARG: Any = object()


def where(condition: Any, input: Any = _NO_ARG, other: Any = _NO_ARG, *,
          out: Tensor | None = None) -> Tensor | tuple[Tensor, ...]:
    """``input`` where ``condition`` is true, else ``other``; alone, ``condition.nonzero``.

    With only ``condition`` it returns ``nonzero(condition, as_tuple=True)``, as
    ``torch.where(condition)`` does; otherwise see :func:`gtensor.ops.elementwise.where`.

    Example:
        >>> [t.tolist() for t in gt.where(gt.tensor([[0, 1], [1, 0]]))]
        [[0, 1], [1, 0]]
    """
    if input is not _NO_ARG and other is not _NO_ARG:
        result = elementwise_where(condition, input, other)
        return result if out is None else write_out(result, out, "where")
    check(input is _NO_ARG and other is _NO_ARG, "where",
          "takes either condition alone or condition, input and other", TypeError)
    check(isinstance(condition, TensorBase), "where", lambda: "expected a tensor condition, "
          f"got {type(condition).__name__}", TypeError)
    return nonzero(condition, as_tuple=True)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("masked_fill", "masked_select", "nonzero", "argwhere", "where")
