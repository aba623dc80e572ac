"""GTENSOR_ALLOC_CONF and GTENSOR_CUDA_SIM_MEMORY parsing."""

import pytest

from gtensor.device import device
from gtensor.memory.config import (
    DEFAULT_SIM_MEMORY,
    AllocatorConfig,
    AllocatorConfigError,
    parse_alloc_conf,
    parse_sim_memory,
)
from gtensor.memory.policy import NO_SPLIT_LIMIT

MiB = 1024 * 1024


def test_defaults():
    assert parse_alloc_conf("") == AllocatorConfig()
    config = AllocatorConfig()
    assert config.max_split_size == NO_SPLIT_LIMIT and config.caching


def test_all_options():
    config = parse_alloc_conf(
        " max_split_size_mb:64 , caching:0,garbage_collection_threshold:0.5,"
        "roundup_power2_divisions:4"
    )
    assert config == AllocatorConfig(64 * MiB, False, 0.5, 4)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("max_split:64", "unknown option 'max_split'; known options: caching"),
        ("max_split_size_mb", "needs a value"),
        ("max_split_size_mb:abc", "expects an integer"),
        ("max_split_size_mb:20", "greater than 20"),
        ("caching:2", "expects 0 or 1"),
        ("caching:1,caching:0", "given twice"),
        ("garbage_collection_threshold:1.5", "in (0, 1)"),
        ("garbage_collection_threshold:x", "expects a number"),
        ("roundup_power2_divisions:3", "power of 2"),
    ],
)
def test_bad_options_raise(text, fragment):
    with pytest.raises(AllocatorConfigError) as info:
        parse_alloc_conf(text)
    assert str(info.value).startswith("[GTENSOR_ALLOC_CONF] ")
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_sim_memory():
    assert parse_sim_memory(None) == DEFAULT_SIM_MEMORY
    assert parse_sim_memory(" 4096 ") == 4096
    with pytest.raises(AllocatorConfigError, match=r"^\[GTENSOR_CUDA_SIM_MEMORY\] expects"):
        parse_sim_memory("1Q")
    with pytest.raises(AllocatorConfigError, match=">= 0"):
        parse_sim_memory("-1")


def test_unknown_key_raises_on_first_use_not_before(fresh_allocators):
    import gtensor.memory as mem

    fresh_allocators({"GTENSOR_ALLOC_CONF": "bogus:1"})
    with pytest.raises(AllocatorConfigError, match="unknown option 'bogus'"):
        mem.allocate(16, "cpu")


def test_environment_reaches_the_allocators(fresh_allocators):
    import gtensor.memory as mem

    fresh_allocators(
        {"GTENSOR_ALLOC_CONF": "max_split_size_mb:32", "GTENSOR_CUDA_SIM_MEMORY": str(8 * MiB)}
    )
    assert mem.memory_stats("cpu")["max_split_size"] == 32 * MiB
    assert mem.mem_get_info(device("cuda", 0)) == (8 * MiB, 8 * MiB)


def test_settings_change_at_run_time(fresh_allocators):
    import gtensor.memory as mem

    a, b = mem.allocate(512, "cpu"), mem.allocate(512, "cpu")
    big = mem.allocate(40 * MiB, "cpu")
    assert mem.memory_stats()["oversize_allocations.current"] == 0
    config = mem.set_allocator_settings("max_split_size_mb:32")
    assert config.max_split_size == 32 * MiB
    stats = mem.memory_stats()
    assert stats["oversize_allocations.current"] == stats["oversize_segments.current"] == 1
    mem.free(big)
    assert mem.memory_stats()["oversize_allocations.current"] == 0

    config = mem.set_allocator_settings("caching:0")
    assert not config.caching and config.max_split_size == 32 * MiB  # other keys kept
    assert mem.memory_reserved() == 2 * MiB  # the big segment was released; a, b live
    mem.free(a)
    assert mem.memory_reserved() == 2 * MiB  # b still lives in that segment
    mem.free(b)
    assert mem.memory_reserved() == 0
    c = mem.allocate(1000, "cpu")
    assert c.size == 1000 and mem.memory_reserved() == 1000
    mem.free(c)
    assert mem.memory_reserved() == 0

    assert mem.set_allocator_settings("caching:1").caching
    mem.free(mem.allocate(1000, "cpu"))
    assert mem.memory_reserved() == 2 * MiB
    with pytest.raises(AllocatorConfigError, match="unknown option 'nope'"):
        mem.set_allocator_settings("nope:1")
