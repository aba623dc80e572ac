"""``python -m bench`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba.core.config
import pytest

from bench.__main__ import main
from bench.results import validate

ROOT = Path(__file__).resolve().parents[2]
REAL_GPU = not numba.core.config.ENABLE_CUDASIM  # tests/conftest.py simulates without one


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_tiny_run_writes_json_and_plot(tmp_path, capsys) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    assert main(["--tiny", "--only", "copy", "--json", str(out), "--plot", str(png)]) == 0
    printed = capsys.readouterr().out
    assert "copy.contiguous_transpose" in printed and str(out) in printed
    validate(json.loads(out.read_text()))
    assert png.stat().st_size > 0


def test_list_and_unknown_case(capsys) -> None:
    assert main(["--list"]) == 0
    assert "memory.allocator_churn" in capsys.readouterr().out
    assert main(["--only", "nothing-like-this"]) == 2


@pytest.mark.parametrize("simulated", [False, True], ids=["no-gpu", "simulator-on"])
def test_cuda_without_a_real_gpu_exits_with_a_message(simulated: bool) -> None:
    if not simulated and REAL_GPU:
        pytest.skip("a real GPU is present")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    if simulated:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    done = _run("--device", "cuda", env=env)
    assert done.returncode == 2
    assert "--device cuda" in done.stderr
    assert ("simulated" in done.stderr) if simulated else ("no CUDA GPU" in done.stderr)


@pytest.mark.gpu
def test_cuda_tiny_run(tmp_path) -> None:
    out = tmp_path / "cuda.json"
    done = _run("--device", "cuda", "--tiny", "--only", "copy", "memory.allocator_churn",
                "--json", str(out), env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(out.read_text())
    validate(doc)
    assert doc["machine"]["gpus"]
    assert all(c["results"]["gtensor"]["status"] == "ok" for c in doc["cases"])
