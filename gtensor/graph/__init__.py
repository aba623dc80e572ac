"""Graph recording: what ops do while they run so that a backward pass can follow them.

Grad modes, graph nodes (one per recorded op, with its VJP and saved tensors),
anomaly mode, custom :class:`~gtensor.graph.function.Function` and the
bookkeeping that makes in-place writes differentiable. This layer sits below
:mod:`gtensor.ops`, which records through it; the engine that walks the
graph backward lives above the ops, in :mod:`gtensor.autograd`.
"""
