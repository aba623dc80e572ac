"""Test-suite switches: the simulated CUDA device, the device/dtype parametrization, tiers.

Without a GPU, ``NUMBA_ENABLE_CUDASIM=1`` is set here, before anything imports
Numba, so the ``cuda`` device runs gtensor's CUDA kernels in Numba's simulator.
"""

from __future__ import annotations

import os
import shutil
import subprocess


def _real_gpu() -> bool:
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


REAL_GPU = _real_gpu()
if not REAL_GPU:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import background  # noqa: E402
import numba.core.config  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

DEVICES = ("cpu", "cuda")


def _check_simulator_state() -> None:
    simulated = bool(numba.core.config.ENABLE_CUDASIM)
    if simulated == REAL_GPU:
        pytest.exit("the CUDA simulator was switched " + ("on" if simulated else "off")
                    + " inside the test process; a test that needs the simulator on a GPU "
                    "machine must run it in a subprocess", returncode=3)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _check_simulator_state()
    skip = pytest.mark.skip(reason="needs a real NVIDIA GPU")
    for item in items:
        if "gpu" in item.keywords and not REAL_GPU:
            item.add_marker(skip)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the background jobs of the selected subprocess-bound tests (tests/background.py).

    Not in pytest-xdist workers: each collects every test, and those tests start their own
    jobs when they run.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    started = set()
    for item in session.items:
        module = getattr(item, "module", None)
        starter = getattr(module, "start_background", None)
        if starter is not None and module not in started:
            started.add(module)
            starter()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    background.stop_all()


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """Every test taking ``device`` runs on cpu and on cuda (real or simulated)."""
    return request.param


@pytest.fixture
def rng() -> np.random.Generator:
    """A seeded NumPy generator for fresh random inputs."""
    return np.random.default_rng(1234)
