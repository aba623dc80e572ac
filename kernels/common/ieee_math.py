"""``math`` and ``cmath`` with IEEE results instead of exceptions, for the CUDA simulator.

The simulator runs scalar bodies as Python, where ``cmath.exp(inf + 0j)``,
``cmath.sin(inf)`` or ``math.cos(inf)`` raise; compiled code (Numba's CPU and
CUDA targets) returns C99's values (inf, nan) instead. Simulated kernels whose
bodies call these modules see these stand-ins: NumPy's functions, which follow
C99's special cases, with its floating-point warnings silenced.

Example:
    >>> CMATH.exp(complex(float("inf"), 0.0))
    np.complex128(inf+0j)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np


def _quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)

    return call


_SHARED = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
           "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
           "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
           "acosh": np.arccosh, "atanh": np.arctanh}

CMATH = SimpleNamespace(**{k: _quiet(f) for k, f in _SHARED.items()})
"""``cmath``'s functions that the complex bodies call."""

MATH = SimpleNamespace(
    **{k: _quiet(f) for k, f in _SHARED.items()},
    log1p=_quiet(np.log1p), expm1=_quiet(np.expm1), atan2=_quiet(np.arctan2),
    copysign=math.copysign, isinf=math.isinf, floor=math.floor,
    inf=math.inf, nan=math.nan, pi=math.pi)
"""``math``'s functions and constants that the complex bodies use."""
