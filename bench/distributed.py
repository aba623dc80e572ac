"""All-reduce bandwidth and a data-parallel training step on MPI, against plain mpi4py.

Run under the launcher (every rank runs this module)::

    python -m gtensor.distributed.run -n 2 -m bench.distributed            # quick sizes
    python -m gtensor.distributed.run -n 2 -m bench.distributed --full --save

Measured in one job, gtensor and the reference in alternating rounds:

- **all-reduce** (sum, float32) of 1 KB to 16 MB (256 MB with ``--full``):
  ``gt.distributed.all_reduce`` on a cpu tensor against mpi4py's
  ``Allreduce(IN_PLACE)`` on the same buffer (a NumPy view of the tensor's
  storage). Reported as bus bandwidth, ``2 (p - 1) / p * bytes / time``, the
  figure NCCL's tests report, and the ratio gtensor / mpi4py.
- **DDP step** of the MLP of ``train.mlp_adam`` (784-512-512-10, Adam), global
  batch 256 split over the ranks: the step under ``DistributedDataParallel``;
  the same step under ``no_sync()`` (no communication); the all-reduce of all
  gradients alone; and, on rank 0 while the others wait without spinning, the
  step on the whole batch without DDP (with the rank's share of the threads:
  the launcher gives each rank ``cores / ranks``). The share of communication
  hidden behind backward is ``1 - (ddp - no_sync) / all_reduce`` (0 or less:
  none hidden).

Rank 0 prints a table; ``--save`` writes ``bench/results/<stamp>-cpu-distributed.json``.

Example:
    $ python -m gtensor.distributed.run -n 2 -m bench.distributed
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

import gtensor as gt
import gtensor.distributed as dist

QUICK_SIZES = [1 << 10, 1 << 14, 1 << 18, 1 << 20, 1 << 22, 1 << 24]
FULL_SIZES = [*QUICK_SIZES, 1 << 26, 1 << 28]


def _min_time(fn: Callable[[], Any], comm: Any, reps: int) -> float:
    """Seconds per call: the job-wide slowest rank's time of ``reps`` calls, one round."""
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    elapsed = (time.perf_counter() - start) / reps
    return comm.allreduce(elapsed, op=_mpi().MAX)


def _mpi() -> Any:
    from mpi4py import MPI  # the backend's own dependency, imported where it is needed

    return MPI


def _interleaved(fns: dict[str, Callable[[], Any]], comm: Any, rounds: int,
                 budget_s: float) -> dict[str, float]:
    """Minimum over ``rounds`` alternating rounds of each function's seconds per call."""
    reps = {}
    for name, fn in fns.items():  # warm up, and size the repetitions to about budget_s
        fn()
        reps[name] = max(1, int(budget_s / max(_min_time(fn, comm, 1), 1e-6)))
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            best[name] = min(best[name], _min_time(fn, comm, reps[name]))
    return best


def allreduce_rows(sizes: list[int], comm: Any, rounds: int) -> list[dict[str, Any]]:
    """Bus bandwidth of gtensor's all-reduce and mpi4py's on the same buffer, per size."""
    p = comm.Get_size()
    rows = []
    for size in sizes:
        t = gt.full((size // 4,), float(comm.Get_rank() + 1))
        view = t.numpy()  # the tensor's storage, not a copy
        fns = {"gtensor": lambda t=t: dist.all_reduce(t),
               "mpi4py": lambda v=view: comm.Allreduce(_mpi().IN_PLACE, v)}
        best = _interleaved(fns, comm, rounds, 0.05)
        bus = {k: 2 * (p - 1) / p * size / v / 1e9 for k, v in best.items()}
        rows.append({"bytes": size, "seconds": best, "bus_gbps": bus,
                     "ratio": bus["gtensor"] / bus["mpi4py"]})
    return rows


def _mlp() -> gt.nn.Module:
    gt.manual_seed(0)
    nn = gt.nn
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                         nn.Linear(512, 10))


def ddp_row(comm: Any, rounds: int, global_batch: int = 256) -> dict[str, Any]:
    """DDP step, the same step without communication, the gradient all-reduce alone, and
    the single-process step on the whole batch (rank 0)."""
    rank, p = comm.Get_rank(), comm.Get_size()
    rng = np.random.default_rng(1)
    x_all = gt.tensor(rng.standard_normal((global_batch, 784), dtype=np.float32))
    y_all = gt.tensor(rng.integers(0, 10, global_batch))
    local = global_batch // p
    x, y = x_all[rank * local:(rank + 1) * local], y_all[rank * local:(rank + 1) * local]
    model = gt.nn.parallel.DistributedDataParallel(_mlp())
    opt = gt.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = gt.nn.CrossEntropyLoss()

    def step() -> None:
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

    def step_no_sync() -> None:
        opt.zero_grad()
        with model.no_sync():
            loss_fn(model(x), y).backward()
        opt.step()

    step()
    grads = [p_.grad.clone() for p_ in model.parameters()]  # buffers of the gradients' sizes
    fns = {"ddp": step, "no_sync": step_no_sync,
           "all_reduce": lambda: [dist.all_reduce(g) for g in grads]}
    best = _interleaved(fns, comm, rounds, 0.3)
    single = _whole_batch_step(comm, x_all, y_all, rounds) if p > 1 else best["no_sync"]
    comm_s = best["ddp"] - best["no_sync"]
    return {"global_batch": global_batch, "seconds": {**best, "one_rank_whole_batch": single},
            "hidden_share": 1.0 - comm_s / best["all_reduce"],
            "speedup_vs_one_rank": single / best["ddp"]}


def _whole_batch_step(comm: Any, x: gt.Tensor, y: gt.Tensor, rounds: int) -> float:
    """Rank 0 times the plain step on the whole batch; the others wait without spinning."""
    best = float("inf")
    if comm.Get_rank() == 0:
        model = _mlp()
        opt = gt.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = gt.nn.CrossEntropyLoss()
        for _ in range(rounds + 1):
            start = time.perf_counter()
            for _ in range(5):
                opt.zero_grad()
                loss_fn(model(x), y).backward()
                opt.step()
            best = min(best, (time.perf_counter() - start) / 5)
    request = comm.Ibarrier()
    while not request.Test():
        time.sleep(0.001)
    return comm.bcast(best, root=0)


def _report(rows: list[dict[str, Any]], ddp: dict[str, Any], p: int) -> None:
    print(f"all-reduce, float32 sum, {p} ranks (bus bandwidth, GB/s)")
    print(f"{'bytes':>10}  {'gtensor':>9}  {'mpi4py':>9}  ratio")
    for r in rows:
        print(f"{r['bytes']:>10}  {r['bus_gbps']['gtensor']:9.3f}  {r['bus_gbps']['mpi4py']:9.3f}"
              f"  {r['ratio']:.2f}x")
    s = ddp["seconds"]
    print(f"\nMLP 784-512-512-10 Adam step, global batch {ddp['global_batch']} over {p} ranks:")
    print(f"  ddp {s['ddp'] * 1e3:.2f} ms, no_sync {s['no_sync'] * 1e3:.2f} ms, gradient "
          f"all-reduce alone {s['all_reduce'] * 1e3:.2f} ms, one rank on the whole batch "
          f"{s['one_rank_whole_batch'] * 1e3:.2f} ms")
    print(f"  communication hidden behind backward: {ddp['hidden_share'] * 100:.0f}% "
          f"(0 or less: none); speed-up over one rank: {ddp['speedup_vs_one_rank']:.2f}x")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Measure, print on rank 0 and optionally save; return the results (every rank)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="sizes up to 256 MB")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", help="bytes to all-reduce")
    parser.add_argument("--save", action="store_true", help="write bench/results/...json")
    args = parser.parse_args(argv)
    dist.init_process_group("mpi")
    comm = _mpi().COMM_WORLD
    sizes = args.sizes or (FULL_SIZES if args.full else QUICK_SIZES)
    rows = allreduce_rows(sizes, comm, args.rounds)
    ddp = ddp_row(comm, args.rounds)
    result = {"schema": "gtensor-bench-distributed/1",
              "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "ranks": comm.Get_size(), "machine": platform.platform(),
              "mpi": _mpi().Get_library_version().splitlines()[0], "all_reduce": rows,
              "ddp": ddp}
    if comm.Get_rank() == 0:
        _report(rows, ddp, comm.Get_size())
        if args.save:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = Path(__file__).parent / "results" / f"{stamp}-cpu-distributed.json"
            path.write_text(json.dumps(result, indent=1))
            print(f"\nresults: {path}")
    dist.destroy_process_group()
    return result


if __name__ == "__main__":
    main()
