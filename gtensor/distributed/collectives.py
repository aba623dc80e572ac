"""Collectives on tensors in ``torch.distributed``'s shape, in place, optionally asynchronous.

Each function checks its arguments, maps world ranks to group ranks, runs the
debug check when the group asks for it, and hands the tensors to the group's
backend. The tensors it writes count as modified in place (their version
moves, as PyTorch's collectives do), so autograd notices a saved tensor
overwritten by one. With ``async_op=True`` it returns the :class:`Work`; otherwise it
waits (against the group's timeout) and returns None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dtypes import ALL_DTYPES
from ..tensor import Tensor
from .process_group import ProcessGroup, resolve
from .work import DistBackendError, ReduceOp, Work

_OPS = ("all_reduce", "broadcast", "all_gather", "all_gather_into_tensor", "reduce_scatter",
        "reduce_scatter_tensor", "reduce", "gather", "scatter", "barrier")
_MAX_DIMS = 8


def _signature(op: str, t: Tensor | None) -> np.ndarray:
    """``[op, dtype, ndim, shape...]`` as int64 (-1 padded), what the debug check compares."""
    sig = np.full(3 + _MAX_DIMS, -1, np.int64)
    sig[0] = _OPS.index(op)
    if t is not None:
        sig[1] = ALL_DTYPES.index(t.dtype)
        sig[2] = t.dim()
        dims = t.shape[:_MAX_DIMS]
        sig[3:3 + len(dims)] = dims
    return sig


def _describe(row: np.ndarray) -> str:
    if row[1] < 0:
        return f"{_OPS[row[0]]}"
    shape = tuple(int(d) for d in row[3:3 + min(int(row[2]), _MAX_DIMS)])
    return f"{_OPS[row[0]]} on {ALL_DTYPES[row[1]].name} {shape}"


def _debug_check(group: ProcessGroup, op: str, t: Tensor | None) -> None:
    """Raise naming the ranks whose collective, dtype or shape differ from rank 0's."""
    work = group.backend.all_gather_ints(_signature(op, t), f"{op} debug check")
    work.wait()
    table = work.result
    odd = [r for r in range(len(table)) if not np.array_equal(table[r], table[0])]
    if odd:
        r = odd[0]
        raise DistBackendError(
            f"[{op}] ranks disagree (GTENSOR_DISTRIBUTED_DEBUG=DETAIL): rank 0 called "
            f"{_describe(table[0])}, rank {r} called {_describe(table[r])}")


def _begin(group: ProcessGroup | None, op: str, t: Tensor | None,
           checked: Tensor | None = None) -> ProcessGroup:
    """The group to run ``op`` on, after the argument and (debug) cross-rank checks."""
    pg = resolve(group, op)
    if pg.backend is None:
        raise RuntimeError(f"[{op}] this rank is not a member of the group (ranks {pg.ranks})")
    if t is not None and not isinstance(t, Tensor):
        raise TypeError(f"[{op}] expected a gtensor Tensor, got {type(t).__name__}")
    if pg.debug:
        _debug_check(pg, op, checked if checked is not None else t)
    return pg


def _written(*tensors: Tensor) -> None:
    for t in tensors:
        t._bump_version()


def _end(work: Work, async_op: bool) -> Work | None:
    if async_op:
        return work
    work.wait()
    return None


def _reduce_op(op: Any, t: Tensor, name: str) -> ReduceOp:
    if not isinstance(op, ReduceOp):
        raise TypeError(f"[{name}] op must be a ReduceOp, got {op!r}")
    if op is ReduceOp.AVG and not t.dtype.is_floating_point:
        raise TypeError(f"[{name}] ReduceOp.AVG needs a floating-point tensor, got {t.dtype.name}")
    return op


def _check_list(name: str, tensors: Sequence[Tensor], size: int, like: Tensor) -> None:
    if len(tensors) != size:
        raise ValueError(f"[{name}] expected a list of {size} tensors (one per rank), got "
                         f"{len(tensors)}")
    for t in tensors:
        if t.numel() != like.numel() or t.dtype is not like.dtype:
            raise ValueError(f"[{name}] every tensor of the list must have {like.numel()} "
                             f"{like.dtype.name} elements, got {t.numel()} {t.dtype.name}")


def all_reduce(tensor: Tensor, op: ReduceOp = ReduceOp.SUM, group: ProcessGroup | None = None,
               async_op: bool = False) -> Work | None:
    """Combine ``tensor`` over the ranks with ``op``; every rank gets the result in place.

    Example:
        >>> t = gt.ones(3) * (dist.get_rank() + 1)  # doctest: +SKIP
        >>> dist.all_reduce(t)  # doctest: +SKIP
    """
    pg = _begin(group, "all_reduce", tensor)
    _written(tensor)
    return _end(pg.backend.all_reduce(tensor, _reduce_op(op, tensor, "all_reduce")), async_op)


def broadcast(tensor: Tensor, src: int, group: ProcessGroup | None = None,
              async_op: bool = False) -> Work | None:
    """Copy rank ``src``'s ``tensor`` into every rank's ``tensor``."""
    pg = _begin(group, "broadcast", tensor)
    _written(tensor)
    return _end(pg.backend.broadcast(tensor, pg.group_rank(src, "broadcast")), async_op)


def all_gather(tensor_list: list[Tensor], tensor: Tensor, group: ProcessGroup | None = None,
               async_op: bool = False) -> Work | None:
    """Fill ``tensor_list[i]`` with rank ``i``'s ``tensor`` on every rank."""
    pg = _begin(group, "all_gather", tensor)
    _check_list("all_gather", tensor_list, pg.size(), tensor)
    _written(*tensor_list)
    return _end(pg.backend.all_gather(tensor_list, tensor), async_op)


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor,
                           group: ProcessGroup | None = None,
                           async_op: bool = False) -> Work | None:
    """Concatenate the ranks' ``input_tensor`` (along dim 0) into ``output_tensor``."""
    pg = _begin(group, "all_gather_into_tensor", input_tensor)
    if output_tensor.numel() != input_tensor.numel() * pg.size() or (
            output_tensor.dtype is not input_tensor.dtype):
        raise ValueError(f"[all_gather_into_tensor] output must hold world_size ({pg.size()}) "
                         f"x {input_tensor.numel()} {input_tensor.dtype.name} elements, got "
                         f"{output_tensor.numel()} {output_tensor.dtype.name}")
    _written(output_tensor)
    return _end(pg.backend.all_gather(output_tensor, input_tensor), async_op)


def reduce_scatter(output: Tensor, input_list: list[Tensor], op: ReduceOp = ReduceOp.SUM,
                   group: ProcessGroup | None = None, async_op: bool = False) -> Work | None:
    """Reduce ``input_list[i]`` over the ranks into rank ``i``'s ``output``."""
    pg = _begin(group, "reduce_scatter", output)
    _check_list("reduce_scatter", input_list, pg.size(), output)
    _written(output)
    work = pg.backend.reduce_scatter(output, input_list, _reduce_op(op, output, "reduce_scatter"))
    return _end(work, async_op)


def reduce_scatter_tensor(output: Tensor, input: Tensor, op: ReduceOp = ReduceOp.SUM,
                          group: ProcessGroup | None = None,
                          async_op: bool = False) -> Work | None:
    """Reduce ``input`` over the ranks; rank ``i`` gets block ``i`` (along dim 0) in ``output``."""
    pg = _begin(group, "reduce_scatter_tensor", output, input)
    if input.numel() != output.numel() * pg.size() or input.dtype is not output.dtype:
        raise ValueError(f"[reduce_scatter_tensor] input must hold world_size ({pg.size()}) x "
                         f"{output.numel()} {output.dtype.name} elements, got {input.numel()} "
                         f"{input.dtype.name}")
    _written(output)
    work = pg.backend.reduce_scatter(output, input,
                                     _reduce_op(op, output, "reduce_scatter_tensor"))
    return _end(work, async_op)


def reduce(tensor: Tensor, dst: int, op: ReduceOp = ReduceOp.SUM,
           group: ProcessGroup | None = None, async_op: bool = False) -> Work | None:
    """Combine ``tensor`` over the ranks into rank ``dst``'s ``tensor`` (others keep theirs)."""
    pg = _begin(group, "reduce", tensor)
    _written(tensor)
    work = pg.backend.reduce(tensor, pg.group_rank(dst, "reduce"), _reduce_op(op, tensor, "reduce"))
    return _end(work, async_op)


def _rooted(group: ProcessGroup | None, op: str, tensor: Tensor, tensors: list[Tensor] | None,
            rank: int, role: str, name: str) -> tuple[ProcessGroup, int]:
    """The group and the root's group rank, once ``tensors`` is checked to be given there only."""
    pg = _begin(group, op, tensor)
    root = pg.group_rank(rank, op)
    if pg.rank() == root:
        if tensors is None:
            raise ValueError(f"[{op}] the {role} rank needs {name}")
        _check_list(op, tensors, pg.size(), tensor)
    elif tensors:
        raise ValueError(f"[{op}] {name} must be None or empty on non-{role} ranks")
    return pg, root


def gather(tensor: Tensor, gather_list: list[Tensor] | None = None, dst: int = 0,
           group: ProcessGroup | None = None, async_op: bool = False) -> Work | None:
    """Collect every rank's ``tensor`` into ``gather_list`` on rank ``dst`` (None elsewhere)."""
    pg, root = _rooted(group, "gather", tensor, gather_list, dst, "destination", "gather_list")
    _written(*(gather_list or ()))
    return _end(pg.backend.gather(tensor, gather_list, root), async_op)


def scatter(tensor: Tensor, scatter_list: list[Tensor] | None = None, src: int = 0,
            group: ProcessGroup | None = None, async_op: bool = False) -> Work | None:
    """Send ``scatter_list[i]`` of rank ``src`` into rank ``i``'s ``tensor``."""
    pg, root = _rooted(group, "scatter", tensor, scatter_list, src, "source", "scatter_list")
    _written(tensor)
    return _end(pg.backend.scatter(tensor, scatter_list, root), async_op)


def isend(tensor: Tensor, dst: int, group: ProcessGroup | None = None, tag: int = 0) -> Work:
    """Start sending ``tensor`` to rank ``dst``; returns the Work."""
    pg = resolve(group, "isend")
    return pg.backend.send(tensor, pg.group_rank(dst, "isend"), tag)


def irecv(tensor: Tensor, src: int | None = None, group: ProcessGroup | None = None,
          tag: int = 0) -> Work:
    """Start receiving into ``tensor`` from rank ``src`` (any rank when None); returns the Work."""
    pg = resolve(group, "irecv")
    _written(tensor)
    return pg.backend.recv(tensor, None if src is None else pg.group_rank(src, "irecv"), tag)


def send(tensor: Tensor, dst: int, group: ProcessGroup | None = None, tag: int = 0) -> None:
    """Send ``tensor`` to rank ``dst`` and wait until it left."""
    isend(tensor, dst, group, tag).wait()


def recv(tensor: Tensor, src: int | None = None, group: ProcessGroup | None = None,
         tag: int = 0) -> int:
    """Receive into ``tensor`` from rank ``src`` (any when None); return the sender's rank."""
    pg = resolve(group, "recv")
    work = irecv(tensor, src, pg, tag)
    work.wait()
    return pg.ranks[work.result]


def barrier(group: ProcessGroup | None = None, async_op: bool = False) -> Work | None:
    """Wait until every rank of ``group`` reached the barrier."""
    pg = _begin(group, "barrier", None)
    return _end(pg.backend.barrier(), async_op)


__all__ = ["all_gather", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast",
           "gather", "irecv", "isend", "recv", "reduce", "reduce_scatter",
           "reduce_scatter_tensor", "scatter", "send"]
