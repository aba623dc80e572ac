"""The CUDA backend refuses, at load time and with the fix named, a NumPy its compiler rejects."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import numpy
if hasattr(numpy, "row_stack"):
    del numpy.row_stack  # what NumPy 2.5 removed
try:
    import gtensor.kernels.cuda
except ImportError as exc:
    print(exc)
else:
    print("loaded")
"""


def test_numpy_without_row_stack_is_refused_with_the_fix_named() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("[cuda] numba-cuda "), done.stdout
    assert "install NumPy below 2.5" in done.stdout
