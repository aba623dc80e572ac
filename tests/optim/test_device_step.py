"""A whole training step on CUDA stays on the device.

Two counts must stay flat over a step: gtensor's own (``gt.transfer_count()``,
the storage layer and kernels that read results back) and, as a cross-check,
every host<->device copy Numba or CuPy makes, counted where those libraries
make them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numba.core.config
import pytest

import gtensor as gt
import gtensor.nn.functional as F


@contextmanager
def library_transfers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record each copy between host and device made through Numba or CuPy.

    The simulator copies kernel arguments back after every launch; those copies
    (made from inside Numba) are how it runs, not transfers of the program's.
    """
    seen: list[str] = []

    def counting(owner: Any, name: str) -> None:
        original = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if not (numba.core.config.ENABLE_CUDASIM and caller.startswith("numba.")):
                seen.append(name)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)

    from numba import cuda

    counting(cuda, "to_device")
    if numba.core.config.ENABLE_CUDASIM:
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        counting(FakeCUDAArray, "copy_to_host")
        counting(FakeCUDAArray, "copy_to_device")
    else:
        import cupy
        from numba.cuda.cudadrv import driver

        counting(driver, "host_to_device")
        counting(driver, "device_to_host")
        runtime = cupy.cuda.runtime
        for name in ("memcpy", "memcpyAsync"):
            original = getattr(runtime, name)

            def host_involved(dst: int, src: int, *args: Any, _original: Any = original,
                              _name: str = name) -> Any:
                kinds = {runtime.pointerGetAttributes(p).type for p in (dst, src)}
                if kinds & {0, 1}:  # unregistered or pinned host memory
                    seen.append(_name)
                return _original(dst, src, *args)

            monkeypatch.setattr(runtime, name, host_involved)
    yield seen


def test_mlp_training_step_on_cuda_makes_no_host_transfers(monkeypatch):
    gt.manual_seed(0)
    model = gt.nn.Sequential(gt.nn.Linear(6, 8), gt.nn.ReLU(), gt.nn.Linear(8, 3)).to("cuda")
    opt = gt.optim.Adam(model.parameters(), lr=1e-2)
    x = gt.randn(4, 6, device="cuda")
    y = gt.randint(0, 3, (4,), device="cuda")
    losses = []
    for _ in range(3):
        before = gt.transfer_count()
        with library_transfers(monkeypatch) as seen:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad()
        assert seen == []  # forward, backward and update: no copy made by Numba or CuPy
        assert gt.transfer_count() == before  # ... nor by gtensor
        losses.append(loss.item())
    assert losses[-1] < losses[0]


def test_the_counters_see_a_copy_to_the_host(monkeypatch):
    x = gt.ones(3, device="cuda")
    before = gt.transfer_count()["device_to_host"]
    x.tolist()
    assert gt.transfer_count()["device_to_host"] == before + 1
    with library_transfers(monkeypatch) as seen:
        gt.cuda.synchronize()
        x.index_select(0, gt.tensor([0, 2], device="cuda")).nonzero()  # reads a count back
    assert seen
