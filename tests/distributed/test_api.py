"""In-process checks: work handles, errors before initialisation, the launcher's command line,
and the nccl backend's calls with NCCL mocked at its call boundary (simulated CUDA tensors)."""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import gtensor as gt
import gtensor.distributed as dist
from gtensor.distributed.backend_nccl import NCCLBackend
from gtensor.distributed.run import command, find_mpiexec, main, rank_environment


def test_work_times_out_with_a_clear_error_and_finishes_once() -> None:
    stuck = dist.Work(lambda: False, None, timedelta(seconds=0.05), "all_reduce")
    start = time.monotonic()
    with pytest.raises(dist.DistBackendError, match=r"\[all_reduce\] timed out after 0.05 s"):
        stuck.wait()
    assert time.monotonic() - start < 2 and not stuck.is_completed()
    calls = []
    done = dist.Work(lambda: True, lambda: calls.append(1) or 7, timedelta(seconds=1), "recv")
    assert done.is_completed() and done.wait() and done.result == 7 and calls == [1]


def test_collectives_need_an_initialized_group() -> None:
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match=r"\[all_reduce\] Default process group has not been"):
        dist.all_reduce(gt.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match=r"\[get_rank\] Default process group"):
        dist.get_rank()
    with pytest.raises(ValueError, match="unknown backend 'gloo'; available: 'mpi', 'nccl'"):
        dist.init_process_group("gloo")
    with pytest.raises(ValueError, match="unsupported init_method 'tcp://h:1'"):
        dist.init_process_group("mpi", init_method="tcp://h:1")


def test_launcher_command_line() -> None:
    argv = command(["-n", "3", "--mpiexec", "/opt/mpiexec", "train.py", "--lr", "1"])
    assert argv == ["/opt/mpiexec", "-n", "3", sys.executable, "train.py", "--lr", "1"]
    assert command(["--mpiexec", "m", "-m", "pkg.train", "-x"])[3:] == [sys.executable, "-m",
                                                                        "pkg.train", "-x"]
    with pytest.raises(SystemExit):
        command(["-n", "0", "train.py"])


def test_launcher_gives_each_rank_a_share_of_the_cores(monkeypatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    env = rank_environment(2, {"MKL_NUM_THREADS": "3", "PATH": "/bin"})
    assert env["OMP_NUM_THREADS"] == env["NUMBA_NUM_THREADS"] == "4"
    assert env["MKL_NUM_THREADS"] == "3" and env["PATH"] == "/bin"
    assert rank_environment(16, {})["OPENBLAS_NUM_THREADS"] == "1"


@pytest.mark.skipif(find_mpiexec() is None, reason="needs mpiexec: pip install 'gtensor[test]'")
def test_launcher_passes_the_exit_status_through(tmp_path: Any) -> None:
    script = tmp_path / "exits.py"
    script.write_text("import sys\nsys.exit(int(sys.argv[1]))\n")
    assert main(["-n", "2", str(script), "3"]) == 3


class _FakeComm:
    """Records the NCCL calls; leaves the buffers as they are."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.calls.append((name, *args))


def test_nccl_backend_calls_and_average_with_nccl_mocked() -> None:
    comm = _FakeComm()
    fake = SimpleNamespace(NCCL_FLOAT32=7, NCCL_INT64=4, NCCL_UINT8=1, NCCL_SUM=0, NCCL_MAX=3,
                           NcclCommunicator=lambda size, uid, rank: comm,
                           groupStart=lambda: comm.calls.append(("groupStart",)),
                           groupEnd=lambda: comm.calls.append(("groupEnd",)))
    backend = NCCLBackend(0, 2, (1, 2), timedelta(seconds=5), fake)
    x = gt.tensor(np.arange(4, dtype=np.float32), device="cuda")
    stream = gt.cuda.current_stream().handle
    work = backend.all_reduce(x, dist.ReduceOp.AVG)
    assert work.wait()
    assert comm.calls == [("allReduce", x.data_ptr(), x.data_ptr(), 4, 7, 0, stream)]
    np.testing.assert_allclose(x.cpu().numpy(), np.arange(4) / 2)  # the sum's division
    backend.recv(gt.zeros(3, dtype=gt.bool_, device="cuda"), 1, 0)
    assert [c[0] for c in comm.calls[1:]] == ["groupStart", "recv", "groupEnd"]
    assert comm.calls[2][2:5] == (3, 1, 1)  # bool travels as uint8, from rank 1
    with pytest.raises(TypeError, match=r"\[all_reduce\] NCCL has no int16 type"):
        backend.all_reduce(gt.zeros(2, dtype=gt.int16, device="cuda"), dist.ReduceOp.SUM)
    with pytest.raises(ValueError, match="contiguous CUDA tensors, got a cpu one"):
        backend.broadcast(gt.zeros(2), 0)


@pytest.mark.gpu
def test_nccl_backend_one_rank_on_a_real_gpu(tmp_path: Any) -> None:
    if not dist.is_nccl_available():
        pytest.skip("CuPy has no NCCL bindings here")
    dist.init_process_group("nccl", init_method=f"file://{tmp_path / 'nccl_id'}", world_size=1,
                            rank=0, abort_on_exception=False)
    try:
        x = gt.tensor(np.arange(6, dtype=np.float32), device="cuda")
        dist.all_reduce(x, op=dist.ReduceOp.AVG)
        dist.broadcast(x, src=0)
        out = gt.zeros(6, device="cuda")
        dist.all_gather_into_tensor(out, x)
        part = gt.zeros(6, device="cuda")
        dist.reduce_scatter_tensor(part, out)
        dist.barrier()
        np.testing.assert_allclose(part.cpu().numpy(), np.arange(6))
    finally:
        dist.destroy_process_group()
