"""Launcher: ``python -m gtensor.distributed.run -n 4 train.py args...`` starts 4 ranks.

It runs the script under ``mpiexec`` (the one the ``mpich`` wheel installs next
to this Python, else the first on ``PATH``, else ``--mpiexec``), each rank
with this interpreter, and exits with ``mpiexec``'s status. On a cluster, use
the site's ``mpirun``/``srun`` directly: ``mpirun -n 8 python train.py``.

Example:
    $ python -m gtensor.distributed.run -n 2 examples/train_digits.py --distributed
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig


def find_mpiexec() -> str | None:
    """The ``mpiexec`` beside this interpreter's scripts, else the one on ``PATH``."""
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = os.path.join(folder, "mpiexec")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("mpiexec")


def command(argv: list[str] | None = None) -> list[str]:
    """The ``mpiexec`` command line for the launcher's arguments."""
    parser = argparse.ArgumentParser(prog="python -m gtensor.distributed.run",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--nproc", "--nproc-per-node", dest="nproc", type=int, default=1,
                        help="number of ranks to start (default 1)")
    parser.add_argument("--mpiexec", default=None, help="the MPI launcher to use")
    parser.add_argument("-m", dest="module", action="store_true",
                        help="run the target as a module (python -m)")
    parser.add_argument("script", help="the training script (or module with -m)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    args = parser.parse_args(argv)
    if args.nproc < 1:
        parser.error(f"-n must be at least 1, got {args.nproc}")
    mpiexec = args.mpiexec or find_mpiexec()
    if mpiexec is None:
        parser.error("no mpiexec found: pip install 'gtensor[distributed]' (the mpich wheel "
                     "ships one) or pass --mpiexec")
    target = ["-m", args.script] if args.module else [args.script]
    return [mpiexec, "-n", str(args.nproc), sys.executable, *target, *args.args]


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMBA_NUM_THREADS")


def rank_environment(nproc: int, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The ranks' environment: each thread pool sized to this machine's cores over ``nproc``.

    As ``torchrun`` does, every pool the user has not sized gets an equal share
    of the cores (at least one): ranks that each start a pool as large as the
    machine contend for the cores (on 2 cores, 2 ranks measured 4-5x slower
    per step than one process before this).

    Example:
        >>> rank_environment(2, {"OMP_NUM_THREADS": "3"})["OMP_NUM_THREADS"]
        '3'
    """
    env = dict(os.environ if environ is None else environ)
    share = str(max(1, (os.cpu_count() or 1) // nproc))
    for name in THREAD_VARIABLES:
        env.setdefault(name, share)
    return env


def main(argv: list[str] | None = None) -> int:
    """Run the ranks and return ``mpiexec``'s exit status."""
    cmd = command(argv)
    try:
        return subprocess.call(cmd, env=rank_environment(int(cmd[2])))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
