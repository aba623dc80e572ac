"""Indexing methods: ``x[i]``, ``x[i] = v``, index, gather/scatter and mask ops."""

from __future__ import annotations

from ..ops.indexing import along_dim, masked, subscript
from ..ops.indexing import index_reduce as index_reduce_ops
from ..ops.indexing import scatter_reduce as scatter_reduce_ops
from ..ops.layout import writes


class IndexingMethods:
    """``__getitem__``, ``index_select``, ``gather``, ``scatter_add_``, ``masked_fill``..."""

    __slots__ = ()

    __getitem__ = subscript.getitem
    __setitem__ = subscript.setitem
    index_put = subscript.index_put
    index_put_ = subscript.index_put_
    index_select = along_dim.index_select
    index_add = along_dim.index_add
    index_add_ = along_dim.index_add_
    index_copy = along_dim.index_copy
    index_copy_ = along_dim.index_copy_
    index_fill = along_dim.index_fill
    index_fill_ = along_dim.index_fill_
    take = along_dim.take
    take_along_dim = along_dim.take_along_dim
    gather = along_dim.gather
    scatter = along_dim.scatter
    scatter_ = along_dim.scatter_
    scatter_add = along_dim.scatter_add
    scatter_add_ = along_dim.scatter_add_
    scatter_reduce = scatter_reduce_ops.scatter_reduce
    scatter_reduce_ = scatter_reduce_ops.scatter_reduce_
    index_reduce = index_reduce_ops.index_reduce
    index_reduce_ = index_reduce_ops.index_reduce_
    masked_fill = masked.masked_fill
    masked_fill_ = masked.masked_fill_
    masked_select = masked.masked_select
    masked_scatter = writes.masked_scatter
    masked_scatter_ = writes.masked_scatter_
    put = writes.put
    put_ = writes.put_
    nonzero = masked.nonzero
    argwhere = masked.argwhere
