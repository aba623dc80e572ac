"""Blocks and segments: the pieces of memory the caching allocator hands out and keeps.

A *segment* is one raw allocation from the device. Its bytes are covered, in
address order, by a doubly linked list of *blocks*: each block is handed out
to a caller, waiting for stream work before it can be reused, or free in a
pool. Neighbouring free blocks of one segment are merged when they meet in
the pool (see :class:`~gtensor.memory.allocator.CachingAllocator` for the
exact-size free lists that hold freed blocks until then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from ..device import device as Device


class Segment:
    """One raw allocation, cut into blocks.

    Attributes:
        ptr: start address.
        size: bytes reserved from the device.
        device: where it lives.
        stream: handle of the stream whose blocks it holds.
        small: whether it belongs to the small pool.
        buffer: for host-backed memory, a ``uint8`` array over the whole
            segment; ``None`` on a real GPU.
        head: the block at ``ptr``.
        owner: the allocator that reserved it (``None`` once released).

    Example:
        >>> seg = Segment(4096, 2048, "cpu", 0, True, None)
        >>> seg.head.size
        2048
    """

    __slots__ = ("ptr", "size", "device", "stream", "small", "buffer", "head", "owner")

    def __init__(
        self,
        ptr: int,
        size: int,
        device: Device | str,
        stream: int,
        small: bool,
        buffer: np.ndarray | None,
    ) -> None:
        self.ptr = ptr
        self.size = size
        self.device = device
        self.stream = stream
        self.small = small
        self.buffer = buffer
        self.head = Block(ptr, size, 0, device, stream, self)
        self.owner: Any = None

    def blocks(self) -> list[Block]:
        """Return the segment's blocks in address order.

        Example:
            >>> [b.size for b in Segment(0, 1024, "cpu", 0, True, None).blocks()]
            [1024]
        """
        out = []
        block: Block | None = self.head
        while block is not None:
            out.append(block)
            block = block.next
        return out


class Block:
    """A piece of a segment; what :func:`gtensor.memory.allocate` returns.

    Attributes:
        ptr: start address (device or host).
        size: bytes it occupies (``requested`` rounded up by the policy).
        requested: bytes the caller asked for.
        device: where it lives.
        stream: handle of the stream it was allocated on.
        host: for host-backed memory while allocated, a 1-D ``uint8`` array
            of exactly ``requested`` bytes viewing the block (not a copy);
            ``None`` on a real GPU and once freed.
        allocated: whether a caller holds it.
        cached: whether it waits, freed and unmerged, in an exact-size free list.
        view: the last ``host`` handed out, kept for reuse from a free list.
        flat: the typed 1-D array over the block that the last storage made of it
            (``Storage.flat``), kept for reuse while ``requested`` stays the same.
        code: ``size << 2 | small << 1 | split``, the block's part of an allocator
            event (see :mod:`~gtensor.memory.event_log`), kept up to date by
            :func:`take_front` and :func:`absorb_next`.
        key: ``stream << 64 | size``, its exact-size free list's key (kept likewise).

    Example:
        >>> seg = Segment(0, 1024, "cpu", 0, True, None)
        >>> seg.head.allocated, seg.head.is_split()
        (False, False)
    """

    __slots__ = (
        "ptr",
        "size",
        "requested",
        "device",
        "stream",
        "segment",
        "host",
        "allocated",
        "cached",
        "view",
        "flat",
        "in_pool",
        "prev",
        "next",
        "stream_uses",
        "freed_tick",
        "code",
        "key",
    )

    def __init__(
        self,
        ptr: int,
        size: int,
        requested: int,
        device: Device | str,
        stream: int,
        segment: Segment,
    ) -> None:
        self.ptr = ptr
        self.size = size
        self.requested = requested
        self.device = device
        self.stream = stream
        self.segment = segment
        self.host: np.ndarray | None = None
        self.allocated = False
        self.cached = False
        self.view: np.ndarray | None = None
        self.flat: Any = None
        self.in_pool = False
        self.prev: Block | None = None
        self.next: Block | None = None
        self.stream_uses: dict[int, Any] | None = None
        self.freed_tick = 0
        self.code = size << 2 | segment.small << 1
        self.key = stream << 64 | size

    def recode(self) -> None:
        """Bring :attr:`code` and :attr:`key` up to date after the block's size or neighbours
        changed."""
        size = self.size
        self.code = size << 2 | self.segment.small << 1 | (
            self.prev is not None or self.next is not None)
        self.key = self.stream << 64 | size

    def is_split(self) -> bool:
        """Whether the block shares its segment with other blocks."""
        return self.prev is not None or self.next is not None

    def __repr__(self) -> str:
        free = self.in_pool or self.cached
        state = "allocated" if self.allocated else ("free" if free else "pending")
        return (
            f"Block(ptr={self.ptr:#x}, size={self.size}, requested={self.requested}, "
            f"device={self.device}, stream={self.stream}, {state})"
        )


def take_front(chunk: Block, size: int, requested: int) -> Block:
    """Cut a new block of ``size`` bytes off the front of ``chunk`` and return it.

    ``chunk`` keeps the rest (it must be larger than ``size``); with
    ``size == chunk.size`` the new block replaces ``chunk`` in the list.

    Example:
        >>> seg = Segment(0, 2048, "cpu", 0, True, None)
        >>> front = take_front(seg.head, 512, 500)
        >>> [(b.ptr, b.size) for b in seg.blocks()]
        [(0, 512), (512, 1536)]
    """
    block = Block(chunk.ptr, size, requested, chunk.device, chunk.stream, chunk.segment)
    block.prev = chunk.prev
    if chunk.prev is not None:
        chunk.prev.next = block
    else:
        chunk.segment.head = block
    if size == chunk.size:
        block.next = chunk.next
        if chunk.next is not None:
            chunk.next.prev = block
    else:
        block.next = chunk
        chunk.prev = block
        chunk.ptr += size
        chunk.size -= size
        chunk.recode()
    block.recode()
    return block


def absorb_next(block: Block) -> Block:
    """Merge ``block.next`` into ``block`` and return the absorbed neighbour.

    Example:
        >>> seg = Segment(0, 2048, "cpu", 0, True, None)
        >>> _ = take_front(seg.head, 512, 512)
        >>> _ = absorb_next(seg.head)
        >>> [(b.ptr, b.size) for b in seg.blocks()]
        [(0, 2048)]
    """
    nxt = block.next
    assert nxt is not None
    block.size += nxt.size
    block.next = nxt.next
    if nxt.next is not None:
        nxt.next.prev = block
    block.recode()
    return nxt
