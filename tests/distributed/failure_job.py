"""Run under mpiexec with 2 ranks: how a failing rank ends the job.

Usage: ``mpiexec -n 2 python failure_job.py MODE``, where MODE is

- ``debug``: the ranks all-reduce different shapes under the debug check (each prints the
  error and carries on), then rank 1 raises while rank 0 waits in an all-reduce: the job
  must abort;
- ``hang``: rank 1 sleeps while rank 0 all-reduces: rank 0 must raise ``DistBackendError``
  after the 1 s timeout, which aborts the job;
- ``kill``: rank 1 is killed while rank 0 waits in an all-reduce.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from datetime import timedelta

import numpy as np
from collectives_check import say

import gtensor as gt
import gtensor.distributed as dist

if __name__ == "__main__":
    mode = sys.argv[1]
    dist.init_process_group("mpi", timeout=timedelta(seconds=1), debug=mode == "debug")
    rank = dist.get_rank()
    if mode == "debug":
        try:
            dist.all_reduce(gt.tensor(np.ones(3 + rank, np.float32)))
        except dist.DistBackendError as exc:
            say(f"caught: {exc}")
        dist.barrier()
        if rank == 1:
            raise ValueError("rank 1 fails on purpose")
    elif rank == 1 and mode == "hang":
        time.sleep(60)
    elif rank == 1 and mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    say(f"rank {rank} waits at {time.monotonic():.3f}")
    dist.all_reduce(gt.tensor(np.ones(3, np.float32)))
    say(f"rank {rank} was not stopped")
