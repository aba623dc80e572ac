"""Multi-process runs on loopback through the mpi backend, each time-boxed.

The jobs start at collection (tests/background.py) and run beside the other
tests: the collectives on 3 ranks (cpu tensors) and on 2 ranks (CUDA tensors,
through the host) followed by DDP, started through the launcher; and 2-rank
jobs in which one rank mismatches, raises, hangs or is killed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import background
import pytest

from gtensor.distributed.run import find_mpiexec

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
try:
    import mpi4py  # noqa: F401
except ImportError:
    mpi4py = None
needs_mpi = pytest.mark.skipif(mpi4py is None or find_mpiexec() is None,
                               reason="needs mpi4py and mpiexec: pip install 'gtensor[test]'")
EVERY_RANK = ("all_reduce SUM", "all_reduce AVG", "all_reduce PRODUCT", "all_reduce MIN",
              "all_reduce MAX bool", "all_reduce MAX float16", "all_reduce MAX bfloat16",
              "all_reduce MAX int16",
              "all_reduce async non-contiguous", "broadcast", "broadcast bfloat16", "all_gather",
              "all_gather_into_tensor", "reduce_scatter", "reduce_scatter_tensor AVG", "reduce",
              "scatter")
ONE_RANK = ("gather", "send/recv (any source)", "isend/irecv")
DDP = ("ddp equals single-process", "no_sync", "find_unused_parameters",
       "unused parameters without find_unused_parameters raise")
FAILURES = ("debug", "hang", "kill")


def _env() -> dict[str, str]:
    """This tree's gtensor first on the path of the ranks."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")])}


def _jobs() -> dict[str, list[str]]:
    mpiexec = find_mpiexec() or "mpiexec"
    run = [sys.executable, "-m", "gtensor.distributed.run"]
    jobs = {"dist-2-cuda": [*run, "-n", "2", str(HERE / "job.py"), "cuda", "ddp"],
            "dist-3-cpu": [mpiexec, "-n", "3", sys.executable, str(HERE / "job.py"), "cpu"]}
    for mode in FAILURES:
        jobs[f"dist-fail-{mode}"] = [mpiexec, "-n", "2", sys.executable,
                                     str(HERE / "failure_job.py"), mode]
    return jobs


def start_background() -> None:
    """Start every job at collection, when MPI is there."""
    if needs_mpi.args[0]:
        return
    for name, argv in _jobs().items():
        background.start(name, argv, env=_env())


def _result(name: str) -> tuple[int, str, str]:
    start_background()  # when collection did not
    return background.result(name, timeout=60)


@needs_mpi
@pytest.mark.parametrize(("name", "ranks", "ddp"), [("dist-2-cuda", 2, True),
                                                   ("dist-3-cpu", 3, False)])
def test_collectives_and_ddp_match_numpy_and_single_process(name: str, ranks: int,
                                                            ddp: bool) -> None:
    code, out, err = _result(name)
    assert code == 0, err[-3000:]
    lines = out.splitlines()
    assert lines.count("done") == ranks, out
    for names, times in ((EVERY_RANK, ranks), (ONE_RANK, 1), (DDP, ranks * ddp),
                         (("all_reduce new_group",), 2)):
        for name in names:
            assert lines.count(f"ok {name}") == times, (name, out)


@needs_mpi
def test_debug_mode_names_the_mismatch_and_a_raising_rank_aborts_the_job() -> None:
    code, out, err = _result("dist-fail-debug")
    assert code != 0
    assert out.count("[all_reduce] ranks disagree (GTENSOR_DISTRIBUTED_DEBUG=DETAIL): rank 0 "
                     "called all_reduce on float32 (3,), rank 1 called all_reduce on float32 "
                     "(4,)") == 2, out
    assert "rank 1 fails on purpose" in err and "rank 1 raised ValueError; aborting" in err
    assert "was not stopped" not in out


@needs_mpi
def test_a_hung_rank_makes_the_other_fail_within_the_timeout() -> None:
    code, out, err = _result("dist-fail-hang")  # rank 1 sleeps 60 s: done sooner means aborted
    assert code != 0
    assert "DistBackendError: [all_reduce] timed out after 1 s" in err, err[-3000:]
    assert "was not stopped" not in out


@needs_mpi
def test_a_killed_rank_ends_the_job() -> None:
    code, out, err = _result("dist-fail-kill")
    assert code != 0 and "rank 0 waits" in out, (code, out, err[-2000:])
    assert "was not stopped" not in out
