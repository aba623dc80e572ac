"""Counter-based random generators: a (seed, offset) pair per device.

Every draw of ``n`` values reads Philox counters ``offset .. offset + n - 1``
and then advances ``offset`` by ``n``, so one seed yields the same values on
``cpu`` and ``cuda``.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from .device import DeviceLike, device, resolve
from .tensor_base import from_numpy

_MASK64 = (1 << 64) - 1


class Generator:
    """A random stream for one device, seeded with :meth:`manual_seed`.

    Args:
        device: the device whose kernels draw from it (default ``cpu``).

    Example:
        >>> g = Generator().manual_seed(0)
        >>> g.initial_seed()
        0
    """

    draws = 0
    """Draws taken from any generator so far: a CUDA graph capture checks that its step takes
    none (a draw's seed and offset are kernel arguments, which a graph would replay as they
    were captured)."""

    def __init__(self, device: DeviceLike = "cpu") -> None:
        self.device: device = resolve(device)
        self._seed = 67280421310721
        self._offset = 0

    def manual_seed(self, seed: int) -> Generator:
        """Set the seed (any int; taken modulo 2**64) and restart the stream."""
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise TypeError(f"[manual_seed] seed must be an int, got {type(seed).__name__}")
        self._seed = int(seed) & _MASK64
        self._offset = 0
        return self

    def seed(self) -> int:
        """Seed from the OS's entropy and return the new seed."""
        seed = int.from_bytes(os.urandom(8), "little") ^ time.perf_counter_ns()
        self.manual_seed(seed & _MASK64)
        return self._seed

    def initial_seed(self) -> int:
        """Return the seed in use."""
        return self._seed

    def get_state(self) -> Any:
        """Return the state as a 16-byte uint8 cpu tensor (seed, offset, little endian)."""
        raw = np.array([self._seed, self._offset], dtype="<u8").view(np.uint8).copy()
        return from_numpy(raw)

    def set_state(self, state: Any) -> Generator:
        """Restore a state returned by :meth:`get_state`."""
        arr = np.asarray(state, dtype=np.uint8)
        if arr.shape != (16,):
            raise ValueError(f"[set_state] expected a 16-byte state, got shape {arr.shape}")
        self._seed, self._offset = (int(v) for v in arr.view("<u8"))
        return self

    def take(self, n: int) -> tuple[int, int]:
        """Reserve ``n`` counters and return ``(seed, first_counter)``."""
        Generator.draws += 1
        start = self._offset
        self._offset = (self._offset + n) & _MASK64
        return self._seed, start

    def __repr__(self) -> str:
        return f"<gtensor.Generator device={self.device} seed={self._seed}>"


default_generator = Generator("cpu")
_cuda_generators: dict[int, Generator] = {}


def default_generator_for(dev: device) -> Generator:
    """Return the default generator of ``dev``."""
    if dev.type == "cpu":
        return default_generator
    idx = dev.index or 0
    g = _cuda_generators.get(idx)
    if g is None:
        g = _cuda_generators[idx] = Generator(device("cuda", idx))
        g.manual_seed(default_generator.initial_seed())
    return g


def manual_seed(seed: int) -> Generator:
    """Seed the cpu generator and every CUDA generator; return the cpu one.

    Example:
        >>> _ = manual_seed(42)
    """
    default_generator.manual_seed(seed)
    for g in _cuda_generators.values():
        g.manual_seed(seed)
    return default_generator


def initial_seed() -> int:
    """Return the cpu generator's seed."""
    return default_generator.initial_seed()


def seed() -> int:
    """Seed the cpu and every CUDA generator from the OS's entropy; return the new seed.

    Example:
        >>> s = seed(); initial_seed() == s
        True
    """
    new = default_generator.seed()
    manual_seed(new)
    return new


def get_rng_state() -> Any:
    """The cpu generator's state, a uint8 cpu tensor for :func:`set_rng_state`.

    Example:
        >>> state = get_rng_state(); state.shape
        (16,)
    """
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    """Restore the cpu generator's state from :func:`get_rng_state`.

    Example:
        >>> set_rng_state(get_rng_state())
    """
    default_generator.set_state(new_state)
