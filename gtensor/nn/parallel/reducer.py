"""Gradient buckets of DistributedDataParallel, all-reduced from autograd hooks.

Parameters are grouped in reverse registration order (roughly the order the
backward pass produces their gradients) into buckets of about ``cap_bytes``,
one flat buffer per bucket, per device and dtype. A post-accumulate-grad hook
on each parameter counts the bucket down; when the last gradient of a bucket
has arrived the gradients are copied into its buffer and an async all-reduce
(``ReduceOp.AVG``) starts, so communication overlaps the rest of the backward pass.
Buckets start strictly in index order, so every rank issues the same
sequence of collectives. When the last bucket has started, the reducer waits
for all of them and writes the averages back into ``.grad``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...autograd.hooks import RemovableHandle
from ...distributed import ProcessGroup, ReduceOp, Work, all_reduce
from ...dtypes import int32
from ...graph.grad_mode import no_grad
from ...graph.node import AccumulateGrad, edge_of
from ...ops.creation import tensor, zeros
from ...tensor import Tensor
from ..parameter import Parameter


class _Bucket:
    """A flat buffer over some parameters' gradients and its in-flight all-reduce."""

    def __init__(self, params: list[Parameter], indices: list[int]) -> None:
        self.params = params
        self.indices = indices
        self.offsets: list[int] = []
        total = 0
        for p in params:
            self.offsets.append(total)
            total += p.numel()
        self.buffer = zeros(total, dtype=params[0].dtype, device=params[0].device)
        self.pending = len(params)
        self.work: Work | None = None

    def view(self, k: int) -> Tensor:
        """The part of the buffer that holds parameter ``k``'s gradient, in its shape."""
        p = self.params[k]
        return self.buffer[self.offsets[k]:self.offsets[k] + p.numel()].view(p.shape)


def build_buckets(params: Sequence[Parameter], cap_bytes: int) -> list[_Bucket]:
    """Group ``params`` in reverse order into buckets of at most ``cap_bytes`` (or one param)."""
    buckets: list[_Bucket] = []
    open_: dict[Any, tuple[list[Parameter], list[int], int]] = {}
    for i in reversed(range(len(params))):
        p = params[i]
        key = (p.device, p.dtype)
        members, indices, size = open_.get(key, ([], [], 0))
        nbytes = p.numel() * p.element_size()
        if members and size + nbytes > cap_bytes:
            buckets.append(_Bucket(members, indices))
            members, indices, size = [], [], 0
        open_[key] = (members + [p], indices + [i], size + nbytes)
    buckets.extend(_Bucket(m, ix) for m, ix, _ in open_.values() if m)
    return buckets


def reached_leaves(outputs: Any) -> set[int]:
    """The ids of the leaf tensors the autograd graph of ``outputs`` reaches."""
    stack = [edge[0] for t in _tensors(outputs) if (edge := edge_of(t)) is not None]
    seen: set[int] = set()
    leaves: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            leaves.add(id(node.variable))
        stack.extend(e[0] for e in node.next_edges if e is not None)
    return leaves


def _tensors(obj: Any) -> Iterable[Tensor]:
    if isinstance(obj, Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _tensors(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _tensors(item)


class Reducer:
    """Averages the gradients of ``params`` over ``group`` in buckets during backward.

    Args:
        params: the parameters that need gradients, in registration order.
        cap_bytes: the bucket size.
        group: the process group (None: the world).
        gradient_as_bucket_view: leave ``.grad`` as views of the bucket buffers.
        find_unused_parameters: find, at each forward, the parameters the output does not
            depend on, and reduce zeros for them.
    """

    def __init__(self, params: Sequence[Parameter], cap_bytes: int, group: ProcessGroup | None,
                 gradient_as_bucket_view: bool, find_unused_parameters: bool) -> None:
        self.params = list(params)
        self.group = group
        self.as_view = gradient_as_bucket_view
        self.find_unused = find_unused_parameters
        self.buckets = build_buckets(self.params, cap_bytes)
        self._where: dict[int, tuple[_Bucket, int]] = {}
        for bucket in self.buckets:
            for k, p in enumerate(bucket.params):
                self._where[id(p)] = (bucket, k)
        self.armed = False
        self._next = 0
        self._used: Tensor | None = None
        self._used_work: Work | None = None
        self.handles: list[RemovableHandle] = [
            p.register_post_accumulate_grad_hook(self._on_grad) for p in self.params]

    def prepare(self, outputs: Any) -> None:
        """Arm the reducer for the backward pass of this forward's ``outputs``."""
        if not self.buckets:
            return
        if self.armed:
            missing = [i for b in self.buckets if b.pending for i in b.indices]
            raise RuntimeError(
                "[DistributedDataParallel] Expected to have finished reduction in the prior "
                "iteration before starting a new one: parameters with indices "
                f"{sorted(missing)} received no gradient. Pass find_unused_parameters=True "
                "when some parameters do not take part in the loss.")
        self.armed = True
        self._next = 0
        for bucket in self.buckets:
            bucket.pending = len(bucket.params)
            bucket.work = None
        if not self.find_unused:
            return
        reached = reached_leaves(outputs)
        used = [1 if id(p) in reached else 0 for p in self.params]
        self._used = tensor(used, dtype=int32, device=self.params[0].device)
        self._used_work = all_reduce(self._used, ReduceOp.MAX, self.group, async_op=True)
        for p, flag in zip(self.params, used, strict=True):
            if not flag:
                self._ready(p)

    def _on_grad(self, p: Tensor) -> None:
        if self.armed:
            self._ready(p)

    def _ready(self, p: Tensor) -> None:
        bucket, _ = self._where[id(p)]
        bucket.pending -= 1
        while self._next < len(self.buckets) and self.buckets[self._next].pending == 0:
            self._launch(self.buckets[self._next])
            self._next += 1
        for b in self.buckets[:self._next]:
            if b.work is not None:
                b.work.is_completed()  # lets the backend progress while backward runs
        if self._next == len(self.buckets):
            self._finish()

    def _launch(self, bucket: _Bucket) -> None:
        with no_grad():
            for k, p in enumerate(bucket.params):
                g = p.grad
                part = bucket.view(k)
                if g is None:
                    part.fill_(0)
                elif g._storage is not bucket.buffer._storage:
                    part.copy_(g)
        bucket.work = all_reduce(bucket.buffer, ReduceOp.AVG, self.group, async_op=True)

    def _finish(self) -> None:
        self.armed = False
        used = None
        if self._used_work is not None:
            self._used_work.wait()
            used = self._used.tolist()  # type: ignore[union-attr]
            self._used_work = None
        with no_grad():
            for bucket in self.buckets:
                bucket.work.wait()  # type: ignore[union-attr]
                for k, p in enumerate(bucket.params):
                    if used is not None and not used[bucket.indices[k]]:
                        continue  # no rank used it: its gradient stays as it was
                    part = bucket.view(k)
                    if self.as_view:
                        p.grad = part
                    elif p.grad is None:
                        p.grad = part.clone()
                    else:
                        p.grad.copy_(part)
