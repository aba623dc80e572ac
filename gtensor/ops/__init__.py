"""Op semantics: checks, result metadata, one dispatch lookup and the kernel call.

The modules here import each other only downward (``creation`` and ``copy``
at the bottom, composite ops above the ops they compose) and never the public
:class:`gtensor.Tensor`, which declares them as methods from above
(:mod:`gtensor.mixins`). Two packages group ops by machinery:
:mod:`.indexing` (every op that reads or writes through index rows and the
gather/scatter kernels) and :mod:`.layout` (views, and the shape ops that
copy). Their ``__init__`` files hold only a docstring, so the layers can
interleave: ``layout.views`` sits below the indexing ops and
``layout.copies`` above them.
"""
