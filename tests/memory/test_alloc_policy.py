"""Rounding, pool choice, segment sizes and split rules."""

import pytest

from gtensor.memory.policy import (
    LARGE_BUFFER,
    NO_SPLIT_LIMIT,
    SMALL_BUFFER,
    fits,
    is_small,
    round_size,
    segment_size,
    should_split,
)

MiB = 1024 * 1024


@pytest.mark.parametrize(
    ("size", "rounded"),
    [(0, 512), (1, 512), (512, 512), (513, 1024), (1000, 1024), (MiB + 1, MiB + 512)],
)
def test_round_size_to_512(size, rounded):
    assert round_size(size) == rounded


def test_round_size_power2_divisions():
    # 9000 lies between 8192 and 16384; 4 divisions step by 2048.
    assert round_size(9000, power2_divisions=4) == 10240
    assert round_size(8192, power2_divisions=4) == 8192
    # Below 512 * divisions the 512 rule applies.
    assert round_size(1300, power2_divisions=4) == 1536
    assert round_size(9000, power2_divisions=0) == 9216


def test_pool_choice_and_segment_sizes():
    assert is_small(MiB) and not is_small(MiB + 512)
    assert segment_size(512) == SMALL_BUFFER
    assert segment_size(MiB) == SMALL_BUFFER
    assert segment_size(MiB + 512) == LARGE_BUFFER
    assert segment_size(10 * MiB - 512) == LARGE_BUFFER
    assert segment_size(10 * MiB) == 10 * MiB
    assert segment_size(10 * MiB + 512) == 12 * MiB


def test_should_split_rules():
    assert should_split(SMALL_BUFFER, SMALL_BUFFER - 512, True, NO_SPLIT_LIMIT)
    assert not should_split(1024, 1024, True, NO_SPLIT_LIMIT)
    # Large pool keeps a remainder only over 1 MiB.
    assert not should_split(LARGE_BUFFER, LARGE_BUFFER - MiB, False, NO_SPLIT_LIMIT)
    assert should_split(LARGE_BUFFER, LARGE_BUFFER - MiB - 512, False, NO_SPLIT_LIMIT)
    # Requests of max_split_size or more are never split.
    assert not should_split(64 * MiB, 32 * MiB, False, 32 * MiB)


def test_fits_respects_max_split_size():
    limit = 32 * MiB
    assert fits(4 * MiB, 2 * MiB, limit)
    assert not fits(40 * MiB, 2 * MiB, limit)  # small request, oversize block
    assert fits(40 * MiB, 33 * MiB, limit)
    assert not fits(60 * MiB, 33 * MiB, limit)  # wastes 20 MiB or more
    assert fits(10**12, 1, NO_SPLIT_LIMIT)
