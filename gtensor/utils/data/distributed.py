"""``DistributedSampler``: each rank reads its own share of the dataset's indices.

As PyTorch's: the (shuffled, for ``shuffle=True`` with seed ``seed + epoch``)
index list is padded by repeating its head to a multiple of the number of
replicas (or cut to one with ``drop_last``), and rank ``r`` takes every
``num_replicas``-th index from ``r``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sized

from ...distributed import get_rank, get_world_size, is_initialized
from ...generator import Generator
from ...ops.random_extra import randperm
from .sampler import Sampler


class DistributedSampler(Sampler):
    """The indices of rank ``rank`` out of ``num_replicas`` equal shares of ``dataset``.

    Args:
        dataset: the dataset (only its length is used).
        num_replicas: number of shares (default: the world size of the process group).
        rank: this share (default: the rank in the process group).
        shuffle: shuffle the indices, the same way on every rank, anew each epoch.
        seed: the shuffle's seed, the same on every rank.
        drop_last: drop the tail that does not divide evenly instead of padding it.

    Call :meth:`set_epoch` before each epoch so the shuffle changes.

    Example:
        >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
        [1, 3, 0]
    """

    def __init__(self, dataset: Sized, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None or rank is None:
            if not is_initialized():
                raise RuntimeError("[DistributedSampler] Requires distributed package to be "
                                   "initialized (or pass num_replicas and rank)")
            num_replicas = get_world_size() if num_replicas is None else num_replicas
            rank = get_rank() if rank is None else rank
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"[DistributedSampler] Invalid rank {rank}, rank should be in the "
                             f"interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        if self.shuffle:
            g = Generator().manual_seed(self.seed + self.epoch)
            indices = randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            pad = self.total_size - len(indices)
            indices += (indices * math.ceil(pad / max(len(indices), 1)))[:pad]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch: with ``shuffle=True`` each epoch draws a different order."""
        self.epoch = epoch
