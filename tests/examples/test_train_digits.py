"""The digits example, run as a user runs it: each model must print a test accuracy >= 97%."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("tqdm")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_digits.py"
LINE = re.compile(r"^(mlp|cnn): test accuracy (\d\.\d{4}) \((\d+)/(\d+)\) in ([\d.]+) s$",
                  re.MULTILINE)


def _run(*args: str) -> list[tuple[str, float, float]]:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--device", "cpu", *args],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [(m[0], float(m[1]), float(m[4])) for m in LINE.findall(proc.stdout)]


@pytest.mark.slow
def test_mlp_reaches_97_percent() -> None:
    [(name, acc, seconds)] = _run("--model", "mlp")
    assert name == "mlp" and acc >= 0.97, (acc, seconds)


@pytest.mark.slow
def test_cnn_reaches_97_percent() -> None:
    [(name, acc, seconds)] = _run("--model", "cnn")
    assert name == "cnn" and acc >= 0.97, (acc, seconds)
