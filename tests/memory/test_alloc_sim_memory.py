"""GTENSOR_CUDA_SIM_MEMORY: sizes with units; a bad value only fails the simulated cuda device."""

from __future__ import annotations

import pytest

import gtensor as gt
import gtensor.memory as mem
from gtensor.device import device
from gtensor.errors import GTensorError
from gtensor.memory.config import AllocatorConfigError, parse_sim_memory
from gtensor.memory.registry import DeviceAllocators

KiB, MiB, GiB = 1024, 1024**2, 1024**3


@pytest.mark.parametrize("text, expected", [
    ("4096", 4096), (" 4096 ", 4096), ("0", 0), ("512MB", 512 * MiB), ("512mb", 512 * MiB),
    ("512M", 512 * MiB), ("2GiB", 2 * GiB), ("2 GB", 2 * GiB), ("1.5G", 3 * GiB // 2),
    ("1.5k", 1536), (".5KiB", 512), ("3B", 3), ("1T", 1024 * GiB), ("+64K", 64 * KiB),
    ("0.3", 0),
])
def test_sizes_with_units(text: str, expected: int) -> None:
    assert parse_sim_memory(text) == expected


@pytest.mark.parametrize("text", [
    "lots", "1Q", "GB", "1.5.5G", "nan", "inf", "1e3", "1_000", "12 34", "-1", "-1G",
    "9" * 5000, str(2**63), "8EB",
])
def test_bad_sizes_raise_a_typed_error(text: str) -> None:
    with pytest.raises(AllocatorConfigError, match=r"^\[GTENSOR_CUDA_SIM_MEMORY\] ") as info:
        parse_sim_memory(text)
    assert isinstance(info.value, GTensorError) and isinstance(info.value, ValueError)


def test_unit_reaches_the_simulated_device(fresh_allocators) -> None:
    fresh_allocators({"GTENSOR_CUDA_SIM_MEMORY": "8MiB"})
    assert mem.mem_get_info(device("cuda", 0)) == (8 * MiB, 8 * MiB)


def test_bad_value_spares_cpu_and_fails_on_cuda_each_time(fresh_allocators) -> None:
    fresh_allocators({"GTENSOR_CUDA_SIM_MEMORY": "plenty"})
    block = mem.allocate(100, "cpu")
    assert mem.memory_allocated("cpu") >= 100
    mem.free(block)
    assert gt.ones(3).tolist() == [1.0, 1.0, 1.0]
    for _ in range(2):
        with pytest.raises(AllocatorConfigError, match=r"^\[GTENSOR_CUDA_SIM_MEMORY\] expects a "
                           r"size .* got 'plenty'"):
            mem.allocate(16, device("cuda", 0))
    assert mem.memory_stats("cpu")["num_ooms"] == 0


def test_environment_is_read_when_allocators_are_recreated(monkeypatch) -> None:
    monkeypatch.setenv("GTENSOR_CUDA_SIM_MEMORY", "2MB")
    allocators = DeviceAllocators(simulated=True)
    assert allocators.get(device("cuda", 0)).capacity() == 2 * MiB
    monkeypatch.setenv("GTENSOR_CUDA_SIM_MEMORY", "2 bananas")
    allocators = DeviceAllocators(simulated=True)
    assert allocators.get(device("cpu")).config.caching
    with pytest.raises(AllocatorConfigError, match="2 bananas"):
        allocators.get(device("cuda", 0))
