"""The small Transformer example trains a few steps in-process: the loss falls, a sample prints."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "small_transformer.py"


def test_a_few_steps_lower_the_loss_and_sample(capsys) -> None:
    spec = importlib.util.spec_from_file_location("small_transformer", SCRIPT)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    losses = example.main(["--steps", "3", "--sample-chars", "3", "--d-model", "16",
                           "--context", "8", "--layers", "1", "--batch-size", "4"])
    out = capsys.readouterr().out
    assert len(losses) == 3 and all(math.isfinite(v) for v in losses)
    assert losses[-1] < losses[0] < math.log(40)
    [line] = [s for s in out.splitlines() if s.startswith("sample: ")]
    assert len(line) == len("sample: ") + 4 + 3
