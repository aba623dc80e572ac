"""Every CUDA kernel compiles for a real GPU (sm_90), not only under the simulator.

Replays the recorded kernel calls of ``launches.jsonl.gz`` (regenerate with
``launch_recorder.py`` after adding kernels) through Numba's real CUDA target
in a subprocess, one signature per kernel; ``replay.py`` without
``--max-per-kernel`` checks all of them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.slow
def test_each_recorded_kernel_compiles_for_sm90(tmp_path: Path) -> None:
    if importlib.util.find_spec("nvidia") is None:
        pytest.skip("NVVM is not installed (the test extra brings cuda-toolkit[nvvm,nvrtc])")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)  # kernels cached by an earlier run would not count
    shards = 2  # the test process only waits: each core compiles half of the ops
    runs = [subprocess.Popen(
        [sys.executable, str(HERE / "replay.py"), str(HERE / "launches.jsonl.gz"),
         "--max-per-kernel", "1", "--shard", f"{i}/{shards}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(shards)]
    compiled = 0
    for run in runs:
        out, err = run.communicate(timeout=900)
        summary = out.strip().splitlines()[-1] if out.strip() else err
        assert run.returncode == 0, out[-6000:] + err[-3000:]
        assert ": 0 failed" in summary
        compiled += int(summary.split(" kernel signatures")[0].rsplit(" ", 1)[1])
    assert compiled > 150, compiled  # the corpus reaches the kernels it should
