"""bench/gpu_check.sh: valid shell, executable, time limits that fit in 8 minutes."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "gpu_check.sh"


def test_script_parses_and_is_executable() -> None:
    assert os.access(SCRIPT, os.X_OK)
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_time_limits_add_up_to_under_eight_minutes() -> None:
    text = SCRIPT.read_text()
    limit = {k: int(v) for k, v in re.findall(r"^(\w+_S)=\$\{\w+:-(\d+)\}", text, re.M)}
    kill_after = sum(int(v) for v in re.findall(r"--kill-after=(\d+)", text))
    worst = limit["INSTALL_S"] + sum(limit.values()) + kill_after  # pip may be tried twice
    assert worst + 15 < 8 * 60


def test_script_runs_the_suites_cuda_side_and_the_cuda_benchmark_into_outdir() -> None:
    text = SCRIPT.read_text()
    assert '-m pytest -n 8 -q -p no:cacheprovider -k "not cpu"' in text and "-m gpu" not in text
    assert '-m bench --device cuda --json "$OUT/' in text
    assert "--no-index" in text  # never reaches for the network
