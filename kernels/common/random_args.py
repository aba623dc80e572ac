"""Host side of the Philox random kernels: checked Python arguments to scalar kernel arguments.

Each ``*_args`` function checks one op's arguments (errors start with the op)
and returns the scalars its kernel takes; :func:`counters` sizes a draw's
loop. The device math is in :mod:`.philox`.
"""

from __future__ import annotations

import math

import numpy as np

from .philox import GROUP

# Parts of ``high - low`` carry at most this many significant bits, so that a
# part times a 27-bit uniform part (<= 45 bits) is exact in float64.
SCALE_PART_BITS = 18
UINT64_LIMIT = 2**64


def counters(n: int, per: int) -> int:
    """Return how many counters a draw of ``n`` values takes at ``per`` values per counter.

    Full groups take ``GROUP`` counters for ``GROUP * per`` values; the last,
    partial group takes one counter per value of its first slot.

    Example:
        >>> counters(1, 4), counters(128, 4), counters(129, 4), counters(100, 2)
        (1, 32, 33, 64)
    """
    full, rest = divmod(n, GROUP * per)
    return full * GROUP + min(rest, GROUP)


def _words(value: int, what: str, op: str) -> tuple[np.uint64, np.uint64]:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"[{op}] {what} must be an int, got {type(value).__name__}")
    value = int(value)
    if not 0 <= value < UINT64_LIMIT:
        raise ValueError(f"[{op}] {what} must be in [0, 2**64), got {value}")
    return np.uint64(value & 0xFFFFFFFF), np.uint64(value >> 32)


def stream_args(seed: int, offset: int, op: str) -> tuple[np.uint64, ...]:
    """Return ``(k0, k1, o0, o1)``: the seed and offset split into 32-bit words.

    Args:
        seed: key, a Python int in [0, 2**64).
        offset: the draw's first counter, a Python int in [0, 2**64).
        op: op name for error messages.

    Returns:
        Four ``numpy.uint64`` words, low word first.

    Example:
        >>> [int(w) for w in stream_args(2**32 + 5, 7, "random_uniform")]
        [5, 1, 7, 0]
    """
    return (*_words(seed, "seed", op), *_words(offset, "offset", op))


def split_scale(d: float) -> tuple[float, float, float]:
    """Split a float into three parts of at most 18 significant bits that sum to it.

    Args:
        d: a finite float.

    Returns:
        ``(d0, d1, d2)`` with ``d0 + d1 + d2 == d`` exactly.

    Example:
        >>> sum(split_scale(0.1)) == 0.1
        True
    """
    parts = []
    rest = float(d)
    for _ in range(2):
        if rest == 0.0:
            parts.append(0.0)
            continue
        _, exp = math.frexp(rest)
        scale = SCALE_PART_BITS - exp
        head = math.ldexp(math.trunc(math.ldexp(rest, scale)), -scale)
        parts.append(head)
        rest -= head
    parts.append(rest)
    return parts[0], parts[1], parts[2]


def uniform_args(low: float, high: float, dtype: np.dtype, op: str) -> tuple:
    """Return ``(wide, low, d0, d1, d2, limit, below)`` for a uniform kernel.

    Args:
        low, high: bounds of [low, high).
        dtype: output dtype (float16, float32 or float64).
        op: op name for error messages.

    Returns:
        The bit width flag, ``low``, the parts of ``high - low``, the output
        dtype's ``high`` and the largest value below it (the clamp).

    Example:
        >>> uniform_args(0.0, 1.0, np.dtype("float64"), "random_uniform")[:3]
        (True, 0.0, 1.0)
    """
    low, high = float(low), float(high)
    top = dtype.type(high)
    if not (math.isfinite(low) and math.isfinite(high) and math.isfinite(high - low)):
        raise ValueError(f"[{op}] bounds must be finite, got low={low}, high={high}")
    if not dtype.type(low) < top:
        raise ValueError(f"[{op}] needs low < high in {dtype.name}, got low={low}, high={high}")
    below = np.nextafter(top, dtype.type(-np.inf))
    wide = dtype.itemsize == 8
    return (wide, low, *split_scale(high - low), float(top), float(below))


def normal_args(mean: float, std: float, op: str) -> tuple[float, float]:
    """Return ``(mean, std)`` as floats after checking them.

    Args:
        mean, std: location and scale (``std >= 0``).
        op: op name for error messages.

    Returns:
        The two floats.

    Example:
        >>> normal_args(0, 2, "random_normal")
        (0.0, 2.0)
    """
    mean, std = float(mean), float(std)
    if not (math.isfinite(mean) and math.isfinite(std)) or std < 0.0:
        raise ValueError(f"[{op}] needs finite mean and std >= 0, got mean={mean}, std={std}")
    return mean, std


def integer_args(low: int, high: int, dtype: np.dtype, op: str) -> tuple[np.uint64, ...]:
    """Return ``(r_hi, r_lo, low_hi, low_lo)`` for an integer kernel.

    Args:
        low, high: integer bounds of [low, high); they must fit the output
            dtype (int64 for float outputs).
        dtype: output dtype.
        op: op name for error messages.

    Returns:
        Words of ``high - low`` and of ``low mod 2**64``.

    Example:
        >>> [int(w) for w in integer_args(-1, 3, np.dtype("int8"), "random_integers")]
        [0, 4, 4294967295, 4294967295]
    """
    low, high = _as_int(low, op), _as_int(high, op)
    info = np.iinfo(dtype) if dtype.kind in "iu" else np.iinfo(np.int64)
    if not (info.min <= low < high <= int(info.max) + 1):
        raise ValueError(
            f"[{op}] needs {int(info.min)} <= low < high <= {int(info.max) + 1} "
            f"for {dtype.name}, got low={low}, high={high}"
        )
    span, base = high - low, low % UINT64_LIMIT
    if span >= UINT64_LIMIT:
        raise ValueError(f"[{op}] high - low must be below 2**64, got {span}")
    return (
        np.uint64(span >> 32),
        np.uint64(span & 0xFFFFFFFF),
        np.uint64(base >> 32),
        np.uint64(base & 0xFFFFFFFF),
    )


def _as_int(value, op: str) -> int:
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return int(value)
    raise TypeError(f"[{op}] integer bounds must be integral, got {value!r}")


def bernoulli_args(p: float, op: str) -> float:
    """Return ``p`` as a float after checking ``0 <= p <= 1``.

    Args:
        p: probability of a one.
        op: op name for error messages.

    Returns:
        ``float(p)``.

    Example:
        >>> bernoulli_args(0.25, "random_bernoulli")
        0.25
    """
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"[{op}] needs 0 <= p <= 1, got p={p}")
    return p
