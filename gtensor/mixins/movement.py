"""Methods that change the shape or layout: views, and the shape ops that copy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..ops import arrangement
from ..ops.layout import copies, diagonals, inplace_views, stacking, strided, views, writes

if TYPE_CHECKING:
    from ..tensor import Tensor


class MovementMethods:
    """``view``, ``reshape``, ``permute``, ``expand``, ``flip``, ``repeat``, ``tril``..."""

    __slots__ = ()

    view = views.view
    reshape = views.reshape

    def view_as(self, other: Tensor) -> Tensor:
        """A view of ``self`` with ``other``'s shape (``self.view(other.shape)``)."""
        return views.view(self, other.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        """``self`` reshaped to ``other``'s shape (a view when the strides allow)."""
        return views.reshape(self, other.shape)

    transpose = views.transpose
    swapaxes = views.transpose
    permute = views.permute
    T = property(views.reverse_dims)
    mT = property(views.matrix_transpose)
    t = views.t
    expand = views.expand
    expand_as = views.expand_as
    broadcast_to = views.broadcast_to
    squeeze = views.squeeze
    unsqueeze = views.unsqueeze
    flatten = views.flatten
    unflatten = views.unflatten
    narrow = views.narrow
    narrow_copy = views.narrow_copy
    select = views.select
    unbind = views.unbind
    split = copies.split
    chunk = copies.chunk

    def flip(self, *dims: Any, **kwargs: Any) -> Tensor:
        """:func:`gtensor.flip` with the dims as one sequence or spread out (``x.flip(0, 1)``).

        Example:
            >>> gt.arange(4).view(2, 2).flip(0, 1).tolist()
            [[3, 2], [1, 0]]
        """
        return copies.flip(self, *((dims[0] if len(dims) == 1 else dims,) if dims else ()),
                           **kwargs)

    rot90 = arrangement.rot90
    roll = copies.roll
    repeat = copies.repeat
    tile = copies.tile
    repeat_interleave = copies.repeat_interleave
    tril = copies.tril
    triu = copies.triu
    diagonal = views.diagonal
    movedim = strided.movedim
    moveaxis = strided.movedim
    swapdims = strided.swapdims
    ravel = strided.ravel
    unfold = strided.unfold
    as_strided = strided.as_strided
    as_strided_ = inplace_views.as_strided_
    squeeze_ = inplace_views.squeeze_
    unsqueeze_ = inplace_views.unsqueeze_
    t_ = inplace_views.t_
    transpose_ = inplace_views.transpose_
    swapaxes_ = inplace_views.transpose_
    swapdims_ = inplace_views.transpose_
    flipud = strided.flipud
    fliplr = strided.fliplr
    tensor_split = stacking.tensor_split
    hsplit = stacking.hsplit
    vsplit = stacking.vsplit
    dsplit = stacking.dsplit
    select_scatter = writes.select_scatter
    slice_scatter = writes.slice_scatter
    diagonal_scatter = writes.diagonal_scatter
    fill_diagonal_ = writes.fill_diagonal_
    triu_ = writes.triu_
    tril_ = writes.tril_
    diag = copies.diag
    diag_embed = diagonals.diag_embed
    diagflat = diagonals.diagflat
    split_with_sizes = diagonals.split_with_sizes
    unsafe_split = diagonals.unsafe_split
    unsafe_chunk = diagonals.unsafe_chunk
    sum_to_size = diagonals.sum_to_size
    trace = copies.trace
