"""Methods that change the shape or layout: views, and the shape ops that copy."""

from __future__ import annotations

from ..ops.layout import copies, views


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
    split = views.split
    chunk = views.chunk
    flip = copies.flip
    roll = copies.roll
    repeat = copies.repeat
    tile = copies.tile
    repeat_interleave = copies.repeat_interleave
    tril = copies.tril
    triu = copies.triu
    diagonal = views.diagonal
    diag = copies.diag
    trace = copies.trace
