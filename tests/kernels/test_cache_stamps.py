"""A disk-cached kernel recompiles when only a kernel module it inlines from changes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from gtensor.kernels import cache_stamps
from gtensor.kernels.cpu import softmax_rows

# Run in a fresh process: registers the two files as gtensor.kernels modules, compiles
# (or loads from the disk cache) a kernel that inlines the helper, prints its result.
_PROBE = textwrap.dedent("""
    import importlib.util, sys
    import gtensor.kernels  # installs the stamped locators

    def load(name, path):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    folder = sys.argv[1]
    load("gtensor.kernels._probe_helper", folder + "/helper.py")
    kernel = load("gtensor.kernels._probe_kernel", folder + "/kernel.py")
    print(kernel.twice_plus(1.0), len(kernel.twice_plus.stats.cache_hits))
""")

_KERNEL = textwrap.dedent("""
    from numba import njit
    from gtensor.kernels._probe_helper import plus

    @njit(cache=True)
    def twice_plus(x):
        return 2.0 * plus(x)
""")


def _run(folder: Path) -> tuple[float, int]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", _PROBE, str(folder)], env=env, check=True,
                         capture_output=True, text=True, timeout=240).stdout.split()
    return float(out[0]), int(out[1])


def test_a_changed_helper_misses_the_cache_and_an_unchanged_one_hits(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text(_KERNEL)
    helper = tmp_path / "helper.py"
    helper.write_text("from numba import njit\n\n@njit\ndef plus(x):\n    return x + 1.0\n")
    assert _run(tmp_path) == (4.0, 0)  # compiled and saved
    assert _run(tmp_path) == (4.0, 1)  # loaded from the disk cache
    helper.write_text("from numba import njit\n\n@njit\ndef plus(x):\n    return x + 2.0\n")
    assert _run(tmp_path) == (6.0, 0)  # kernel.py is unchanged: Numba alone would give 4.0


def test_the_stamp_covers_the_helpers_a_kernel_module_reaches() -> None:
    names = {Path(p).name for p in cache_stamps.reached_files(softmax_rows)}
    assert {"softmax_rows.py", "fast_math.py"} <= names
