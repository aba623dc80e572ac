"""DistributedSampler's partitioning (in-process, no ranks spawned)."""

from __future__ import annotations

import math

import pytest

from gtensor.utils.data import DistributedSampler


def _reference(n: int, replicas: int, rank: int, drop_last: bool, order: list[int]) -> list[int]:
    """PyTorch's partition of ``order``: pad by repeating the head (or cut), then stride."""
    if drop_last and n % replicas:
        per_rank = math.ceil((n - replicas) / replicas)
    else:
        per_rank = math.ceil(n / replicas)
    total = per_rank * replicas
    padded = (order * math.ceil(total / n))[:total]
    return padded[rank:total:replicas]


@pytest.mark.parametrize(("n", "replicas", "drop_last"),
                         [(10, 3, False), (10, 3, True), (2, 5, False), (12, 4, True)])
def test_partition_matches_pytorch_rule(n: int, replicas: int, drop_last: bool) -> None:
    shares = [list(DistributedSampler(range(n), replicas, r, shuffle=False, drop_last=drop_last))
              for r in range(replicas)]
    for r, share in enumerate(shares):
        assert share == _reference(n, replicas, r, drop_last, list(range(n)))
        assert len(share) == len(DistributedSampler(range(n), replicas, r, drop_last=drop_last))
    flat = [i for share in shares for i in share]
    if drop_last:
        assert len(set(flat)) == len(flat)  # no index twice
    else:
        assert set(flat) == set(range(n))


def test_shuffle_is_one_permutation_split_across_ranks_and_changes_with_the_epoch() -> None:
    samplers = [DistributedSampler(range(11), 2, r, seed=3) for r in range(2)]
    first = [list(s) for s in samplers]
    order = [first[r % 2][r // 2] for r in range(12)]
    assert sorted(order[:11]) == list(range(11)) and order[11] == order[0]
    assert first == [list(s) for s in samplers]  # the same epoch draws the same order
    for s in samplers:
        s.set_epoch(1)
    second = [list(s) for s in samplers]
    assert second != first
    assert set(second[0]) | set(second[1]) == set(range(11))


def test_bad_rank_and_missing_group_raise() -> None:
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in .* \[0, 1\]"):
        DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises(RuntimeError, match="Requires distributed package to be initialized"):
        DistributedSampler(range(4))
