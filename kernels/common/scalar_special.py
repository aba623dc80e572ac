"""Scalar bodies of the gamma-family and inverse error functions: lgamma, digamma,
trigamma, erfinv.

Written once, like :mod:`.scalar_unary`, for ``njit``, CUDA device functions and the
simulator; each computes in float64 (``float(x)``: a float32 input would otherwise
compute in float32 in the simulator) and the kernel rounds once to the output dtype.
Bodies call no helpers of their own (Numba compiles only the body); ``sin(pi x)`` and
``tan(pi x)`` are taken of ``pi (x - round(x))``, exact for every ``x``.

- ``lgamma``: ``math.lgamma`` (libm on the cpu, libdevice on CUDA), guarded at the
  poles and past its overflow, where Python's ``math`` would raise.
- ``digamma``/``trigamma``: the reflection formula below 0.5, the recurrence up to 10,
  then the asymptotic series (Bernoulli numbers up to ``B14``).
- ``erfinv``: Giles' single-precision approximation (relative error ~1e-7 up to
  ``|x| = 1 - 1e-8``), then Halley steps on ``erf`` (on ``log(erfc)`` above 0.5, where
  ``erfc`` keeps the precision that ``1 - erf`` loses and the logarithm is nearly
  linear): one step reaches float64 precision, a few more far in the tail.
"""

from __future__ import annotations

import math

_LGAMMA_MAX = 2.55e305  # lgamma overflows a float64 past about 2.556e305
_SERIES_FROM = 10.0


def lgamma(x):  # noqa: ANN001, ANN201 - scalar bodies are typed by Numba per signature
    v = float(x)
    if v != v:
        return v
    if v - v != 0 or v > _LGAMMA_MAX:
        return math.inf
    if v <= 0 and math.floor(v) == v:
        return math.inf
    return math.lgamma(v)


def digamma(x):  # noqa: ANN001, ANN201
    v = float(x)
    if v != v or v == math.inf:
        return v
    if v == -math.inf:
        return math.nan
    if v == 0:
        return -math.inf if math.copysign(1.0, v) > 0 else math.inf
    total = 0.0
    if v < 0.5:
        if math.floor(v) == v:
            return math.nan
        total = -math.pi / math.tan(math.pi * (v - math.floor(v + 0.5)))
        v = 1.0 - v
    while v < _SERIES_FROM:
        total -= 1.0 / v
        v += 1.0
    s = 1.0 / (v * v)
    tail = s * (1 / 12 + s * (-1 / 120 + s * (1 / 252 + s * (-1 / 240 + s * (
        1 / 132 + s * (-691 / 32760 + s / 12))))))
    return total + math.log(v) - 0.5 / v - tail


def trigamma(x):  # noqa: ANN001, ANN201
    v = float(x)
    if v != v or v == math.inf:
        return 0.0 if v == math.inf else v
    if v == -math.inf:
        return math.nan
    if v <= 0 and math.floor(v) == v:
        return math.inf
    sign, total = 1.0, 0.0
    if v < 0.5:
        sine = math.sin(math.pi * (v - math.floor(v + 0.5)))
        total = math.pi * math.pi / (sine * sine)
        sign, v = -1.0, 1.0 - v
    series = 0.0
    while v < _SERIES_FROM:
        series += 1.0 / (v * v)
        v += 1.0
    s = 1.0 / (v * v)
    tail = s * (1 / 6 + s * (-1 / 30 + s * (1 / 42 + s * (-1 / 30 + s * (
        5 / 66 + s * (-691 / 2730 + s * 7 / 6)))))) / v
    return total + sign * (series + 1.0 / v + 0.5 * s + tail)


def erfinv(x):  # noqa: ANN001, ANN201
    y = float(x)
    a = abs(y)
    if not a < 1.0:
        return math.copysign(math.inf, y) if a == 1.0 else math.nan
    w = -math.log((1.0 - a) * (1.0 + a))
    if w < 5.0:
        t = w - 2.5
        p = 2.81022636e-08
        p = 3.43273939e-07 + p * t
        p = -3.5233877e-06 + p * t
        p = -4.39150654e-06 + p * t
        p = 0.00021858087 + p * t
        p = -0.00125372503 + p * t
        p = -0.00417768164 + p * t
        p = 0.246640727 + p * t
        p = 1.50140941 + p * t
    else:
        t = math.sqrt(w) - 3.0
        p = -0.000200214257
        p = 0.000100950558 + p * t
        p = 0.00134934322 + p * t
        p = -0.00367342844 + p * t
        p = 0.00573950773 + p * t
        p = -0.0076224613 + p * t
        p = 0.00943887047 + p * t
        p = 1.00167406 + p * t
        p = 2.83297682 + p * t
    r = p * a
    log_complement = math.log(1.0 - a)
    for _ in range(5):  # cubic convergence: one step from the start, a few far in the tail
        slope = 1.1283791670955126 * math.exp(-r * r)  # erf'(r)
        if a > 0.5:
            tail = math.erfc(r)
            if not tail > 0.0:
                break
            newton = (log_complement - math.log(tail)) * tail / slope
            step = newton / (1.0 + newton * (r - 0.5 * slope / tail))
        else:
            newton = (math.erf(r) - a) / slope
            step = newton / (1.0 + newton * r)
        r -= step
        if abs(step) <= 1e-6 * r:  # the error left is of order step**3
            break
    return math.copysign(r, y)
