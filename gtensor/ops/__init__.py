"""Op semantics: checks, result metadata, one dispatch lookup and the kernel call.

The modules here import each other only downward (``creation`` and ``copy``
at the bottom, composite ops above the ops they compose) and never the public
:class:`gtensor.Tensor`, which declares them as methods from above
(:mod:`gtensor.mixins`).
"""
