"""``DistributedDataParallel``: one model replica per rank, gradients averaged in backward.

At construction the parameters and buffers of rank 0 are broadcast to every
rank, so the replicas start equal. Each forward (outside ``no_sync``) arms a
:class:`~gtensor.nn.parallel.reducer.Reducer`, which averages the gradients
in buckets while the backward pass runs; after ``loss.backward()`` returns,
every rank holds the same ``.grad``, and the same optimizer step keeps the
replicas equal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ...distributed import ProcessGroup, broadcast, get_world_size
from ...graph.grad_mode import is_grad_enabled, no_grad
from ..modules.module import Module
from .reducer import Reducer


class DistributedDataParallel(Module):
    """Wrap ``module`` so that ``backward`` averages its gradients over the ranks.

    Args:
        module: the replica on this rank (already on its device).
        device_ids: ``None`` or the one device of the replica (as PyTorch: one device per rank).
        output_device: accepted for PyTorch compatibility (outputs stay where ``module`` makes
            them).
        broadcast_buffers: copy rank 0's buffers (batch-norm statistics) to every rank at each
            forward.
        process_group: the group to average over (default: the world).
        bucket_cap_mb: the bucket size in MiB.
        find_unused_parameters: find, at each forward, the parameters the output does not
            depend on, and count zeros for them (their ``.grad`` stays untouched when no rank
            used them).
        gradient_as_bucket_view: ``.grad`` tensors are views of the bucket buffers (saves a
            copy per step and the memory of a second gradient copy).

    Example:
        >>> import gtensor.distributed as dist  # doctest: +SKIP
        >>> dist.init_process_group("mpi")  # on every rank, under an MPI launcher  # doctest: +SKIP
        >>> model = DistributedDataParallel(nn.Linear(4, 2))  # doctest: +SKIP
        >>> model(gt.ones(3, 4)).sum().backward()  # .grad: the mean over ranks  # doctest: +SKIP
    """

    def __init__(self, module: Module, device_ids: Sequence[Any] | None = None,
                 output_device: Any = None, dim: int = 0, broadcast_buffers: bool = True,
                 process_group: ProcessGroup | None = None, bucket_cap_mb: float = 25,
                 find_unused_parameters: bool = False,
                 gradient_as_bucket_view: bool = False) -> None:
        super().__init__()
        if device_ids is not None and len(device_ids) > 1:
            raise ValueError("[DistributedDataParallel] device_ids must be None or hold one "
                             "device (one device per rank)")
        self.module = module
        self.process_group = process_group
        self.broadcast_buffers = broadcast_buffers
        self.require_backward_grad_sync = True
        self.world_size = get_world_size(process_group)
        self._sync_state()
        params = [p for p in module.parameters() if p.requires_grad]
        self.reducer = Reducer(params, int(bucket_cap_mb * 2**20), process_group,
                               gradient_as_bucket_view, find_unused_parameters)

    def _sync_state(self, buffers_only: bool = False) -> None:
        """Overwrite this replica's parameters (unless ``buffers_only``) and buffers by rank 0's."""
        src = 0 if self.process_group is None else self.process_group.ranks[0]
        tensors = [] if buffers_only else list(self.module.parameters())
        tensors += [b for b in self.module.buffers() if b is not None]
        with no_grad():
            for t in tensors:
                broadcast(t.detach(), src, self.process_group)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Run the replica; arm the gradient reduction when gradients will be synchronised."""
        sync = self.require_backward_grad_sync and is_grad_enabled()
        if self.broadcast_buffers and self.world_size > 1 and sync:
            self._sync_state(buffers_only=True)
        out = self.module(*args, **kwargs)
        if sync:
            self.reducer.prepare(out)
        return out

    @contextmanager
    def no_sync(self) -> Iterator[None]:
        """Accumulate gradients locally: backward passes of forwards run inside skip the reduction.

        Example:
            >>> ddp = DistributedDataParallel(nn.Linear(4, 2))  # doctest: +SKIP
            >>> with ddp.no_sync():  # doctest: +SKIP
            ...     ddp(gt.ones(3, 4)).sum().backward()
            >>> ddp(gt.ones(3, 4)).sum().backward()  # averages the sum of both  # doctest: +SKIP
        """
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous
