"""Every CUDA kernel compiles for a real GPU (sm_90), not only under the simulator.

Replays the recorded kernel calls of ``launches.jsonl.gz`` (regenerate with
``launch_recorder.py`` after adding kernels) through Numba's real CUDA target
in a subprocess, one signature per kernel, started when the suite is collected
(``tests/background.py``); ``replay.py`` without ``--max-per-kernel`` checks
all of them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import background
import pytest

HERE = Path(__file__).resolve().parent
SHARDS = 2  # processes, each compiling the kernels of a share of the ops


def start_background() -> None:
    """Start the replay at collection (tests/background.py): it only needs the other core."""
    if importlib.util.find_spec("nvidia") is None:
        return
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp()  # kernels cached by an earlier run won't count
    for i in range(SHARDS):
        background.start(f"sm90-{i}", [sys.executable, str(HERE / "replay.py"),
                                       str(HERE / "launches.jsonl.gz"), "--max-per-kernel", "1",
                                       "--shard", f"{i}/{SHARDS}"], env)


@pytest.mark.slow
def test_each_recorded_kernel_compiles_for_sm90() -> None:
    if importlib.util.find_spec("nvidia") is None:
        pytest.skip("NVVM is not installed (the test extra brings cuda-toolkit[nvvm,nvrtc])")
    start_background()  # when collection did not (a pytest-xdist worker)
    compiled = 0
    for i in range(SHARDS):
        code, out, err = background.result(f"sm90-{i}", timeout=1200)
        summary = out.strip().splitlines()[-1] if out.strip() else err
        assert code == 0, out[-6000:] + err[-3000:]
        assert ": 0 failed" in summary
        compiled += int(summary.split(" kernel signatures")[0].rsplit(" ", 1)[1])
    assert compiled > 150, compiled  # the corpus reaches the kernels it should
