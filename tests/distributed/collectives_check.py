"""Every collective of the mpi backend against a NumPy reference (run by ``job.py``).

Each rank can make every rank's input (seeded by rank), so each computes the
expected result itself. Prints one ``ok <name>`` line per check; any mismatch
raises (and aborts the job).
"""

from __future__ import annotations

import sys

import ml_dtypes
import numpy as np

import gtensor as gt
import gtensor.distributed as dist


def say(line: str) -> None:
    """Print ``line`` in one write, so the ranks' lines do not interleave within a line."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def data(rank: int, shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray:
    """Rank ``rank``'s input: small integers (exact in every dtype) or random floats."""
    rng = np.random.default_rng(100 + rank)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "bfloat16":
        return rng.standard_normal(shape).astype(ml_dtypes.bfloat16)
    if dtype.startswith("float"):
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(1, 4, shape).astype(dtype)


def check(name: str, got: gt.Tensor | list[gt.Tensor], want: np.ndarray) -> None:
    """Compare and report (NumPy stacks a list: no kernel runs on the cpu)."""
    got = np.stack([g.cpu().numpy() for g in got]) if isinstance(got, list) else got.cpu().numpy()
    if got.dtype.kind == "V":  # bfloat16: NumPy compares it as float32
        got, want = got.astype(np.float32), np.asarray(want).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3, err_msg=name)
    say(f"ok {name}")


def run(device: str) -> None:
    """Run every collective once (and a few dtypes / ops for all_reduce) on ``device``."""
    rank, size = dist.get_rank(), dist.get_world_size()
    every = [data(r, (2, 3)) for r in range(size)]
    t = lambda a: gt.tensor(a, device=device)  # noqa: E731
    reduce_np = {dist.ReduceOp.SUM: np.sum, dist.ReduceOp.PRODUCT: np.prod,
                 dist.ReduceOp.MIN: np.min, dist.ReduceOp.MAX: np.max, dist.ReduceOp.AVG: np.mean}
    for op, fn in reduce_np.items():
        x = t(every[rank])
        version = x._version
        dist.all_reduce(x, op=op)
        assert x._version > version, "an all_reduce must count as an in-place write"
        check(f"all_reduce {op.name}", x, fn(np.stack(every), axis=0))
    for dtype in ("float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32", "int64",
                  "bool"):
        mine = [data(r, (5,), dtype) for r in range(size)]
        x = t(mine[rank])
        dist.all_reduce(x, op=dist.ReduceOp.MAX)
        check(f"all_reduce MAX {dtype}", x, np.max(np.stack(mine), axis=0))
    x = t(every[rank]).t()  # not contiguous: through a copy written back
    work = dist.all_reduce(x, async_op=True)
    assert work.wait() and work.is_completed()
    check("all_reduce async non-contiguous", x, np.sum(np.stack(every), axis=0).T)

    x = t(every[rank])
    dist.broadcast(x, src=size - 1)
    check("broadcast", x, every[size - 1])
    x = t(every[rank]).bfloat16()  # MPI has no bfloat16: its bits travel
    dist.broadcast(x, src=size - 1)
    check("broadcast bfloat16", x, every[size - 1].astype(ml_dtypes.bfloat16))
    outs = [t(np.zeros((2, 3), np.float32)) for _ in range(size)]
    dist.all_gather(outs, t(every[rank]))
    check("all_gather", outs, np.stack(every))
    out = t(np.zeros((size * 2, 3), np.float32))
    dist.all_gather_into_tensor(out, t(every[rank]))
    check("all_gather_into_tensor", out, np.concatenate(every))

    chunks = [data(r, (size, 4)) for r in range(size)]
    out = t(np.zeros(4, np.float32))
    dist.reduce_scatter(out, [t(c) for c in chunks[rank]])
    check("reduce_scatter", out, np.sum(np.stack(chunks), axis=0)[rank])
    out = t(np.zeros((1, 4), np.float32))
    dist.reduce_scatter_tensor(out, t(chunks[rank]), op=dist.ReduceOp.AVG)
    check("reduce_scatter_tensor AVG", out, np.mean(np.stack(chunks), axis=0)[rank:rank + 1])

    x = t(every[rank])
    dist.reduce(x, dst=0)
    check("reduce", x, np.sum(np.stack(every), axis=0) if rank == 0 else every[rank])
    gathered = [t(np.zeros((2, 3), np.float32)) for _ in range(size)] if rank == 1 else None
    dist.gather(t(every[rank]), gathered, dst=1)
    if rank == 1:
        check("gather", gathered, np.stack(every))
    x = t(np.zeros((2, 3), np.float32))
    dist.scatter(x, [t(a) for a in every] if rank == 0 else None, src=0)
    check("scatter", x, every[rank])

    if rank == 0:
        dist.send(t(every[0]), dst=size - 1)
        x = t(np.zeros((2, 3), np.float32))
        sender = dist.recv(x)
        check("send/recv (any source)", x, every[size - 1])
        assert sender == size - 1, sender
    elif rank == size - 1:
        x = t(np.zeros((2, 3), np.float32))
        dist.irecv(x, src=0).wait()
        check("isend/irecv", x, every[0])
        dist.isend(t(every[rank]), dst=0).wait()

    sub = dist.new_group([0, size - 1])
    if rank in (0, size - 1):
        x = t(every[rank])
        dist.all_reduce(x, group=sub)
        check("all_reduce new_group", x, every[0] + every[size - 1])
    dist.barrier()
