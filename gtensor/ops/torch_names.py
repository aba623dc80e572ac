"""PyTorch's other names for gtensor's functions (``arccos``, ``greater``, ``concat``...),
``rsub``, and the number functions of :mod:`~gtensor.ops.integer_math` and
:mod:`~gtensor.ops.gamma_family` under their top-level names.

Example:
    >>> gt.greater(gt.tensor([1, 3]), 2).tolist()
    [False, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import elementwise as ew
from . import float_math, unary
from .creation_extra import (
    asarray,
    empty_permuted,
    frombuffer,
    logspace,
    scalar_tensor,
    unravel_index,
)
from .gamma_family import i0, mvlgamma, polygamma
from .indexing.index_reduce import index_reduce
from .inplace_forms import acosh_, asinh_, atanh_, gcd_, i0_, lcm_
from .integer_math import fmax, fmin, gcd, lcm
from .layout.copies import cat
from .layout.diagonals import diag_embed, diagflat, split_with_sizes, unsafe_chunk, unsafe_split
from .layout.inplace_views import as_strided_
from .products import addbmm, pdist
from .queries import get_device, is_neg, is_nonzero, is_same_size, is_signed, is_tensor, resolve_neg
from .random_counts import binomial, poisson
from .random_overloads import normal, randint_like
from .sequences import trapezoid

if TYPE_CHECKING:
    from ..tensor import Tensor

arccos, arccos_ = unary.acos, unary.acos_
arcsin, arcsin_ = unary.asin, unary.asin_
arctan, arctan_ = unary.atan, unary.atan_
arccosh, arcsinh, arctanh = float_math.acosh, float_math.asinh, float_math.atanh
arccosh_, arcsinh_, arctanh_ = acosh_, asinh_, atanh_
arctan2 = ew.atan2
negative_ = unary.neg_
greater, greater_equal = ew.gt, ew.ge
less, less_equal = ew.lt, ew.le
not_equal = ew.ne
bitwise_left_shift, bitwise_right_shift = ew.left_shift, ew.right_shift
fix, fix_ = unary.trunc, unary.trunc_
concat = cat
trapz = trapezoid


def concatenate(tensors: Sequence[Tensor], axis: int = 0) -> Tensor:
    """:func:`gtensor.cat` under NumPy's name and argument name (``axis``).

    Example:
        >>> gt.concatenate([gt.ones(1), gt.zeros(1)]).tolist()
        [1.0, 0.0]
    """
    return cat(tensors, axis)


def rsub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``other - alpha * input`` (``sub`` with its operands swapped).

    Example:
        >>> gt.rsub(gt.tensor([1.0]), 5.0, alpha=2).tolist()
        [3.0]
    """
    return ew.sub(other, input, alpha=alpha)


__all__ = ["acosh_", "addbmm", "arccos", "arccos_", "arccosh", "arccosh_", "arcsin", "arcsin_",
           "arcsinh", "arcsinh_", "arctan", "arctan2", "arctan_", "arctanh", "arctanh_",
           "as_strided_", "asarray", "asinh_", "atanh_", "binomial", "bitwise_left_shift",
           "bitwise_right_shift", "concat", "concatenate", "diag_embed", "diagflat",
           "empty_permuted", "fix", "fix_", "fmax", "fmin", "frombuffer", "gcd", "gcd_",
           "get_device", "greater", "greater_equal", "i0", "i0_", "index_reduce", "is_neg",
           "is_nonzero", "is_same_size", "is_signed", "is_tensor", "lcm", "lcm_", "less",
           "less_equal", "logspace", "mvlgamma", "negative_", "normal", "not_equal", "pdist",
           "poisson", "polygamma", "randint_like", "resolve_neg", "rsub", "scalar_tensor",
           "split_with_sizes", "trapz", "unravel_index", "unsafe_chunk", "unsafe_split"]
