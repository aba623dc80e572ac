"""The ``nccl`` backend: collectives on CUDA tensors through CuPy's ``cupy.cuda.nccl``.

One GPU per rank. Each call is enqueued on gtensor's current stream of the
tensor's device, as PyTorch does; its :class:`Work` polls a CUDA event
recorded after the call, so ``wait()`` blocks the host until the GPU has
finished it or the process group's deadline passes (then
:class:`DistBackendError`). A blocking collective (``async_op=False``) waits
so too: unlike PyTorch, which returns at once, the host sees a hung peer
instead of a hung stream. NCCL's unique id is made on rank 0 and shared
over MPI (or through a file with ``init_method="file://PATH"``). ``AVG`` is
a sum followed by a division on the device; ``bool`` travels as ``uint8``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from ..autograd import no_grad
from ..cuda import runtime
from ..cuda.streams import Event, current_stream
from ..dtypes import int64
from ..ops.creation import as_tensor, empty, zeros
from ..ops.layout.copies import cat
from ..tensor import Tensor
from .work import DistBackendError, ReduceOp, Work

_TYPES = {"bool": "NCCL_UINT8", "uint8": "NCCL_UINT8", "int8": "NCCL_INT8",
          "int32": "NCCL_INT32", "int64": "NCCL_INT64", "uint32": "NCCL_UINT32",
          "uint64": "NCCL_UINT64", "float16": "NCCL_FLOAT16",
          "bfloat16": "NCCL_BFLOAT16", "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64"}
_OPS = {ReduceOp.SUM: "NCCL_SUM", ReduceOp.AVG: "NCCL_SUM", ReduceOp.PRODUCT: "NCCL_PROD",
        ReduceOp.MIN: "NCCL_MIN", ReduceOp.MAX: "NCCL_MAX"}


def nccl_module() -> Any:
    """CuPy's NCCL bindings (``cupy.cuda.nccl``)."""
    try:
        return runtime.cupy().cuda.nccl
    except AttributeError as exc:
        raise ImportError("[init_process_group] CuPy was built without NCCL: install the "
                          "nvidia-nccl wheel for your CUDA version") from exc


class NCCLBackend:
    """Collectives over one NCCL communicator (one CUDA device per rank).

    Args:
        rank: this process's rank.
        size: the number of ranks.
        unique_id: NCCL's id, the same on every rank (made by rank 0).
        timeout: the deadline of ``Work.wait``.
        nccl: the NCCL bindings (CuPy's by default).
    """

    name = "nccl"

    def __init__(self, rank: int, size: int, unique_id: Any, timeout: timedelta,
                 nccl: Any = None) -> None:
        self._nccl = nccl or nccl_module()
        self.rank, self.size, self.timeout = rank, size, timeout
        self._id = unique_id
        self._comm = self._nccl.NcclCommunicator(size, unique_id, rank)
        self._bootstrap: Any = None

    @classmethod
    def from_mpi(cls, mpi: Any, timeout: timedelta) -> NCCLBackend:
        """Make the communicator of the MPI world: rank 0's unique id is broadcast over MPI."""
        nccl = nccl_module()
        uid = mpi.comm.bcast(nccl.get_unique_id() if mpi.rank == 0 else None, root=0)
        backend = cls(mpi.rank, mpi.size, uid, timeout, nccl)
        backend._bootstrap = mpi
        return backend

    @classmethod
    def from_file(cls, path: str, rank: int, size: int, timeout: timedelta) -> NCCLBackend:
        """Make the communicator with rank 0's unique id shared through the file ``path``."""
        nccl = nccl_module()
        if rank == 0:
            with open(path + ".tmp", "w") as f:
                f.write(" ".join(map(str, nccl.get_unique_id())))
            os.replace(path + ".tmp", path)
        deadline = time.monotonic() + timeout.total_seconds()
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise DistBackendError(f"[init_process_group] no NCCL id appeared in {path} "
                                       f"within {timeout}")
            time.sleep(0.01)
        with open(path) as f:
            uid = tuple(int(v) for v in f.read().split())
        return cls(rank, size, uid, timeout, nccl)

    def _args(self, t: Tensor, op: str) -> tuple[int, int, int]:
        """``(pointer, count, NCCL datatype)`` of a contiguous CUDA tensor."""
        if not t.is_cuda or not t.is_contiguous():
            raise ValueError(f"[{op}] the nccl backend takes contiguous CUDA tensors, got "
                             f"{'a non-contiguous' if t.is_cuda else 'a ' + str(t.device)} one")
        kind = _TYPES.get(t.dtype.name)
        if kind is None:
            raise TypeError(f"[{op}] NCCL has no {t.dtype.name} type")
        return t.data_ptr(), t.numel(), getattr(self._nccl, kind)

    def _op(self, op: ReduceOp) -> int:
        return getattr(self._nccl, _OPS[op])

    def _work(self, what: str, tensor: Tensor, finish: Any = None) -> Work:
        event = Event()
        event.record(current_stream(tensor.device))
        return Work(event.query, finish, self.timeout, what)

    def _stream(self, t: Tensor) -> int:
        return current_stream(t.device).handle

    def _average(self, t: Tensor, op: ReduceOp) -> None:
        if op is ReduceOp.AVG:
            with no_grad():
                t.div_(self.size)

    def all_reduce(self, tensor: Tensor, op: ReduceOp) -> Work:
        """Combine ``tensor`` over the ranks in place."""
        ptr, n, kind = self._args(tensor, "all_reduce")
        self._comm.allReduce(ptr, ptr, n, kind, self._op(op), self._stream(tensor))
        self._average(tensor, op)
        return self._work("all_reduce", tensor)

    def broadcast(self, tensor: Tensor, root: int) -> Work:
        """Copy ``tensor`` of rank ``root`` into every rank's ``tensor``."""
        ptr, n, kind = self._args(tensor, "broadcast")
        self._comm.broadcast(ptr, ptr, n, kind, root, self._stream(tensor))
        return self._work("broadcast", tensor)

    def all_gather(self, outputs: Sequence[Tensor] | Tensor, tensor: Tensor) -> Work:
        """Gather every rank's ``tensor`` into ``outputs`` (a list, or one tensor of them all)."""
        ptr, n, kind = self._args(tensor, "all_gather")
        flat = outputs if isinstance(outputs, Tensor) else tensor.new_empty(
            (self.size, *tensor.shape))
        self._comm.allGather(ptr, self._args(flat, "all_gather")[0], n, kind,
                             self._stream(tensor))
        if not isinstance(outputs, Tensor):
            with no_grad():
                for out, part in zip(outputs, flat.unbind(0), strict=True):
                    out.copy_(part.reshape(out.shape))
        return self._work("all_gather", tensor)

    def reduce_scatter(self, output: Tensor, inputs: Sequence[Tensor] | Tensor,
                       op: ReduceOp) -> Work:
        """Reduce the ranks' inputs and leave block ``rank`` of the result in ``output``."""
        send = inputs if isinstance(inputs, Tensor) else cat([t.reshape(-1) for t in inputs])
        ptr, n, kind = self._args(output, "reduce_scatter")
        self._comm.reduceScatter(self._args(send, "reduce_scatter")[0], ptr, n, kind,
                                 self._op(op), self._stream(output))
        self._average(output, op)
        return self._work("reduce_scatter", output)

    def reduce(self, tensor: Tensor, root: int, op: ReduceOp) -> Work:
        """Combine ``tensor`` over the ranks into rank ``root``'s ``tensor``."""
        ptr, n, kind = self._args(tensor, "reduce")
        self._comm.reduce(ptr, ptr, n, kind, self._op(op), root, self._stream(tensor))
        if self.rank == root:
            self._average(tensor, op)
        return self._work("reduce", tensor)

    def _exchange(self, sends: Sequence[tuple[Tensor, int]],
                  recvs: Sequence[tuple[Tensor, int]], what: str) -> None:
        """Point-to-point sends and receives as one NCCL group."""
        self._nccl.groupStart()
        for t, peer in sends:
            ptr, n, kind = self._args(t, what)
            self._comm.send(ptr, n, kind, peer, self._stream(t))
        for t, peer in recvs:
            ptr, n, kind = self._args(t, what)
            self._comm.recv(ptr, n, kind, peer, self._stream(t))
        self._nccl.groupEnd()

    def gather(self, tensor: Tensor, outputs: Sequence[Tensor] | None, root: int) -> Work:
        """Collect every rank's ``tensor`` into ``outputs`` on rank ``root``."""
        if self.rank != root:
            self._exchange([(tensor, root)], [], "gather")
            return self._work("gather", tensor)
        outs = list(outputs or ())
        with no_grad():
            outs[root].copy_(tensor)
        self._exchange([], [(o, r) for r, o in enumerate(outs) if r != root], "gather")
        return self._work("gather", tensor)

    def scatter(self, tensor: Tensor, inputs: Sequence[Tensor] | None, root: int) -> Work:
        """Send ``inputs[i]`` of rank ``root`` into rank ``i``'s ``tensor``."""
        if self.rank != root:
            self._exchange([], [(tensor, root)], "scatter")
            return self._work("scatter", tensor)
        ins = list(inputs or ())
        with no_grad():
            tensor.copy_(ins[root])
        self._exchange([(t, r) for r, t in enumerate(ins) if r != root], [], "scatter")
        return self._work("scatter", tensor)

    def send(self, tensor: Tensor, dst: int, tag: int) -> Work:
        """Send ``tensor`` to rank ``dst`` (NCCL has no tags: ``tag`` is ignored)."""
        self._exchange([(tensor, dst)], [], "send")
        return self._work("send", tensor)

    def recv(self, tensor: Tensor, src: int | None, tag: int) -> Work:
        """Receive into ``tensor`` from rank ``src`` (NCCL needs the source)."""
        if src is None:
            raise ValueError("[recv] the nccl backend needs src (no receive from any rank)")
        self._exchange([], [(tensor, src)], "recv")
        work = self._work("recv", tensor)
        work.result = src
        return work

    def barrier(self) -> Work:
        """Complete once every rank reached the barrier (a one-element all-reduce)."""
        return self.all_reduce(zeros(1, device="cuda"), ReduceOp.SUM)

    def all_gather_ints(self, values: np.ndarray, what: str) -> Work:
        """Gather an int64 vector from every rank (the debug check) through the device."""
        src = as_tensor(values, device="cuda")
        table = empty((self.size, values.size), dtype=int64, device="cuda")
        ptr, n, kind = self._args(src, what)
        self._comm.allGather(ptr, table.data_ptr(), n, kind, self._stream(src))
        return self._work(what, src, lambda: table.cpu().numpy())

    def split(self, ranks: Sequence[int], timeout: timedelta) -> NCCLBackend | None:
        """Sub-groups on nccl are not supported yet."""
        raise NotImplementedError("[new_group] sub-groups are not supported on the nccl backend")

    def abort(self, code: int) -> None:
        """Abort the communicator, then the MPI job when MPI bootstrapped it."""
        self._comm.abort()
        if self._bootstrap is not None:
            self._bootstrap.abort(code)
        os._exit(code)

    def close(self) -> None:
        """Release the communicator."""
        self._comm.destroy()
