"""Methods that change the shape or layout: views, and the shape ops that copy."""

from __future__ import annotations

from ..ops import diagonal_ops, shape_ops, views


class MovementMethods:
    """``view``, ``reshape``, ``permute``, ``expand``, ``flip``, ``repeat``, ``tril``..."""

    __slots__ = ()

    view = views.view
    reshape = views.reshape
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
    select = views.select
    unbind = views.unbind
    split = shape_ops.split
    chunk = shape_ops.chunk
    flip = shape_ops.flip
    roll = shape_ops.roll
    repeat = shape_ops.repeat
    tile = shape_ops.tile
    repeat_interleave = shape_ops.repeat_interleave
    tril = diagonal_ops.tril
    triu = diagonal_ops.triu
    diagonal = diagonal_ops.diagonal
    diag = diagonal_ops.diag
    trace = diagonal_ops.trace
