"""Indexing ops: ``x[idx]``, ``x[idx] = v``, and the ops that index along a dim or by a mask.

Every indexing op follows one plan: turn the index into a view ``V`` of the
source plus int64 index rows over some of ``V``'s dims; the ``index_offsets``
kernel checks the rows on the device and turns them into one element offset
per row; ``gather`` reads (or ``scatter`` writes) the remaining dims of ``V``
at each offset.

NumPy's rules: integer tensors, lists, Python ranges and boolean masks are
advanced indices (a ``k``-d mask stands for the ``k`` index rows of its
``nonzero``; a range is the int64 index tensor of its values, as in PyTorch),
and in their presence plain ints count as advanced too. A list is one index
tensor, ranges inside it included (``x[[range(2), range(2)]]`` reads a
``(2, 2)`` index), as in NumPy and as PyTorch announces for its next rule;
PyTorch 2.x still reads such a list as a tuple of indices, with a deprecation
warning: write ``x[tuple(seq)]`` for that. The advanced dims are
broadcast together; they replace the indexed dims in place when all advanced
indices are adjacent, else they come first. A 0-d integer tensor is an
advanced index of shape ``()``, as a 0-d NumPy array is: the result shapes are
those of a plain int, but the result is a copy (PyTorch reads the value on the
host and returns a view; reading device memory here would block).

The modules, each importing only those listed before it:

- ``rows``: the shared machinery: index tensors and masks as int64 rows, the
  plan of an advanced index (``plan_index``), the ``index_offsets`` call and
  the ``gather``/``scatter`` kernel calls.
- ``subscript``: ``x[idx]`` and ``x[idx] = v`` (``getitem``, ``setitem``,
  ``index_put``).
- ``along_dim``: the ops that take a ``dim`` and an index tensor, or index the
  flattened tensor: ``index_select``, ``index_add``, ``index_copy``,
  ``index_fill``, ``take``, ``take_along_dim``, ``gather``, ``scatter``,
  ``scatter_add``.
- ``scatter_reduce``: ``scatter_reduce`` and its VJP.
- ``masked``: the boolean-mask ops ``masked_fill``, ``masked_select``,
  ``nonzero``, ``argwhere``.

This file holds no code, so importing one module loads only the ones below it.
"""
