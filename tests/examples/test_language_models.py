"""The language-model examples train a few steps in-process: the loss falls, a sample prints."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name,args", [
    ("small_transformer", ["--d-model", "16", "--context", "8"]),
    # 3 steps of 4 windows of 8 characters moved the loss by less than its batch-to-batch
    # noise: six steps of 16 windows of 16 fall at every seed tried (0-4)
    ("char_lstm", ["--hidden", "16", "--length", "16", "--steps", "6", "--batch-size", "16"]),
])
def test_a_few_steps_lower_the_loss_and_sample(name, args, capsys) -> None:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    losses = example.main(["--steps", "3", "--sample-chars", "3", "--layers", "1",
                           "--batch-size", "4", *args])
    out = capsys.readouterr().out
    assert len(losses) >= 3 and all(math.isfinite(v) for v in losses)
    assert losses[-1] < losses[0]
    [line] = [s for s in out.splitlines() if s.startswith("sample: ")]
    assert len(line) > len("sample: ") + 3
