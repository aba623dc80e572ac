"""A pool of free blocks ordered for best-fit lookup per stream, and its exact-size free lists."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .block import Block, absorb_next

if TYPE_CHECKING:
    from .stats import PoolCounters


class BlockPool:
    """Free blocks of one pool (small or large), sorted by ``(stream, size, ptr)``.

    ``free_lists`` holds freed blocks not merged yet, by ``stream << 64 | size``
    (see :class:`~gtensor.memory.allocator.CachingAllocator`); :meth:`flush`
    merges them in.

    Args:
        small: whether this is the small pool.

    Example:
        >>> from gtensor.memory.block import Segment
        >>> pool = BlockPool(small=True)
        >>> pool.add(Segment(0, 2048, "cpu", 0, True, None).head)
        >>> pool.best_fit(0, 1024).size, pool.best_fit(7, 1024)
        (2048, None)
    """

    __slots__ = ("small", "free_lists", "_keys", "_blocks")

    def __init__(self, small: bool) -> None:
        self.small = small
        self.free_lists: dict[int, list[Block]] = {}
        self._keys: list[tuple[int, int, int]] = []
        self._blocks: dict[tuple[int, int, int], Block] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[Block]:
        return iter([self._blocks[key] for key in self._keys])

    def add(self, block: Block) -> None:
        """Insert a free block."""
        key = (block.stream, block.size, block.ptr)
        insort(self._keys, key)
        self._blocks[key] = block
        block.in_pool = True

    def remove(self, block: Block) -> None:
        """Take a block out of the pool."""
        key = (block.stream, block.size, block.ptr)
        del self._keys[bisect_left(self._keys, key)]
        del self._blocks[key]
        block.in_pool = False

    def best_fit(self, stream: int, size: int) -> Block | None:
        """Return the smallest free block of ``stream`` holding ``size`` bytes, if any."""
        keys = self._keys
        i = bisect_left(keys, (stream, size, -1))
        if i == len(keys) or keys[i][0] != stream:
            return None
        return self._blocks[keys[i]]

    def largest_first(self, stream: int) -> list[Block]:
        """Return the free blocks of ``stream``, largest first."""
        lo = bisect_left(self._keys, (stream, -1, -1))
        hi = bisect_left(self._keys, (stream + 1, -1, -1))
        return [self._blocks[key] for key in reversed(self._keys[lo:hi])]

    def oversize_to_release(self, stream: int, want: int, limit: int) -> list[Block]:
        """Pick whole free blocks of ``limit`` bytes or more adding up to ``want`` bytes.

        The smallest single block that is enough, else the largest ones until
        they are; an empty list when all of them together are not enough.
        """
        candidates = [b for b in self.largest_first(stream) if not b.is_split() and b.size >= limit]
        fitting = [b for b in candidates if b.size >= want]
        if fitting:
            return fitting[-1:]
        chosen, total = [], 0
        for block in candidates:
            chosen.append(block)
            total += block.size
            if total >= want:
                return chosen
        return []

    def merge(self, block: Block, counts: PoolCounters, tick: int) -> Block:
        """Merge a free block with its neighbours in the pool (taking them out); return the result.

        The result is not in the pool yet; its ``freed_tick`` is the latest of the parts'.
        """
        merged = block
        for neighbour in (block.prev, block.next):
            if neighbour is not None and neighbour.in_pool:
                self.remove(neighbour)
                counts.remove_inactive_split(1, neighbour.size)
                tick = max(tick, neighbour.freed_tick)
                if neighbour is block.prev:
                    absorb_next(neighbour)
                    merged = neighbour
                else:
                    absorb_next(merged)
        merged.requested = 0
        merged.view = merged.flat = None
        merged.freed_tick = tick
        return merged

    def put(self, block: Block, counts: PoolCounters) -> None:
        """Add a merged free block, counting it as inactive if its segment is split."""
        if block.is_split():
            counts.add_inactive_split(1, block.size)
        self.add(block)

    def flush(self, counts: PoolCounters) -> None:
        """Merge every block of the free lists into the pool.

        The allocator's hot path uses the free lists without its lock, so a
        list leaves the dict before it is emptied, one atomic ``pop`` at a
        time: a block freed into it meanwhile is merged here, and a free that
        finds its list gone afterwards puts its block in again
        (:func:`repark`).
        """
        free_lists = self.free_lists
        for key in list(free_lists):
            blocks = free_lists.pop(key, None)
            while blocks:
                try:
                    block = blocks.pop()
                except IndexError:  # taken by a hand-out that still held the list
                    break
                block.cached = False
                if block.is_split():
                    counts.remove_inactive_split(1, block.size)
                self.put(self.merge(block, counts, block.freed_tick), counts)


def repark(block: Block, stale: list[Block], free_lists: dict[int, list[Block]], key: int) -> None:
    """Move a just-freed ``block`` from a free list a flush took out to the current one.

    The block stays where it went if the flush merged it or a hand-out still
    holding the old list took it (see :meth:`BlockPool.flush`).

    Example:
        >>> from gtensor.memory.block import Segment
        >>> block, lists = Segment(0, 512, "cpu", 0, True, None).head, {}
        >>> repark(block, [block], lists, 512); lists[512] == [block]
        True
    """
    while True:
        try:
            stale.remove(block)
        except ValueError:  # merged by the flush, or handed out again: done
            return
        stale = free_lists.setdefault(key, [])
        stale.append(block)
        if free_lists.get(key) is stale:
            return
