"""Run under mpiexec: the collectives and DDP checks in one process per rank.

Usage: ``mpiexec -n 3 python job.py DEVICE``: the collectives on DEVICE. Each check prints
``ok <name>``;
a failing one raises, which aborts the job with a non-zero status.
"""

from __future__ import annotations

import sys

import collectives_check
from collectives_check import say

import gtensor.distributed as dist

if __name__ == "__main__":
    dist.init_process_group("mpi")
    collectives_check.run(sys.argv[1])
    dist.destroy_process_group()
    say("done")
