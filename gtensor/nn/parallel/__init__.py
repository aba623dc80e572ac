"""Data parallelism across processes: ``DistributedDataParallel`` over ``gtensor.distributed``.

- ``reducer``: gradient buckets all-reduced from autograd hooks.
- ``distributed``: the ``DistributedDataParallel`` module.
"""

from .distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
