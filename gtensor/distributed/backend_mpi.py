"""The ``mpi`` backend: collectives through mpi4py's non-blocking buffer calls.

A CPU tensor goes to MPI as a NumPy view of its storage, without a copy; a
non-contiguous one through a contiguous copy written back afterwards. A CUDA
tensor goes through the host: copied to a host buffer, exchanged, and copied
back (the MPI is not assumed CUDA-aware). Every call is non-blocking
(``Iallreduce``, ``Ibcast``, ...) and returns a :class:`Work` that polls the
request against the process group's timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from ..autograd import no_grad
from ..dtypes import bfloat16
from ..ops.creation import as_tensor
from ..storage import host_view
from ..tensor import Tensor
from .work import DistBackendError, ReduceOp, Work


def mpi_module() -> Any:
    """Import mpi4py's ``MPI`` (initializing MPI), or raise a readable ImportError."""
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError("[init_process_group] the mpi backend needs mpi4py and an MPI "
                          "library: pip install 'gtensor[distributed]'") from exc
    return MPI


class _Staged:
    """A contiguous NumPy buffer standing for a tensor; ``write_back`` stores it into the tensor.

    MPI has no bfloat16: a bfloat16 tensor travels as its bits (``uint16``), or,
    for a reduction (``reduce=True``), as a float32 copy rounded back on the way in.
    """

    __slots__ = ("tensor", "array", "copied")

    def __init__(self, tensor: Tensor, reduce: bool = False) -> None:
        self.tensor = tensor
        if tensor.is_cuda:
            self.array = np.ascontiguousarray(tensor.detach().cpu().numpy())
            self.copied = True
        else:
            view = host_view(tensor._storage, tensor._dtype.numpy, tensor._shape,
                             tensor._strides, tensor._offset)
            self.copied = not view.flags.c_contiguous
            self.array = np.ascontiguousarray(view) if self.copied else view
        if tensor._dtype is bfloat16:
            if reduce:
                self.array = self.array.astype(np.float32)
                self.copied = True
            else:
                self.array = self.array.view(np.uint16)

    def write_back(self) -> None:
        """Store the buffer into the tensor when the buffer is a copy."""
        if self.copied:
            _store(self.tensor, self.array)


def _store(t: Tensor, values: np.ndarray) -> None:
    """Store ``values`` (C-ordered, ``t``'s number of elements) into tensor ``t``."""
    if t._dtype is bfloat16 and values.dtype == np.uint16:  # bits, as they travelled
        values = values.view(t._dtype.numpy)
    if t.is_cuda:
        with no_grad():
            t.copy_(as_tensor(values.reshape(t.shape), device=t.device))
    else:
        host_view(t._storage, t._dtype.numpy, t._shape, t._strides, t._offset)[...] = \
            values.reshape(t.shape)


class MPIBackend:
    """Collectives over one MPI communicator.

    Args:
        comm: the mpi4py communicator of the group.
        timeout: the deadline of each collective.
    """

    name = "mpi"

    def __init__(self, comm: Any, timeout: timedelta) -> None:
        self._mpi = mpi_module()
        self.comm = comm
        self.timeout = timeout
        self.rank: int = comm.Get_rank()
        self.size: int = comm.Get_size()
        mpi = self._mpi
        self._ops = {ReduceOp.SUM: mpi.SUM, ReduceOp.AVG: mpi.SUM, ReduceOp.PRODUCT: mpi.PROD,
                     ReduceOp.MIN: mpi.MIN, ReduceOp.MAX: mpi.MAX}
        self._bool_ops = {ReduceOp.SUM: mpi.LOR, ReduceOp.MAX: mpi.LOR,
                          ReduceOp.PRODUCT: mpi.LAND, ReduceOp.MIN: mpi.LAND}

    def _op(self, op: ReduceOp, dtype: np.dtype) -> Any:
        return (self._bool_ops if dtype == np.bool_ else self._ops)[op]

    def _start(self, what: str, start: Callable[[], Any],
               finish: Callable[[], Any] | None = None,
               statuses: list[Any] | None = None) -> Work:
        mpi = self._mpi
        try:
            req = start()
        except mpi.Exception as exc:
            raise DistBackendError(f"[{what}] MPI error: {exc.Get_error_string()}") from exc
        reqs = req if isinstance(req, list) else [req]

        def test() -> bool:
            try:
                return bool(mpi.Request.Testall(reqs, statuses))
            except mpi.Exception as exc:
                raise DistBackendError(f"[{what}] MPI error: {exc.Get_error_string()}") from exc

        return Work(test, finish, self.timeout, what)

    def _average(self, array: np.ndarray, op: ReduceOp) -> None:
        if op is ReduceOp.AVG:
            np.divide(array, self.size, out=array)

    def all_reduce(self, tensor: Tensor, op: ReduceOp) -> Work:
        """Combine ``tensor`` over the ranks in place."""
        buf = _Staged(tensor, reduce=True)

        def finish() -> None:
            self._average(buf.array, op)
            buf.write_back()

        return self._start("all_reduce", lambda: self.comm.Iallreduce(
            self._mpi.IN_PLACE, buf.array, self._op(op, buf.array.dtype)), finish)

    def broadcast(self, tensor: Tensor, root: int) -> Work:
        """Copy ``tensor`` of rank ``root`` into every rank's ``tensor``."""
        buf = _Staged(tensor)
        return self._start("broadcast", lambda: self.comm.Ibcast(buf.array, root),
                           buf.write_back)

    def all_gather(self, outputs: Sequence[Tensor] | Tensor, tensor: Tensor) -> Work:
        """Gather every rank's ``tensor`` into ``outputs`` (a list, or one tensor of them all)."""
        src = _Staged(tensor)
        if isinstance(outputs, Tensor):
            dst = _Staged(outputs)
            return self._start("all_gather_into_tensor", lambda: self.comm.Iallgather(
                src.array, dst.array), dst.write_back)
        flat = np.empty((self.size, *src.array.shape), src.array.dtype)

        def finish() -> None:
            for out, part in zip(outputs, flat, strict=True):
                _store(out, part)

        return self._start("all_gather", lambda: self.comm.Iallgather(src.array, flat), finish)

    def reduce_scatter(self, output: Tensor, inputs: Sequence[Tensor] | Tensor,
                       op: ReduceOp) -> Work:
        """Reduce the ranks' inputs and leave block ``rank`` of the result in ``output``."""
        if isinstance(inputs, Tensor):
            send = _Staged(inputs, reduce=True).array
        else:
            send = np.stack([_Staged(t, reduce=True).array for t in inputs])
        dst = _Staged(output, reduce=True)

        def finish() -> None:
            self._average(dst.array, op)
            dst.write_back()

        return self._start("reduce_scatter", lambda: self.comm.Ireduce_scatter_block(
            send, dst.array, self._op(op, send.dtype)), finish)

    def reduce(self, tensor: Tensor, root: int, op: ReduceOp) -> Work:
        """Combine ``tensor`` over the ranks into rank ``root``'s ``tensor``."""
        buf = _Staged(tensor, reduce=True)
        mpi_op = self._op(op, buf.array.dtype)
        if self.rank != root:
            return self._start("reduce", lambda: self.comm.Ireduce(buf.array, None, mpi_op,
                                                                   root))

        def finish() -> None:
            self._average(buf.array, op)
            buf.write_back()

        return self._start("reduce", lambda: self.comm.Ireduce(self._mpi.IN_PLACE, buf.array,
                                                               mpi_op, root), finish)

    def gather(self, tensor: Tensor, outputs: Sequence[Tensor] | None, root: int) -> Work:
        """Collect every rank's ``tensor`` into ``outputs`` on rank ``root``."""
        src = _Staged(tensor)
        if self.rank != root:
            return self._start("gather", lambda: self.comm.Igather(src.array, None, root))
        flat = np.empty((self.size, *src.array.shape), src.array.dtype)

        def finish() -> None:
            for out, part in zip(outputs or (), flat, strict=True):
                _store(out, part)

        return self._start("gather", lambda: self.comm.Igather(src.array, flat, root), finish)

    def scatter(self, tensor: Tensor, inputs: Sequence[Tensor] | None, root: int) -> Work:
        """Send ``inputs[i]`` of rank ``root`` into rank ``i``'s ``tensor``."""
        dst = _Staged(tensor)
        send = np.stack([_Staged(t).array for t in inputs]) if self.rank == root else None
        return self._start("scatter", lambda: self.comm.Iscatter(send, dst.array, root),
                           dst.write_back)

    def send(self, tensor: Tensor, dst: int, tag: int) -> Work:
        """Send ``tensor`` to rank ``dst``."""
        buf = _Staged(tensor)
        return self._start("send", lambda: self.comm.Isend(buf.array, dst, tag))

    def recv(self, tensor: Tensor, src: int | None, tag: int) -> Work:
        """Receive into ``tensor`` from ``src`` (any rank when None); the result is the sender."""
        buf = _Staged(tensor)
        status = [self._mpi.Status()]
        source = self._mpi.ANY_SOURCE if src is None else src

        def finish() -> int:
            buf.write_back()
            return status[0].Get_source()

        return self._start("recv", lambda: self.comm.Irecv(buf.array, source, tag), finish,
                           status)

    def barrier(self) -> Work:
        """Complete once every rank reached the barrier."""
        return self._start("barrier", self.comm.Ibarrier)

    def all_gather_ints(self, values: np.ndarray, what: str) -> Work:
        """Gather an int64 vector from every rank; the Work's result is the ``(size, n)`` table."""
        table = np.empty((self.size, values.size), np.int64)
        return self._start(what, lambda: self.comm.Iallgather(values, table),
                           lambda: table)

    def split(self, ranks: Sequence[int], timeout: timedelta) -> MPIBackend | None:
        """A backend over the world ranks ``ranks`` (collective over this group), None outside."""
        mpi = self._mpi
        inside = self.rank in ranks
        comm = self.comm.Split(0 if inside else mpi.UNDEFINED,
                               list(ranks).index(self.rank) if inside else 0)
        return MPIBackend(comm, timeout) if inside else None

    def abort(self, code: int) -> None:
        """End every process of the job (a rank that raised must not leave the others waiting)."""
        self._mpi.COMM_WORLD.Abort(code)

    def close(self) -> None:
        """Free the communicator (the world communicator stays)."""
        if self.comm != self._mpi.COMM_WORLD:
            self.comm.Free()
