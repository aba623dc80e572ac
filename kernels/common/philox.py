"""Philox4x32-10 counter-based random numbers: scalar math written once, compiled per target.

A draw of ``n`` values reads Philox4x32-10 blocks with

* key ``(seed & 0xffffffff, seed >> 32)`` and
* counter ``(lo32(offset + j), hi32(offset + j), 0, 0)`` for ``j = 0, 1, ...``
  (``offset + j`` wraps mod 2**64),

and turns each block's four 32-bit words ``x0..x3`` into ``per`` values: four
when a value needs one word, two when it needs two (``x0, x1`` and ``x2, x3``).
Counters are taken in groups of ``GROUP`` (32): counter ``j`` fills the values

    ``(j // 32) * 32 * per + s * 32 + j % 32``  for slot ``s = 0 .. per - 1``,

so the 32 counters of a group fill ``32 * per`` consecutive values, slot by
slot. On a GPU a warp takes one group: each of its ``per`` stores writes 32
consecutive values (coalesced), and every word of every block is used. The
layout does not depend on the launch, so every device draws the same values.
A draw of ``n`` values uses :func:`counters` ``(n, per) <= n`` counters from
``offset``, so advancing the offset by ``n`` per draw never reuses one.

Values, per slot:

* uniform, float16/float32 (four per block): ``u = (x >> 8) * 2**-24`` of its
  word; float64 (two per block): ``u = (xa >> 5) * 2**-27 + (xb >> 6) * 2**-53``
  of its word pair. The value is ``low + (high - low) * u`` rounded to the
  output dtype; a value that rounds up to ``high`` is replaced by the largest
  value below it.
* normal: Box-Muller on a pair of uniforms gives two values,
  ``r cos(2 pi u2)`` and ``r sin(2 pi u2)`` with ``r = sqrt(-2 log u1)``.
  float16/float32 (four per block): ``u1 = 1 - x0 * 2**-32`` in (0, 1] and
  ``u2 = x1 * 2**-32`` make slots 0 and 1, ``x2, x3`` slots 2 and 3
  (``|z| <= 6.67``). float64 (two per block): ``u1 = 1 - u(x0, x1)`` and
  ``u2 = u(x2, x3)`` (53-bit uniforms; ``|z| <= 8.58``) make slots 0 and 1.
* integers (two per block): Lemire's multiply-shift without rejection on the
  64 bits ``x = xa * 2**32 + xb`` of a word pair: ``low + floor(x * (high -
  low) / 2**64)``. No loop and no divergence; the bias is below ``(high - low)
  / 2**64`` (2**-32 for ranges up to 2**32), far smaller than 64-bit modulo
  reduction's.
* bernoulli (four per block): ``x * 2**-32 < p`` for its word.

Determinism across targets: integer steps are exact, and the uniform scaling
multiplies only exactly representable products (``high - low`` is split on the
host into three 18-bit parts, ``random_args.split_scale``), so fused multiply-add
contraction on a GPU cannot change a bit. Normals use ``log``/``cos``/``sin``/``sqrt`` and agree to
about 1e-15 relative in float64.

The device functions listed in ``DEVICE_FUNCTIONS`` are plain Python over
``numpy.uint64``/``float`` scalars; :func:`build` compiles them for a target
(``numba.njit`` or ``numba.cuda.jit(device=True)``) with their calls to each
other bound to the compiled versions. The ``fill_*`` functions write all values
of one counter, so a kernel is a loop over counters on every target. The
``*_args`` functions run on the host and turn Python arguments into the
kernels' scalar arguments.
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
TWO_M32 = 2.0**-32
TWO_M53 = 2.0**-53
TWO_PI = 2.0 * math.pi

GROUP = 32
"""Counters per group; a group's values lie together, slot by slot (see the module docstring)."""
GROUP_U = np.uint64(GROUP)
GROUP2_U = np.uint64(2 * GROUP)
GROUP3_U = np.uint64(3 * GROUP)
GROUP_SHIFT = np.uint64(5)
GROUP_MASK = np.uint64(GROUP - 1)
TWO = np.uint64(2)
FOUR = np.uint64(4)



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
        >>> float(unit24(MASK32))
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
        >>> bool(sum(unit53_parts(MASK32, MASK32)) == 1.0 - 2.0**-53)
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


def block(j, k0, k1, o0, o1):
    """Return the Philox block of counter ``offset + j`` under key ``seed``.

    Args:
        j: counter index from the offset, as ``numpy.uint64``.
        k0, k1: key (seed) words.
        o0, o1: offset words.

    Returns:
        The four 32-bit output words.

    Example:
        >>> z = np.uint64(0)
        >>> hex(int(block(z, z, z, z, z)[3]))
        '0x9b00dbd8'
    """
    c0, c1 = counter_words(o0, o1, j)
    return philox4x32_10(c0, c1, ZERO, ZERO, k0, k1)


def first_value(j, per):
    """Return the position of counter ``j``'s slot 0; slot ``s`` is ``GROUP * s`` further.

    Args:
        j: counter index, ``numpy.uint64``.
        per: values per counter, ``TWO`` or ``FOUR``.

    Returns:
        The value index as ``numpy.uint64``.

    Example:
        >>> int(first_value(np.uint64(33), FOUR))
        129
    """
    return (j >> GROUP_SHIFT) * per * GROUP_U + (j & GROUP_MASK)


def unit32(x):
    """Map a 32-bit word to a multiple of 2**-32 in [0, 1) (exact in float64).

    Example:
        >>> bool(unit32(MASK32) == 1.0 - 2.0**-32)
        True
    """
    return np.float64(x) * TWO_M32


def put(out, i, n, v):
    """Store ``v`` at ``out[i]`` when ``i < n`` (the last group of a draw is partial).

    Example:
        >>> a = np.zeros(2); put(a, np.uint64(1), np.uint64(2), 5.0); a.tolist()
        [0.0, 5.0]
    """
    if i < n:
        out[i] = v


def put_below(out, i, n, v, limit, below):
    """Store ``v`` at ``out[i]`` (when ``i < n``), replaced by ``below`` if it rounded to ``limit``.

    Example:
        >>> a = np.zeros(1, np.float32)
        >>> put_below(a, np.uint64(0), np.uint64(1), 1.0 - 2.0**-30, 1.0, 0.5); a.tolist()
        [0.5]
    """
    if i < n:
        out[i] = v
        if out[i] >= limit:
            out[i] = below


def fill_uniform(out, j, k0, k1, o0, o1, wide, low, d0, d1, d2, limit, below):
    """Write counter ``j``'s uniform values on [low, high) into ``out``.

    Args:
        out: the whole 1-D output (its size is the draw's length).
        j: counter index, ``numpy.uint64``.
        k0, k1, o0, o1: key and offset words.
        wide: True for two 53-bit values per counter (float64), False for four
            24-bit ones.
        low, d0, d1, d2: lower bound and the parts of ``high - low``.
        limit, below: the output dtype's ``high`` and the largest value below it.

    Example:
        >>> z, a = np.uint64(0), np.full(128, -1.0)
        >>> fill_uniform(a, z, z, z, z, z, False, 0.0, 1.0, 0.0, 0.0, 1.0, 0.5)
        >>> np.flatnonzero(a >= 0.0).tolist()
        [0, 32, 64, 96]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    if wide:
        i = first_value(j, TWO)
        hi, lo = unit53_parts(x0, x1)
        put_below(out, i, n, scale_exact(hi, lo, low, d0, d1, d2), limit, below)
        hi, lo = unit53_parts(x2, x3)
        put_below(out, i + GROUP_U, n, scale_exact(hi, lo, low, d0, d1, d2), limit, below)
    else:
        i = first_value(j, FOUR)
        put_below(out, i, n, scale_exact(unit24(x0), 0.0, low, d0, d1, d2), limit, below)
        i += GROUP_U
        put_below(out, i, n, scale_exact(unit24(x1), 0.0, low, d0, d1, d2), limit, below)
        i += GROUP_U
        put_below(out, i, n, scale_exact(unit24(x2), 0.0, low, d0, d1, d2), limit, below)
        i += GROUP_U
        put_below(out, i, n, scale_exact(unit24(x3), 0.0, low, d0, d1, d2), limit, below)


def box_muller(u1, u2, mean, std):
    """Return the two normals ``mean + std * r cos(2 pi u2)`` and ``... sin ...``.

    Args:
        u1: uniform in (0, 1]; ``r = sqrt(-2 log u1)``.
        u2: uniform in [0, 1).
        mean, std: location and scale.

    Example:
        >>> box_muller(1.0, 0.0, 2.0, 1.0)
        (2.0, 2.0)
    """
    radius = std * math.sqrt(-2.0 * math.log(u1))
    angle = TWO_PI * u2
    return mean + radius * math.cos(angle), mean + radius * math.sin(angle)


def fill_normal(out, j, k0, k1, o0, o1, wide, mean, std):
    """Write counter ``j``'s normal values (Box-Muller) into ``out``.

    Args:
        out: the whole 1-D output.
        j, k0, k1, o0, o1: counter index, key and offset words.
        wide: True for two values from 53-bit uniforms (float64), False for
            four from 32-bit ones.
        mean, std: location and scale.

    Example:
        >>> z, a = np.uint64(0), np.zeros(64)
        >>> fill_normal(a, z, z, z, z, z, True, 0.0, 1.0)
        >>> np.flatnonzero(a).tolist()
        [0, 32]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    if wide:
        i = first_value(j, TWO)
        a, b = unit53_parts(x0, x1)
        c, d = unit53_parts(x2, x3)
        z0, z1 = box_muller(1.0 - (a + b), c + d, mean, std)
        put(out, i, n, z0)
        put(out, i + GROUP_U, n, z1)
    else:
        i = first_value(j, FOUR)
        z0, z1 = box_muller(1.0 - unit32(x0), unit32(x1), mean, std)
        z2, z3 = box_muller(1.0 - unit32(x2), unit32(x3), mean, std)
        put(out, i, n, z0)
        put(out, i + GROUP_U, n, z1)
        put(out, i + GROUP2_U, n, z2)
        put(out, i + GROUP3_U, n, z3)


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


def multiply_shift(x_hi, x_lo, r_hi, r_lo, low_hi, low_lo):
    """Return ``low + floor(x * range / 2**64)`` as int64 for the 64 random bits ``x``.

    Args:
        x_hi, x_lo: the random words.
        r_hi, r_lo: words of ``high - low`` (1 <= range < 2**64).
        low_hi, low_lo: words of ``low mod 2**64``.

    Example:
        >>> z, one = np.uint64(0), np.uint64(1)
        >>> int(multiply_shift(MASK32, MASK32, z, np.uint64(10), z, one))
        10
    """
    h = mulhi64(x_hi, x_lo, r_hi, r_lo)
    s_lo = low_lo + (h & MASK32)
    s_hi = (low_hi + (h >> SHIFT32) + (s_lo >> SHIFT32)) & MASK32
    v = (s_hi << SHIFT32) | (s_lo & MASK32)
    if s_hi >= SIGN32:
        return -np.int64(~v) - 1
    return np.int64(v)


def fill_integers(out, j, k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo):
    """Write counter ``j``'s two uniform integers on [low, high) into ``out``.

    Args:
        out: the whole 1-D output.
        j, k0, k1, o0, o1: counter index, key and offset words.
        r_hi, r_lo, low_hi, low_lo: words of ``high - low`` and of ``low mod 2**64``.

    Example:
        >>> z, a = np.uint64(0), np.full(64, -1)
        >>> fill_integers(a, z, z, z, z, z, z, np.uint64(1), z, z); np.flatnonzero(a == 0).tolist()
        [0, 32]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, TWO)
    put(out, i, n, multiply_shift(x0, x1, r_hi, r_lo, low_hi, low_lo))
    put(out, i + GROUP_U, n, multiply_shift(x2, x3, r_hi, r_lo, low_hi, low_lo))


def fill_bernoulli(out, j, k0, k1, o0, o1, p):
    """Write counter ``j``'s four Bernoulli(p) draws (``x * 2**-32 < p``) into ``out``.

    Example:
        >>> z, a = np.uint64(0), np.zeros(128, np.bool_)
        >>> fill_bernoulli(a, z, z, z, z, z, 1.0); np.flatnonzero(a).tolist()
        [0, 32, 64, 96]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, FOUR)
    put(out, i, n, unit32(x0) < p)
    put(out, i + GROUP_U, n, unit32(x1) < p)
    put(out, i + GROUP2_U, n, unit32(x2) < p)
    put(out, i + GROUP3_U, n, unit32(x3) < p)


DEVICE_FUNCTIONS = (
    "philox4x32_10",
    "counter_words",
    "unit24",
    "unit32",
    "unit53_parts",
    "scale_exact",
    "block",
    "first_value",
    "put",
    "put_below",
    "fill_uniform",
    "box_muller",
    "fill_normal",
    "mulhi64",
    "multiply_shift",
    "fill_integers",
    "fill_bernoulli",
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
        >>> float(cpu.unit24(np.uint64(0)))
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
