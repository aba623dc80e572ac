"""Run under mpiexec: the collectives and DDP checks in one process per rank.

Usage: ``mpiexec -n 3 python job.py DEVICE [ddp]``: the collectives on DEVICE, then the DDP
checks (on the cpu) when ``ddp`` is given. Each check prints ``ok <name>``;
a failing one raises, which aborts the job with a non-zero status.
"""

from __future__ import annotations

import sys

import collectives_check
import ddp_check
from collectives_check import say

import gtensor.distributed as dist

if __name__ == "__main__":
    dist.init_process_group("mpi")
    collectives_check.run(sys.argv[1])
    if "ddp" in sys.argv[2:]:
        ddp_check.run()
    dist.destroy_process_group()
    say("done")
