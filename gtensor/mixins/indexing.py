"""Indexing methods: ``x[i]``, ``x[i] = v``, index, gather/scatter and mask ops."""

from __future__ import annotations

from ..ops import index_ops, indexing, masking, scatter_gather
from ..ops import scatter_reduce as scatter_reduce_ops


class IndexingMethods:
    """``__getitem__``, ``index_select``, ``gather``, ``scatter_add_``, ``masked_fill``..."""

    __slots__ = ()

    __getitem__ = indexing.getitem
    __setitem__ = indexing.setitem
    index_put = indexing.index_put
    index_put_ = indexing.index_put_
    index_select = index_ops.index_select
    index_add = index_ops.index_add
    index_add_ = index_ops.index_add_
    index_copy = index_ops.index_copy
    index_copy_ = index_ops.index_copy_
    index_fill = index_ops.index_fill
    index_fill_ = index_ops.index_fill_
    take = index_ops.take
    take_along_dim = index_ops.take_along_dim
    gather = scatter_gather.gather
    scatter = scatter_gather.scatter
    scatter_ = scatter_gather.scatter_
    scatter_add = scatter_gather.scatter_add
    scatter_add_ = scatter_gather.scatter_add_
    scatter_reduce = scatter_reduce_ops.scatter_reduce
    scatter_reduce_ = scatter_reduce_ops.scatter_reduce_
    masked_fill = masking.masked_fill
    masked_fill_ = masking.masked_fill_
    masked_select = masking.masked_select
    nonzero = masking.nonzero
    argwhere = masking.argwhere
