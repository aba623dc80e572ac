"""Draw a memory snapshot: segments and blocks of each device over time.

Usage::

    python -m gtensor.memory.viz SNAPSHOT.json -o out.png

``SNAPSHOT.json`` is what :func:`gtensor.memory.dump_snapshot` writes. The
x axis is the recorded event sequence (``record_history(True)`` before the
work); the y axis stacks the segments, each at its own height, with blocks at
their offset inside. Blocks still alive at the end run to the right edge; a
snapshot without a trace shows its segments and blocks as they are.
Needs matplotlib (``pip install gtensor[bench]``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .policy import MiB

_SEGMENT_COLOR = "#d9d9d9"
_PENDING_COLOR = "#f4a582"
_PALETTE = ("#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#64b5cd", "#dd8452")


def _lifetimes(events: list[dict[str, Any]], opening: str, closing: str, end: int):
    """Pair opening and closing events by address: ``[(addr, size, start, stop)]``."""
    open_: dict[int, tuple[int, int]] = {}
    spans = []
    for event in events:
        if event["action"] == opening:
            open_[event["addr"]] = (event["size"], event["seq"])
        elif event["action"] == closing and event["addr"] in open_:
            size, start = open_.pop(event["addr"])
            spans.append((event["addr"], size, start, event["seq"]))
    spans.extend((addr, size, start, end) for addr, (size, start) in open_.items())
    return spans


def layout(snapshot: dict[str, Any], device: str) -> dict[str, Any]:
    """Compute the rectangles to draw for one device.

    Args:
        snapshot: as returned by :func:`gtensor.memory.memory_snapshot`.
        device: the device name (``"cpu"``, ``"cuda:0"``).

    Returns:
        ``{"segments": [...], "blocks": [...], "x_range": (lo, hi),
        "height": bytes}``; each rectangle is ``(x0, x1, y0, y1, state)``
        with ``y`` in bytes of the stacked segments.

    Example:
        >>> snap = {"segments": [{"device": "cpu", "address": 0, "total_size": 1024,
        ...   "blocks": [{"address": 0, "size": 512, "state": "active_allocated"}]}],
        ...   "device_traces": {"cpu": []}}
        >>> layout(snap, "cpu")["blocks"]
        [(0, 1, 0, 512, 'active_allocated')]
    """
    events = snapshot.get("device_traces", {}).get(device, [])
    current = [s for s in snapshot["segments"] if s["device"] == device]
    lo = events[0]["seq"] if events else 0
    hi = events[-1]["seq"] + 1 if events else 1
    segments = _lifetimes(events, "segment_alloc", "segment_free", hi)
    traced = {addr for addr, *_ in segments}
    segments += [
        (s["address"], s["total_size"], lo, hi) for s in current if s["address"] not in traced
    ]
    blocks = [
        (addr, size, start, stop, "active_allocated")
        for addr, size, start, stop in _lifetimes(events, "alloc", "free_completed", hi)
    ]
    live = {b[0] for b in blocks if b[3] == hi}
    for seg in current:
        for block in seg["blocks"]:
            if block["state"] != "inactive" and block["address"] not in live:
                blocks.append((block["address"], block["size"], lo, hi, block["state"]))
    extent: dict[int, int] = {}
    for addr, size, _, _ in segments:
        extent[addr] = max(size, extent.get(addr, 0))
    base: dict[int, int] = {}
    height = 0
    for addr in sorted(extent):
        base[addr] = height
        height += extent[addr]
    spans = [(addr, addr + extent[addr], base[addr]) for addr in sorted(extent)]

    def y_of(addr: int) -> int:
        for start, stop, y in spans:
            if start <= addr < stop:
                return y + addr - start
        return 0

    return {
        "segments": [(x0, x1, base[a], base[a] + s, "segment") for a, s, x0, x1 in segments],
        "blocks": [(x0, x1, y_of(a), y_of(a) + s, state) for a, s, x0, x1, state in blocks],
        "x_range": (lo, hi),
        "height": height,
    }


def draw(snapshot: dict[str, Any], output: str) -> list[str]:
    """Draw every device of ``snapshot`` into one PNG (one panel per device).

    Returns:
        The device names drawn.

    Example:
        >>> draw({"segments": [], "device_traces": {}}, "out.png")  # doctest: +SKIP
        []
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError as exc:
        raise RuntimeError(
            "[viz] drawing a snapshot needs matplotlib: pip install gtensor[bench]"
        ) from exc
    devices = sorted(
        {s["device"] for s in snapshot["segments"]} | set(snapshot.get("device_traces", {}))
    )
    fig, axes = plt.subplots(
        max(len(devices), 1), 1, figsize=(10, 3 + 3 * len(devices)), squeeze=False
    )
    for ax, name in zip(axes[:, 0], devices, strict=False):
        picture = layout(snapshot, name)
        segment_style = {"facecolor": _SEGMENT_COLOR, "edgecolor": "grey", "linewidth": 0.5}
        for x0, x1, y0, y1, _ in picture["segments"]:
            ax.add_patch(Rectangle((x0, y0 / MiB), x1 - x0, (y1 - y0) / MiB, **segment_style))
        for i, (x0, x1, y0, y1, state) in enumerate(picture["blocks"]):
            color = _PENDING_COLOR if state == "active_pending_free" else _PALETTE[i % 7]
            block_style = {"facecolor": color, "edgecolor": "none", "alpha": 0.85}
            ax.add_patch(Rectangle((x0, y0 / MiB), x1 - x0, (y1 - y0) / MiB, **block_style))
        lo, hi = picture["x_range"]
        ax.set_xlim(lo, hi)
        ax.set_ylim(0, max(picture["height"] / MiB, 1e-3))
        ax.set_title(f"{name}: segments (grey) and blocks over time")
        ax.set_xlabel("event")
        ax.set_ylabel("MiB (segments stacked)")
    fig.tight_layout()
    fig.savefig(output, dpi=100)
    plt.close(fig)
    return devices


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m gtensor.memory.viz SNAPSHOT -o out.png``.

    Example:
        >>> main(["snapshot.json", "-o", "out.png"])  # doctest: +SKIP
        0
    """
    parser = argparse.ArgumentParser(
        prog="python -m gtensor.memory.viz", description="Draw a gtensor memory snapshot."
    )
    parser.add_argument("snapshot", help="JSON file written by gtensor.memory.dump_snapshot")
    parser.add_argument("-o", "--output", default="memory.png", help="PNG file to write")
    args = parser.parse_args(argv)
    with open(args.snapshot, encoding="utf-8") as handle:
        snapshot = json.load(handle)
    devices = draw(snapshot, args.output)
    print(f"wrote {args.output} ({', '.join(devices) or 'no devices'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
