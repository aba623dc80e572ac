"""A pool of free blocks ordered for best-fit lookup per stream."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator

from .block import Block


class BlockPool:
    """Free blocks of one pool (small or large), sorted by ``(stream, size, ptr)``.

    Args:
        small: whether this is the small pool.

    Example:
        >>> from gtensor.memory.block import Segment
        >>> pool = BlockPool(small=True)
        >>> pool.add(Segment(0, 2048, "cpu", 0, True, None).head)
        >>> pool.best_fit(0, 1024).size, pool.best_fit(7, 1024)
        (2048, None)
    """

    __slots__ = ("small", "_keys", "_blocks")

    def __init__(self, small: bool) -> None:
        self.small = small
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
