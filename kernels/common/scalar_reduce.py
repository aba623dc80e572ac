"""Reduction ops as folds, written once for every target.

A fold has ``combine(acc, v, c, p)`` (add one element), ``merge(a, b, p)``
(join two partial accumulators) and ``final(acc, n, c, p)`` (the result from
the accumulator and the element count ``n``). ``c`` is a per-output center
from an optional first pass (the mean for ``var``, the max for ``logsumexp``);
``p`` is the op's parameter (``correction`` for ``var``/``std``, the order for
``norm``). Accumulators: complex128 for complex inputs, float64 for floating inputs
(so float32 sums are accurate: wider accumulation, not pairwise), int64 for integers and booleans
(uint64 for uint64: see :func:`wide_integer`), the input dtype for
``amax``/``amin``, bool for ``any``/``all``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .dtype_groups import ALL, COMPLEX, FLOAT


def add_combine(acc, v, c, p):  # noqa: ANN001, ANN201 - scalar bodies are typed per signature
    return acc + v


def add_merge(a, b, p):  # noqa: ANN001, ANN201
    return a + b


def ident_final(acc, n, c, p):  # noqa: ANN001, ANN201
    return acc


def mean_final(acc, n, c, p):  # noqa: ANN001, ANN201
    return acc / n if n > 0 else math.nan


def mul_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    return acc * v


def mul_merge(a, b, p):  # noqa: ANN001, ANN201
    return a * b


def max_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    return v if v > acc or (v != v and acc == acc) else acc


def max_merge(a, b, p):  # noqa: ANN001, ANN201
    return b if b > a or (b != b and a == a) else a


def min_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    return v if v < acc or (v != v and acc == acc) else acc


def min_merge(a, b, p):  # noqa: ANN001, ANN201
    return b if b < a or (b != b and a == a) else a


def any_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    return acc or v != 0


def any_merge(a, b, p):  # noqa: ANN001, ANN201
    return a or b


def all_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    return acc and v != 0


def all_merge(a, b, p):  # noqa: ANN001, ANN201
    return a and b


def sqdev_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    d = v - c
    return acc + d * d


def var_final(acc, n, c, p):  # noqa: ANN001, ANN201
    dof = n - p
    if dof > 0:
        return acc / dof
    return math.nan if acc == 0 or acc != acc else math.inf


def std_final(acc, n, c, p):  # noqa: ANN001, ANN201
    dof = n - p
    if dof > 0:
        return math.sqrt(acc / dof)
    return math.nan if acc == 0 or acc != acc else math.inf


def expdev_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    if c == math.inf or c == -math.inf:
        return acc + (1.0 if v == c else 0.0)
    return acc + math.exp(v - c)


def logsumexp_final(acc, n, c, p):  # noqa: ANN001, ANN201
    if c == math.inf or c == -math.inf or c != c:
        return c
    return c + math.log(acc)


def norm_combine(acc, v, c, p):  # noqa: ANN001, ANN201
    a = abs(v)
    if p == 2:
        return acc + a * a
    if p == 1:
        return acc + a
    if p == math.inf:
        return a if a > acc or a != a else acc
    if p == 0:
        return acc + (1.0 if a != 0 else 0.0)
    return acc + a ** p


def norm_merge(a, b, p):  # noqa: ANN001, ANN201
    if p == math.inf:
        return b if b > a or b != b else a
    return a + b


def norm_final(acc, n, c, p):  # noqa: ANN001, ANN201
    if p == 2:
        return math.sqrt(acc)
    if p == 1 or p == 0 or p == math.inf:
        return acc
    return acc ** (1.0 / p)


@dataclass(frozen=True)
class Fold:
    """One pass of a reduction: scalar bodies plus how its accumulator starts."""

    combine: Any
    merge: Any
    final: Any
    start: str  # "zero", "one", "low", "high", "false", "true"
    acc: str  # "wide" (float64 / int64), "same" (input dtype), "bool", "float" (float64)


@dataclass(frozen=True)
class Reduction:
    """A reduction op: an optional centering pass, then the main pass, and its dtypes."""

    main: Fold
    dtypes: tuple[str, ...]
    center: Fold | None = None


_SUM = Fold(add_combine, add_merge, ident_final, "zero", "wide")
_MAX = Fold(max_combine, max_merge, ident_final, "low", "same")
_MEAN = Fold(add_combine, add_merge, mean_final, "zero", "float")

REDUCTIONS: dict[str, Reduction] = {
    "sum": Reduction(_SUM, (*ALL, *COMPLEX)),
    "prod": Reduction(Fold(mul_combine, mul_merge, ident_final, "one", "wide"),
                      (*ALL, *COMPLEX)),
    "mean": Reduction(_MEAN, (*FLOAT, *COMPLEX)),
    "amax": Reduction(_MAX, ALL),
    "amin": Reduction(Fold(min_combine, min_merge, ident_final, "high", "same"), ALL),
    "any": Reduction(Fold(any_combine, any_merge, ident_final, "false", "bool"), ALL),
    "all": Reduction(Fold(all_combine, all_merge, ident_final, "true", "bool"), ALL),
    "var": Reduction(Fold(sqdev_combine, add_merge, var_final, "zero", "float"), FLOAT, _MEAN),
    "std": Reduction(Fold(sqdev_combine, add_merge, std_final, "zero", "float"), FLOAT, _MEAN),
    "logsumexp": Reduction(
        Fold(expdev_combine, add_merge, logsumexp_final, "zero", "float"), FLOAT, _MAX),
    "norm": Reduction(Fold(norm_combine, norm_merge, norm_final, "zero", "float"), FLOAT),
}


def wide_integer(dtype: Any) -> np.dtype:
    """The accumulator of integer and bool sums and products: int64, uint64 for uint64 input.

    Both wrap modulo 2**64 to the same bits, which the int64 result keeps; a
    uint64 accumulator adds uint64 elements without mixing signedness, which
    Numba types as int64 but NumPy scalars (the CUDA simulator's) as float64.

    Example:
        >>> wide_integer("uint64"), wide_integer("uint8")
        (dtype('uint64'), dtype('int64'))
    """
    return np.dtype(np.uint64 if np.dtype(dtype) == np.uint64 else np.int64)


def acc_dtype(fold: Fold, dtype: str) -> np.dtype:
    """The accumulator dtype of ``fold`` for inputs of ``dtype``.

    Example:
        >>> acc_dtype(REDUCTIONS["sum"].main, "float32")
        dtype('float64')
    """
    if fold.acc == "same":
        return np.dtype(dtype)
    if fold.acc == "bool":
        return np.dtype(bool)
    if np.dtype(dtype).kind == "c":
        return np.dtype(np.complex128)
    if fold.acc == "float" or np.dtype(dtype).kind == "f":
        return np.dtype(np.float64)
    return wide_integer(dtype)


def start_value(fold: Fold, dtype: str) -> Any:
    """The accumulator's starting value (the fold's identity) as a NumPy scalar.

    Example:
        >>> float(start_value(REDUCTIONS["amax"].main, "float32"))
        -inf
    """
    acc = acc_dtype(fold, dtype)
    if fold.start in ("low", "high"):
        if acc.kind == "f":
            value = -np.inf if fold.start == "low" else np.inf
        elif acc.kind == "b":
            value = fold.start == "high"
        else:
            info = np.iinfo(acc)
            value = info.min if fold.start == "low" else info.max
    else:
        value = {"zero": 0, "one": 1, "false": False, "true": True}[fold.start]
    return acc.type(value)
