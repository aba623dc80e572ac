"""Op semantics: checks, result metadata, one dispatch lookup and the kernel call.

Importing a module here attaches its ops to :class:`gtensor.Tensor`; every
module in this package is imported by :mod:`gtensor`.
"""
