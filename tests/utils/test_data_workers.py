"""DataLoader worker processes: order, worker info and seeds, errors, persistence, options.

The datasets live at module level: spawned workers unpickle them by reference.
Every loader has a ``timeout`` so a hung worker fails the test instead of stalling it.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np
import pytest

import gtensor as gt
from gtensor.utils.data import DataLoader, TensorDataset, get_worker_info

_INIT: dict[str, int] = {}


class Squares:
    def __len__(self) -> int:
        return 7

    def __getitem__(self, i: int) -> tuple[gt.Tensor, int]:
        return gt.full((2,), float(i * i)), i


class WhoAmI:
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> tuple[int, ...]:
        info = get_worker_info()
        assert info is not None and isinstance(info.dataset, WhoAmI)
        return (i, info.id, info.num_workers, info.seed, _INIT["tag"], os.getpid(),
                int(random.random() * 2**30), int(np.random.randint(2**30)),
                int(gt.randint(0, 2**30, (1,)).item()))


def _tag_worker(worker_id: int) -> None:
    _INIT["tag"] = 100 + worker_id


class Faulty:
    def __len__(self) -> int:
        return 6

    def __getitem__(self, i: int) -> int:
        if i == 3:
            raise KeyError(f"bad sample {i}")
        if i == 5:
            os._exit(3)
        return i


class Slow:
    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> int:
        time.sleep(1.5)
        return i


def _epochs(loader: DataLoader, n: int = 2) -> list[list[list[float]]]:
    return [[x.tolist() + [y.tolist()] for x, y in loader] for _ in range(n)]


def test_workers_yield_the_in_process_batches_in_order() -> None:
    def loader(ds: object, workers: int, **kw: object) -> DataLoader:
        g = gt.Generator().manual_seed(11)
        return DataLoader(ds, batch_size=2, shuffle=True, generator=g, num_workers=workers,
                          **kw)

    ref = _epochs(loader(Squares(), 0))
    assert ref[0] != ref[1]  # two different shuffles
    assert _epochs(loader(Squares(), 2, timeout=60, prefetch_factor=1)) == ref
    rows = TensorDataset(gt.arange(14).reshape(7, 2).float(), gt.arange(7))
    assert _epochs(loader(rows, 2, timeout=60, persistent_workers=True)) == _epochs(loader(rows, 0))


def test_worker_info_seeds_and_init_fn() -> None:
    assert get_worker_info() is None
    gt.manual_seed(0)
    loader = DataLoader(WhoAmI(), batch_size=1, num_workers=2, worker_init_fn=_tag_worker,
                        timeout=60, collate_fn=lambda b: b[0])
    # a lambda collate_fn cannot reach a spawned worker: the loader says so at start
    with pytest.raises(Exception, match="pickle|lambda"):
        list(loader)
    loader = DataLoader(WhoAmI(), batch_size=2, num_workers=2, worker_init_fn=_tag_worker,
                        timeout=60)
    batches = [[c.tolist() for c in b] for b in loader]
    # batch k was built by worker k % 2, whatever order the workers finished in
    idx, wid, nw, seed, tag, pid, py, npy, gtr = (sum((b[k] for b in batches), [])
                                                  for k in range(9))
    assert idx == [0, 1, 2, 3] and wid == [0, 0, 1, 1] and nw == [2] * 4
    assert tag == [100, 100, 101, 101] and seed[2] == seed[0] + 1
    assert len({pid[0], pid[2], os.getpid()}) == 3
    for draws in (py, npy, gtr):  # each worker draws its own random stream
        assert draws[0] != draws[2] and draws[1] != draws[3]


def test_worker_errors_surface_in_the_main_process() -> None:
    it = iter(DataLoader(Faulty(), batch_size=1, num_workers=1, timeout=60))
    procs = list(it.pool.workers)
    assert [next(it).tolist() for _ in range(3)] == [[0], [1], [2]]
    with pytest.raises(KeyError, match=r"(?s)worker process 0.*Traceback.*bad sample 3"):
        next(it)
    assert not any(p.is_alive() for p in procs)
    with pytest.raises(RuntimeError, match="worker 0 .*exit code 3"):
        list(DataLoader(Faulty(), batch_size=1, num_workers=1, timeout=60,
                        sampler=[0, 5, 1, 2]))
    with pytest.raises(RuntimeError, match="timed out after 0.5 seconds"):
        list(DataLoader(Slow(), num_workers=1, timeout=0.5))


def test_persistent_workers_live_across_epochs() -> None:
    loader = DataLoader(WhoAmI(), batch_size=4, num_workers=2, persistent_workers=True,
                        worker_init_fn=_tag_worker, timeout=60)
    pids = [[b[5].tolist() for b in loader] for _ in range(2)]
    procs = list(loader._pool.workers)
    assert pids[0] == pids[1] and all(p.is_alive() for p in procs)
    loader._pool.shutdown()
    assert not any(p.is_alive() for p in procs)


def test_bad_worker_options() -> None:
    ds = TensorDataset(gt.arange(4))
    for kwargs, msg in (({"num_workers": -1}, "num_workers"),
                        ({"prefetch_factor": 2}, "prefetch_factor"),
                        ({"num_workers": 1, "prefetch_factor": 0}, "prefetch_factor"),
                        ({"persistent_workers": True}, "persistent_workers"),
                        ({"num_workers": 1, "timeout": -1}, "timeout"),
                        ({"multiprocessing_context": "spawn"}, "multiprocessing_context"),
                        ({"num_workers": 1, "multiprocessing_context": "nope"}, "start method")):
        with pytest.raises(ValueError, match=rf"\[DataLoader\] .*{msg}"):
            DataLoader(ds, **kwargs)
    assert len(DataLoader(ds, num_workers=2, pin_memory=True)) == 4  # no worker starts yet
