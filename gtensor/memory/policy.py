"""Sizing policy of the caching allocator: rounding, pool choice, segment sizes, splits.

The numbers follow PyTorch's documented CUDA caching allocator: requests are
rounded up to 512 bytes; requests up to 1 MiB come from a small pool carved
out of 2 MiB segments; larger ones from a large pool of 20 MiB segments (for
requests under 10 MiB) or of segments rounded up to 2 MiB.
"""

from __future__ import annotations

KiB = 1024
MiB = 1024 * KiB

MIN_BLOCK_SIZE = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB

NO_SPLIT_LIMIT = 1 << 62
"""``max_split_size`` when the option is unset: every block may be split."""


def _round_up(size: int, multiple: int) -> int:
    return -(-size // multiple) * multiple


def _round_power2_division(size: int, divisions: int) -> int:
    """Round ``size`` up to the next of ``divisions`` equal steps between two powers of two."""
    if size & (size - 1) == 0:
        return size
    floor = 1 << (size.bit_length() - 1)
    step = floor // divisions
    if step == 0:
        return floor << 1
    return _round_up(size, step)


def round_size(size: int, power2_divisions: int = 0) -> int:
    """Return the block size a request of ``size`` bytes occupies.

    Args:
        size: requested bytes (``>= 0``).
        power2_divisions: when ``> 1``, sizes above ``512 * power2_divisions``
            round up to one of that many steps between powers of two
            (``roundup_power2_divisions``); otherwise to a multiple of 512.

    Returns:
        The rounded size, at least 512.

    Example:
        >>> round_size(1), round_size(513), round_size(9000, power2_divisions=4)
        (512, 1024, 10240)
    """
    if size <= MIN_BLOCK_SIZE:
        return MIN_BLOCK_SIZE
    if power2_divisions > 1 and size > MIN_BLOCK_SIZE * power2_divisions:
        return _round_power2_division(size, power2_divisions)
    return _round_up(size, MIN_BLOCK_SIZE)


def is_small(size: int) -> bool:
    """Whether a rounded block size is served from the small pool.

    Example:
        >>> is_small(1024 * 1024), is_small(1024 * 1024 + 512)
        (True, False)
    """
    return size <= SMALL_SIZE


def segment_size(size: int) -> int:
    """Return the size of a new segment for a rounded request of ``size`` bytes.

    Example:
        >>> [segment_size(s) // MiB for s in (512, 2 * MiB, 11 * MiB + 1)]
        [2, 20, 12]
    """
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return _round_up(size, ROUND_LARGE)


def should_split(block_size: int, size: int, small: bool, max_split_size: int) -> bool:
    """Whether a free block of ``block_size`` serving ``size`` bytes keeps its remainder apart.

    A small-pool remainder is kept from 512 bytes up; a large-pool remainder
    only when it is over 1 MiB and the request is below ``max_split_size``.

    Example:
        >>> should_split(2 * MiB, 512, True, NO_SPLIT_LIMIT)
        True
        >>> should_split(20 * MiB, 19 * MiB + 512, False, NO_SPLIT_LIMIT)
        False
    """
    remaining = block_size - size
    if small:
        return remaining >= MIN_BLOCK_SIZE
    return size < max_split_size and remaining > SMALL_SIZE


def fits(block_size: int, size: int, max_split_size: int) -> bool:
    """Whether a cached free block may serve a request under the ``max_split_size`` rule.

    Blocks of ``max_split_size`` or more are never split, so they serve only
    requests that are themselves that large and leave less than 20 MiB unused.

    Example:
        >>> fits(64 * MiB, 8 * MiB, max_split_size=32 * MiB)
        False
    """
    if size < max_split_size:
        return block_size < max_split_size
    return block_size < size + LARGE_BUFFER
