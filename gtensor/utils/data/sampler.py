"""Samplers: the order in which a DataLoader reads sample indices, and how it batches them.

Random samplers draw on gtensor's counter-based generators: on ``generator``'s
device when one is given, else from the default cpu generator, so
``gt.manual_seed`` fixes their sequences. Each ``iter()`` draws anew.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any

from ...dtypes import float64
from ...generator import Generator
from ...ops.creation import as_tensor
from ...ops.random import randint
from ...ops.random_extra import multinomial, randperm
from ...tensor import Tensor


def _positive_int(value: Any, name: str, op: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"[{op}] {name} should be a positive integer value, but got "
                         f"{name}={value}")


def _check_bool(value: Any, name: str, op: str, exc: type[Exception]) -> None:
    if not isinstance(value, bool):
        raise exc(f"[{op}] {name} should be a boolean value, but got {name}={value}")


def _device(generator: Generator | None) -> Any:
    return "cpu" if generator is None else generator.device


class Sampler:
    """Base class of samplers: an iterable of dataset indices (usually with a ``len``)."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``.

    Example:
        >>> list(SequentialSampler(range(3)))
        [0, 1, 2]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random indices: a fresh permutation each epoch, or draws with replacement.

    Args:
        data_source: the dataset (only its length is read).
        replacement: draw ``num_samples`` indices independently (repeats allowed).
        num_samples: how many indices to yield (default ``len(data_source)``);
            without replacement, more than the length yields whole permutations
            one after the other, then part of one more.
        generator: the random stream (default: gtensor's cpu generator).

    Raises:
        TypeError: ``replacement`` is not a bool.
        ValueError: ``num_samples`` is not a positive int.

    Example:
        >>> sorted(RandomSampler(range(4)))
        [0, 1, 2, 3]
    """

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator: Generator | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        _check_bool(replacement, "replacement", "RandomSampler", TypeError)
        _positive_int(self.num_samples, "num_samples", "RandomSampler")

    @property
    def num_samples(self) -> int:
        """How many indices one pass yields (the dataset's current length by default)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n, count, g = len(self.data_source), self.num_samples, self.generator
        if self.replacement:
            return iter(randint(0, n, (count,), generator=g, device=_device(g)).tolist())
        whole, rest = divmod(count, n)
        perms = [randperm(n, generator=g, device=_device(g)).tolist() for _ in range(whole)]
        if rest:
            perms.append(randperm(n, generator=g, device=_device(g)).tolist()[:rest])
        return itertools.chain.from_iterable(perms)

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a fresh random order each epoch.

    Example:
        >>> sorted(SubsetRandomSampler([5, 2, 9]))
        [2, 5, 9]
    """

    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        g = self.generator
        order = randperm(len(self.indices), generator=g, device=_device(g)).tolist()
        return (self.indices[i] for i in order)

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    Args:
        weights: one non-negative weight per index (a 1-D sequence or tensor).
        num_samples: how many indices to draw.
        replacement: draw with replacement (without it, ``num_samples`` must
            not exceed the number of weights).
        generator: the random stream (default: gtensor's cpu generator).

    Raises:
        ValueError: ``num_samples`` is not a positive int, ``replacement`` not a
            bool, or ``weights`` not 1-D.

    Example:
        >>> list(WeightedRandomSampler([0.0, 1.0, 0.0], 3))
        [1, 1, 1]
    """

    def __init__(self, weights: Sequence[float] | Tensor, num_samples: int,
                 replacement: bool = True, generator: Generator | None = None) -> None:
        _positive_int(num_samples, "num_samples", "WeightedRandomSampler")
        _check_bool(replacement, "replacement", "WeightedRandomSampler", ValueError)
        w = as_tensor(weights, dtype=float64)
        if w.ndim != 1:
            raise ValueError("[WeightedRandomSampler] weights should be a 1d sequence but given "
                             f"weights have shape {w.shape}")
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        g = self.generator
        w = self.weights if g is None else self.weights.to(g.device)
        return iter(multinomial(w, self.num_samples, self.replacement, generator=g).tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` into lists of ``batch_size``.

    Args:
        sampler: any iterable of indices.
        batch_size: indices per batch.
        drop_last: drop the last batch when it is smaller than ``batch_size``.

    Raises:
        ValueError: ``batch_size`` is not a positive int or ``drop_last`` not a bool.

    Example:
        >>> list(BatchSampler(SequentialSampler(range(5)), 2, drop_last=False))
        [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler: Iterable[Any], batch_size: int, drop_last: bool) -> None:
        _positive_int(batch_size, "batch_size", "BatchSampler")
        _check_bool(drop_last, "drop_last", "BatchSampler", ValueError)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[Any]]:
        it = iter(self.sampler)
        while batch := list(itertools.islice(it, self.batch_size)):
            if self.drop_last and len(batch) < self.batch_size:
                return
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
