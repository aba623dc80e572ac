"""Data-parallel training across processes: ``torch.distributed``'s API on MPI and NCCL.

Backends: ``mpi`` (mpi4py; the ``mpich`` wheel by default) for CPU tensors
without copies and CUDA tensors through the host (the MPI is not assumed
CUDA-aware), and ``nccl`` (CuPy's bindings) for CUDA tensors, one GPU per
rank. Start the ranks with ``python -m gtensor.distributed.run -n 4 train.py``
(or ``mpiexec -n 4 python train.py``). A collective that waits past the
group's ``timeout`` raises :class:`DistBackendError`; an uncaught exception on
one rank aborts the job; ``GTENSOR_DISTRIBUTED_DEBUG=DETAIL`` checks before
each collective that the ranks agree on it, its dtype and shape.

The modules, each importing only those listed before it:

- ``work``: ``Work``, ``ReduceOp``, ``DistBackendError``.
- ``backend_mpi``, ``backend_nccl``: the backends.
- ``process_group``: ``init_process_group``, groups, rank and size.
- ``collectives``: the collectives on tensors.
- ``run``: the launcher (``python -m gtensor.distributed.run``).

Example:
    >>> import gtensor as gt
    >>> import gtensor.distributed as dist
    >>> dist.is_initialized()
    False
"""

from .collectives import (
    all_gather,
    all_gather_into_tensor,
    all_reduce,
    barrier,
    broadcast,
    gather,
    irecv,
    isend,
    recv,
    reduce,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
    send,
)
from .process_group import (
    ProcessGroup,
    destroy_process_group,
    get_backend,
    get_rank,
    get_world_size,
    init_process_group,
    is_available,
    is_initialized,
    is_mpi_available,
    is_nccl_available,
    new_group,
)
from .work import DistBackendError, ReduceOp, Work

__all__ = ["DistBackendError", "ProcessGroup", "ReduceOp", "Work", "all_gather",
           "all_gather_into_tensor", "all_reduce", "barrier", "broadcast",
           "destroy_process_group", "gather", "get_backend", "get_rank", "get_world_size",
           "init_process_group", "irecv", "is_available", "is_initialized", "is_mpi_available",
           "is_nccl_available", "isend", "new_group", "recv", "reduce", "reduce_scatter",
           "reduce_scatter_tensor", "scatter", "send"]
