"""Requests no host can hold become the typed OutOfMemoryError, never a raw Python error."""

from __future__ import annotations

import pytest

import gtensor.memory as mem
from gtensor.errors import GTensorError, OutOfMemoryError
from gtensor.memory import raw_host
from gtensor.memory.raw import RawOutOfMemory
from gtensor.memory.raw_host import HostMemory


def test_host_memory_past_ssize_t_is_raw_oom() -> None:
    host = HostMemory()
    with pytest.raises(RawOutOfMemory):
        host.alloc(2**63)
    assert host.free_bytes() == host.capacity()


@pytest.mark.parametrize("failure", [MemoryError("numpy"), OverflowError("size"),
                                     OSError(12, "Cannot allocate memory"), ValueError("dim")])
@pytest.mark.parametrize("nbytes", [1000, 8 << 20])
def test_host_failures_become_raw_oom(monkeypatch, failure: Exception, nbytes: int) -> None:
    def refuse(n: int) -> None:
        raise failure

    monkeypatch.setattr(raw_host, "_aligned_small", refuse)
    monkeypatch.setattr(raw_host, "_aligned_huge", refuse)
    with pytest.raises(RawOutOfMemory):
        HostMemory().alloc(nbytes)


def test_allocate_past_ssize_t_is_typed_oom(fresh_allocators) -> None:
    with pytest.raises(OutOfMemoryError, match=r"^\[allocate\] out of memory on cpu") as info:
        mem.allocate(2**63, "cpu")
    assert isinstance(info.value, GTensorError) and isinstance(info.value, MemoryError)
    assert mem.memory_stats("cpu")["num_ooms"] == 1
    assert mem.memory_allocated("cpu") == 0


def test_numpy_memory_error_is_typed_oom(fresh_allocators, monkeypatch) -> None:
    def refuse(n: int) -> None:
        raise MemoryError(f"Unable to allocate {n} bytes")

    monkeypatch.setattr(raw_host, "_aligned_huge", refuse)
    with pytest.raises(OutOfMemoryError, match=r"^\[allocate\] out of memory on cpu"):
        mem.allocate(64 << 20, "cpu")
    block = mem.allocate(100, "cpu")
    assert block.host.nbytes == 100
    mem.free(block)
