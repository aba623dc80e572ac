"""Philox4x32-10 counter-based random numbers: scalar math written once, compiled per target.

Element ``i`` of every random op draws one Philox4x32-10 block with

* key ``(seed & 0xffffffff, seed >> 32)`` and
* counter ``(lo32(offset + i), hi32(offset + i), 0, 0)`` (``offset + i`` wraps mod 2**64),

and turns the four 32-bit outputs ``x0..x3`` into a value:

* uniform, 24 bits (float16/float32): ``u = (x0 >> 8) * 2**-24``;
  53 bits (float64): ``u = (x0 >> 5) * 2**-27 + (x1 >> 6) * 2**-53``.
  The value is ``low + (high - low) * u`` rounded to the output dtype; a value
  that rounds up to ``high`` is replaced by the largest value below it.
* normal: Box-Muller on two 53-bit uniforms, ``u1 = 1 - u(x0, x1)`` in (0, 1]
  (so ``log(0)`` cannot happen, ``|z| <= 8.58``) and ``u2 = u(x2, x3)`` in [0, 1):
  ``z = sqrt(-2 log u1) * cos(2 pi u2)``; one normal per counter (the sine half
  is dropped so element ``i`` depends on counter ``offset + i`` only).
* integers: Lemire's multiply-shift without rejection on 64 bits
  ``x = x0 * 2**32 + x1``: ``low + floor(x * (high - low) / 2**64)``. No loop and
  no divergence; the bias is below ``(high - low) / 2**64`` (2**-32 for ranges up
  to 2**32), far smaller than 64-bit modulo reduction's.
* bernoulli: ``u(x0, x1) < p`` on the 53-bit uniform.

Determinism across targets: integer steps are exact, and the uniform scaling
multiplies only exactly representable products (``high - low`` is split on the
host into three 18-bit parts), so fused multiply-add contraction on a GPU
cannot change a bit. Normals use ``log``/``cos``/``sqrt`` and agree to about
1e-15 relative in float64.

The device functions listed in ``DEVICE_FUNCTIONS`` are plain Python over
``numpy.uint64``/``float`` scalars; :func:`build` compiles them for a target
(``numba.njit`` or ``numba.cuda.jit(device=True)``) with their calls to each
other bound to the compiled versions. The ``*_args`` functions run on the host
and turn Python arguments into the kernels' scalar arguments.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable

import numpy as np

PHILOX_M0 = np.uint64(0xD2511F53)
PHILOX_M1 = np.uint64(0xCD9E8D57)
PHILOX_W0 = np.uint64(0x9E3779B9)
PHILOX_W1 = np.uint64(0xBB67AE85)
PHILOX_ROUNDS = 10

MASK32 = np.uint64(0xFFFFFFFF)
SIGN32 = np.uint64(0x80000000)
ZERO = np.uint64(0)
SHIFT5 = np.uint64(5)
SHIFT6 = np.uint64(6)
SHIFT8 = np.uint64(8)
SHIFT32 = np.uint64(32)
TWO_M24 = 2.0**-24
TWO_M27 = 2.0**-27
TWO_M53 = 2.0**-53
TWO_PI = 2.0 * math.pi

# Parts of ``high - low`` carry at most this many significant bits, so that a
# part times a 27-bit uniform part (<= 45 bits) is exact in float64.
SCALE_PART_BITS = 18
UINT64_LIMIT = 2**64


# ---------------------------------------------------------------- device functions


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Apply the Philox4x32-10 bijection to one 128-bit counter block.

    Args:
        c0, c1, c2, c3: counter words, ``numpy.uint64`` values below 2**32.
        k0, k1: key words, ``numpy.uint64`` values below 2**32.

    Returns:
        The four output words as ``numpy.uint64`` values below 2**32.

    Example:
        >>> z = np.uint64(0)
        >>> hex(int(philox4x32_10(z, z, z, z, z, z)[0]))
        '0x6627e8d5'
    """
    for _ in range(PHILOX_ROUNDS):
        p0 = PHILOX_M0 * c0
        p1 = PHILOX_M1 * c2
        c0, c1, c2, c3 = (
            (p1 >> SHIFT32) ^ c1 ^ k0,
            p1 & MASK32,
            (p0 >> SHIFT32) ^ c3 ^ k1,
            p0 & MASK32,
        )
        k0 = (k0 + PHILOX_W0) & MASK32
        k1 = (k1 + PHILOX_W1) & MASK32
    return c0, c1, c2, c3


def counter_words(o0, o1, i):
    """Return the low and high words of ``(offset + i) mod 2**64``.

    Args:
        o0, o1: low and high words of the offset (``numpy.uint64`` < 2**32).
        i: element index, ``numpy.uint64`` below 2**63.

    Returns:
        ``(c0, c1)``, the counter's first two words.

    Example:
        >>> [int(w) for w in counter_words(MASK32, ZERO, np.uint64(1))]
        [0, 1]
    """
    s = o0 + (i & MASK32)
    return s & MASK32, (o1 + (i >> SHIFT32) + (s >> SHIFT32)) & MASK32


def unit24(x):
    """Map a 32-bit word to a multiple of 2**-24 in [0, 1) from its top 24 bits.

    Args:
        x: a ``numpy.uint64`` below 2**32.

    Returns:
        The uniform as a float64.

    Example:
        >>> unit24(MASK32)
        0.9999999403953552
    """
    return np.float64(x >> SHIFT8) * TWO_M24


def unit53_parts(x0, x1):
    """Split a 53-bit uniform in [0, 1) into two exactly summable parts.

    Args:
        x0, x1: 32-bit words; the top 27 bits of ``x0`` and top 26 of ``x1`` are used.

    Returns:
        ``(hi, lo)`` with ``hi + lo`` the uniform (the sum is exact).

    Example:
        >>> sum(unit53_parts(MASK32, MASK32)) == 1.0 - 2.0**-53
        True
    """
    return np.float64(x0 >> SHIFT5) * TWO_M27, np.float64(x1 >> SHIFT6) * TWO_M53


def scale_exact(hi, lo, low, d0, d1, d2):
    """Return ``low + (d0 + d1 + d2) * (hi + lo)`` with every product exact.

    Every product fits in 53 bits, so contracting a product and a sum into a
    fused multiply-add gives the same bits as two separate operations.

    Args:
        hi, lo: the uniform's parts (<= 27 significant bits each).
        low: lower bound.
        d0, d1, d2: parts of ``high - low`` (<= 18 significant bits each).

    Returns:
        The scaled float64 value.

    Example:
        >>> scale_exact(0.5, 0.0, 1.0, 2.0, 0.0, 0.0)
        2.0
    """
    small = d2 * lo + d1 * lo + d0 * lo
    return low + (small + d2 * hi + d1 * hi + d0 * hi)


def block(i, k0, k1, o0, o1):
    """Return the Philox block of element ``i``: counter ``offset + i``, key ``seed``.

    Args:
        i: element index as ``numpy.uint64``.
        k0, k1: key (seed) words.
        o0, o1: offset words.

    Returns:
        The four 32-bit output words.

    Example:
        >>> z = np.uint64(0)
        >>> hex(int(block(z, z, z, z, z)[3]))
        '0x9b00dbd8'
    """
    c0, c1 = counter_words(o0, o1, i)
    return philox4x32_10(c0, c1, ZERO, ZERO, k0, k1)


def uniform_value(i, k0, k1, o0, o1, wide, low, d0, d1, d2):
    """Return element ``i`` of a uniform draw on [low, high) as float64.

    Args:
        i, k0, k1, o0, o1: element index, key and offset words (see :func:`block`).
        wide: True for 53 random bits (float64), False for 24.
        low, d0, d1, d2: lower bound and the parts of ``high - low``.

    Returns:
        The value before rounding to the output dtype.

    Example:
        >>> z = np.uint64(0)
        >>> 0.0 <= uniform_value(z, z, z, z, z, True, 0.0, 1.0, 0.0, 0.0) < 1.0
        True
    """
    x0, x1, _, _ = block(i, k0, k1, o0, o1)
    if wide:
        hi, lo = unit53_parts(x0, x1)
    else:
        hi = unit24(x0)
        lo = 0.0
    return scale_exact(hi, lo, low, d0, d1, d2)


def normal_value(i, k0, k1, o0, o1, mean, std):
    """Return element ``i`` of a normal draw (Box-Muller, cosine half) as float64.

    Args:
        i, k0, k1, o0, o1: element index, key and offset words.
        mean, std: location and scale.

    Returns:
        ``mean + std * sqrt(-2 log u1) * cos(2 pi u2)``.

    Example:
        >>> z = np.uint64(0)
        >>> abs(normal_value(z, z, z, z, z, 0.0, 1.0)) < 9.0
        True
    """
    x0, x1, x2, x3 = block(i, k0, k1, o0, o1)
    a, b = unit53_parts(x0, x1)
    u1 = 1.0 - (a + b)
    a, b = unit53_parts(x2, x3)
    radius = math.sqrt(-2.0 * math.log(u1))
    return mean + std * (radius * math.cos(TWO_PI * (a + b)))


def mulhi64(a_hi, a_lo, b_hi, b_lo):
    """Return the high 64 bits of a 64 x 64-bit product, from 32-bit limbs.

    Args:
        a_hi, a_lo, b_hi, b_lo: the factors' words (``numpy.uint64`` < 2**32).

    Returns:
        ``floor(a * b / 2**64)`` as ``numpy.uint64``.

    Example:
        >>> int(mulhi64(MASK32, MASK32, np.uint64(0), np.uint64(3)))
        2
    """
    ll = a_lo * b_lo
    lh = a_lo * b_hi
    hl = a_hi * b_lo
    mid = (ll >> SHIFT32) + (lh & MASK32) + (hl & MASK32)
    return a_hi * b_hi + (lh >> SHIFT32) + (hl >> SHIFT32) + (mid >> SHIFT32)


def integer_value(i, k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo):
    """Return element ``i`` of a uniform integer draw on [low, high) as int64.

    Args:
        i, k0, k1, o0, o1: element index, key and offset words.
        r_hi, r_lo: words of ``high - low`` (1 <= range < 2**64).
        low_hi, low_lo: words of ``low mod 2**64``.

    Returns:
        ``low + floor(x * range / 2**64)`` for the 64 random bits ``x``.

    Example:
        >>> z, one = np.uint64(0), np.uint64(1)
        >>> int(integer_value(z, z, z, z, z, z, one, z, z))
        0
    """
    x0, x1, _, _ = block(i, k0, k1, o0, o1)
    h = mulhi64(x0, x1, r_hi, r_lo)
    s_lo = low_lo + (h & MASK32)
    s_hi = (low_hi + (h >> SHIFT32) + (s_lo >> SHIFT32)) & MASK32
    v = (s_hi << SHIFT32) | (s_lo & MASK32)
    if s_hi >= SIGN32:
        return -np.int64(~v) - 1
    return np.int64(v)


def bernoulli_value(i, k0, k1, o0, o1, p):
    """Return element ``i`` of a Bernoulli(p) draw: True with probability ``p``.

    Args:
        i, k0, k1, o0, o1: element index, key and offset words.
        p: probability in [0, 1].

    Returns:
        ``u < p`` for the element's 53-bit uniform ``u``.

    Example:
        >>> z = np.uint64(0)
        >>> bool(bernoulli_value(z, z, z, z, z, 1.0))
        True
    """
    x0, x1, _, _ = block(i, k0, k1, o0, o1)
    hi, lo = unit53_parts(x0, x1)
    return (hi + lo) < p


DEVICE_FUNCTIONS = (
    "philox4x32_10",
    "counter_words",
    "unit24",
    "unit53_parts",
    "scale_exact",
    "block",
    "uniform_value",
    "normal_value",
    "mulhi64",
    "integer_value",
    "bernoulli_value",
)


def build(jit: Callable[[Callable], Callable]) -> types.SimpleNamespace:
    """Compile the device functions with ``jit``, binding their calls to each other.

    Each function is copied with a private globals dict in which the names of
    the other device functions refer to their compiled versions, so the same
    Python source becomes CPU or CUDA code.

    Args:
        jit: a decorator such as ``numba.njit`` or ``numba.cuda.jit(device=True)``.

    Returns:
        A namespace with one compiled function per name in ``DEVICE_FUNCTIONS``.

    Example:
        >>> import numba
        >>> cpu = build(numba.njit)
        >>> cpu.unit24(np.uint64(0))  # doctest: +SKIP
        0.0
    """
    namespace = dict(globals())
    compiled = {}
    for name in DEVICE_FUNCTIONS:
        fn = globals()[name]
        clone = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__)
        clone.__qualname__ = fn.__qualname__
        clone.__doc__ = fn.__doc__
        compiled[name] = namespace[name] = jit(clone)
    return types.SimpleNamespace(**compiled)


# ---------------------------------------------------------------- host arguments


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
        offset: counter of element 0, a Python int in [0, 2**64).
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
