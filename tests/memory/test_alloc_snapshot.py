"""History recording, snapshots and the snapshot picture."""

import json

import pytest

import gtensor.memory as mem
from gtensor.memory import viz

MiB = 1024 * 1024


def test_snapshot_lists_segments_blocks_and_events(fresh_allocators):
    kept = mem.allocate(1000, "cpu")
    mem.record_history(True)
    a = mem.allocate(3 * MiB, "cpu")
    b = mem.allocate(512, "cpu")
    mem.free(a)
    snapshot = mem.memory_snapshot("cpu")
    segments = {s["address"]: s for s in snapshot["segments"]}
    small = segments[kept.segment.ptr]
    assert small["segment_type"] == "small" and small["total_size"] == 2 * MiB
    assert [(blk["size"], blk["state"]) for blk in small["blocks"]] == [
        (1024, "active_allocated"),
        (512, "active_allocated"),
        (2 * MiB - 1536, "inactive"),
    ]
    assert small["allocated_size"] == small["active_size"] == 1536
    assert small["requested_size"] == 1512
    large = segments[a.segment.ptr]
    assert large["segment_type"] == "large" and large["allocated_size"] == 0
    trace = snapshot["device_traces"]["cpu"]
    assert [e["action"] for e in trace] == [
        "segment_alloc",
        "alloc",
        "alloc",
        "free_requested",
        "free_completed",
    ]
    assert trace[1]["addr"] == a.ptr and trace[1]["size"] == 3 * MiB
    assert trace[2]["addr"] == b.ptr
    assert [e["seq"] for e in trace] == sorted(e["seq"] for e in trace)
    json.dumps(snapshot)  # plain data
    mem.record_history(False)
    mem.free(b)
    assert mem.memory_snapshot("cpu")["device_traces"]["cpu"] == []


def test_history_can_record_stacks_and_is_bounded(fresh_allocators):
    mem.record_history(True, max_entries=3, stacks=True)
    for _ in range(3):
        mem.free(mem.allocate(64, "cpu"))
    trace = mem.memory_snapshot()["device_traces"]["cpu"]
    assert len(trace) == 3
    assert any("test_history_can_record_stacks_and_is_bounded" in f for f in trace[-1]["frames"])
    with pytest.raises(ValueError, match=r"^\[record_history\] max_entries"):
        mem.record_history(True, max_entries=0)
    mem.record_history(False)


def test_oom_is_recorded(fresh_allocators):
    mem.record_history(True)
    mem.set_per_process_memory_fraction(0.0, "cpu")
    with pytest.raises(MemoryError):
        mem.allocate(4096, "cpu")
    assert mem.memory_snapshot("cpu")["device_traces"]["cpu"][-1]["action"] == "oom"
    mem.record_history(False)


def test_layout_places_blocks_inside_stacked_segments():
    snapshot = {
        "segments": [
            {
                "device": "cpu",
                "address": 1000,
                "total_size": 100,
                "blocks": [
                    {"address": 1000, "size": 40, "state": "active_allocated"},
                    {"address": 1040, "size": 60, "state": "inactive"},
                ],
            },
        ],
        "device_traces": {
            "cpu": [
                {"action": "segment_alloc", "addr": 5000, "size": 50, "seq": 10},
                {"action": "alloc", "addr": 5010, "size": 20, "seq": 11},
                {"action": "free_completed", "addr": 5010, "size": 20, "seq": 12},
                {"action": "segment_free", "addr": 5000, "size": 50, "seq": 13},
            ]
        },
    }
    picture = viz.layout(snapshot, "cpu")
    assert picture["x_range"] == (10, 14) and picture["height"] == 150
    assert sorted(picture["segments"]) == [
        (10, 13, 100, 150, "segment"),
        (10, 14, 0, 100, "segment"),
    ]
    assert sorted(picture["blocks"]) == [
        (10, 14, 0, 40, "active_allocated"),  # alive before the trace began
        (11, 12, 110, 130, "active_allocated"),
    ]


@pytest.mark.slow
def test_viz_command_writes_a_png(fresh_allocators, tmp_path):
    pytest.importorskip("matplotlib")
    mem.record_history(True)
    blocks = [mem.allocate(n, "cpu") for n in (700, 3 * MiB, 40_000)]
    mem.free(blocks[1])
    path = tmp_path / "snapshot.json"
    mem.dump_snapshot(path)
    mem.record_history(False)
    out = tmp_path / "out.png"
    assert viz.main([str(path), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
