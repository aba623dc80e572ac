"""Layout ops: views over a tensor's storage, and the shape ops that copy into a new tensor.

Views never copy: each returns a new shape, strides and offset over the same
storage (``view``, ``permute``, ``expand``, ``narrow``, basic indexing,
``split``, ``diagonal``...). ``reshape`` is the one exception: it copies only
when no view can express the result, exactly as in PyTorch. Copies build a
new tensor with the copy/gather/scatter kernels (``cat``, ``flip``,
``repeat``, ``pad``, ``tril``...).

The modules, bottom up:

- ``views``: every op that returns a view; the indexing ops sit above it.
- ``padding``: constant padding (``constant_pad``, ``pad_to``), which the
  gradients of the indexing ops use.
- ``copies``: the ops that copy into a new tensor, above the indexing ops
  whose kernels they use.
- ``strided``: free-form strided views (``as_strided``, ``unfold``) whose
  gradients use ``index_add``, and the dim moves (``movedim``, ``ravel``...).
- ``stacking``: NumPy-style stacks and splits over ``cat`` and ``narrow``.
- ``writes``: the ``*_scatter`` ops, ``masked_scatter``, ``put`` and the
  in-place ``fill_diagonal_``/``triu_``/``tril_``.

This file holds no code, so importing one module loads only the ones below it.
"""
