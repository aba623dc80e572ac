"""Plain-data views of the allocator's segments and blocks, for ``memory_snapshot``."""

from __future__ import annotations

from typing import Any

from .block import Block, Segment


def block_state(block: Block) -> str:
    """Return PyTorch's name for a block's state.

    Example:
        >>> block_state(Segment(0, 512, "cpu", 0, True, None).head)
        'active_pending_free'
    """
    if block.allocated:
        return "active_allocated"
    return "inactive" if block.in_pool or block.cached else "active_pending_free"


def segment_entry(segment: Segment) -> dict[str, Any]:
    """Return one segment and its blocks as plain data (see ``CachingAllocator.snapshot``).

    Example:
        >>> entry = segment_entry(Segment(0, 512, "cpu", 0, True, None))
        >>> entry["total_size"], [b["size"] for b in entry["blocks"]]
        (512, [512])
    """
    blocks = [
        {
            "address": b.ptr,
            "size": b.size,
            "requested_size": 0 if b.cached else b.requested,
            "state": block_state(b),
            "cached": b.cached,
        }
        for b in segment.blocks()
    ]
    return {
        "device": str(segment.device),
        "address": segment.ptr,
        "total_size": segment.size,
        "stream": segment.stream,
        "segment_type": "small" if segment.small else "large",
        "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
        "active_size": sum(b["size"] for b in blocks if b["state"] != "inactive"),
        "requested_size": sum(b["requested_size"] for b in blocks),
        "blocks": blocks,
    }
