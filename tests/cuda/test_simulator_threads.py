"""The cuda device (real or simulated) used from several Python threads at once."""

from __future__ import annotations

import threading

import numpy as np
from gtensor.kernels.cuda import _launch

import gtensor as gt


def _work(k: int, rounds: int) -> list[tuple[float, list[float], list[list[float]]]]:
    out = []
    for i in range(rounds):
        x = gt.arange(40, dtype=gt.float32, device="cuda") * float(k + 1) + float(i)
        a = gt.tensor([[1.0, 2.0], [3.0, 4.0]], device="cuda") * float(k + 1)
        out.append(((x + 1).sum().item(), (x[:3] * 2).tolist(), (a @ a).tolist()))
    return out


def _expected(k: int, rounds: int) -> list[tuple[float, list[float], list[list[float]]]]:
    out = []
    for i in range(rounds):
        x = np.arange(40, dtype=np.float32) * (k + 1) + i
        a = np.array([[1.0, 2.0], [3.0, 4.0]]) * (k + 1)
        out.append((float((x + 1).sum()), (x[:3] * 2).tolist(), (a @ a).tolist()))
    return out


def test_two_threads_run_cuda_ops_concurrently() -> None:
    rounds, workers = 3, 2
    start = threading.Barrier(workers)
    results: dict[int, object] = {}

    def run(k: int) -> None:
        start.wait()
        try:
            results[k] = _work(k, rounds)
        except BaseException as exc:  # reported by the main thread below
            results[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    for k in range(workers):
        got = results[k]
        assert not isinstance(got, BaseException), repr(got)
        assert got == _expected(k, rounds)


def test_a_simulated_launch_waits_for_the_launch_lock() -> None:
    if not _launch.SIMULATED:
        return
    from numba import cuda

    @cuda.jit
    def probe(out):  # noqa: ANN001
        out[0] = 1.0

    out = np.zeros(1)
    launcher = threading.Thread(target=lambda: probe[1, 1](out))
    with _launch.SIMULATOR_LAUNCH_LOCK:
        launcher.start()
        launcher.join(timeout=0.5)
        assert launcher.is_alive() and out[0] == 0.0
        probe[1, 1](out)  # the lock is re-entrant for its holder
        assert out[0] == 1.0
        out[0] = 0.0
    launcher.join(timeout=60)
    assert not launcher.is_alive() and out[0] == 1.0
