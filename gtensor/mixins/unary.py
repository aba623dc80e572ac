"""Unary elementwise methods (``exp``, ``sin``, ``isnan``...) and ``-a``, ``abs(a)``, ``~a``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ops import (
    float_math,
    gamma_family,
    inplace_forms,
    number_functions,
    special_functions,
    unary,
)

if TYPE_CHECKING:
    from ..tensor import Tensor


class UnaryMethods:
    """One method per unary op, and its in-place form (``exp_``) unless the result is bool."""

    __slots__ = ()

    neg = unary.neg
    neg_ = unary.neg_
    abs = unary.abs
    abs_ = unary.abs_
    sign = unary.sign
    sign_ = unary.sign_
    square = unary.square
    square_ = unary.square_
    relu = unary.relu
    relu_ = unary.relu_
    exp = unary.exp
    exp_ = unary.exp_
    exp2 = unary.exp2
    exp2_ = unary.exp2_
    log = unary.log
    log_ = unary.log_
    log2 = unary.log2
    log2_ = unary.log2_
    log10 = unary.log10
    log10_ = unary.log10_
    log1p = unary.log1p
    log1p_ = unary.log1p_
    expm1 = unary.expm1
    expm1_ = unary.expm1_
    sqrt = unary.sqrt
    sqrt_ = unary.sqrt_
    rsqrt = unary.rsqrt
    rsqrt_ = unary.rsqrt_
    reciprocal = unary.reciprocal
    reciprocal_ = unary.reciprocal_
    sin = unary.sin
    sin_ = unary.sin_
    cos = unary.cos
    cos_ = unary.cos_
    tan = unary.tan
    tan_ = unary.tan_
    asin = unary.asin
    asin_ = unary.asin_
    acos = unary.acos
    acos_ = unary.acos_
    atan = unary.atan
    atan_ = unary.atan_
    sinh = unary.sinh
    sinh_ = unary.sinh_
    cosh = unary.cosh
    cosh_ = unary.cosh_
    tanh = unary.tanh
    tanh_ = unary.tanh_
    sigmoid = unary.sigmoid
    sigmoid_ = unary.sigmoid_
    gelu = unary.gelu
    gelu_ = unary.gelu_
    silu = unary.silu
    silu_ = unary.silu_
    softplus = unary.softplus
    softplus_ = unary.softplus_
    erf = unary.erf
    erf_ = unary.erf_
    logit = special_functions.logit
    logit_ = special_functions.logit_
    frexp = special_functions.frexp
    sinc = special_functions.sinc
    sinc_ = number_functions.sinc_
    erfc = special_functions.erfc
    erfc_ = number_functions.erfc_
    lgamma = unary.lgamma
    lgamma_ = unary.lgamma_
    digamma = unary.digamma
    digamma_ = unary.digamma_
    erfinv = unary.erfinv
    erfinv_ = unary.erfinv_
    nan_to_num = number_functions.nan_to_num
    nan_to_num_ = number_functions.nan_to_num_
    deg2rad = number_functions.deg2rad
    deg2rad_ = number_functions.deg2rad_
    rad2deg = number_functions.rad2deg
    rad2deg_ = number_functions.rad2deg_
    frac = number_functions.frac
    frac_ = number_functions.frac_
    positive = number_functions.positive
    isposinf = number_functions.isposinf
    isneginf = number_functions.isneginf
    isreal = number_functions.isreal
    floor = unary.floor
    floor_ = unary.floor_
    ceil = unary.ceil
    ceil_ = unary.ceil_
    trunc = unary.trunc
    trunc_ = unary.trunc_
    round = unary.round
    round_ = unary.round_
    bitwise_not = unary.bitwise_not
    bitwise_not_ = unary.bitwise_not_
    logical_not = unary.logical_not
    isnan = unary.isnan
    isinf = unary.isinf
    isfinite = unary.isfinite
    absolute = unary.abs
    absolute_ = unary.abs_
    negative = unary.neg
    negative_ = unary.neg_
    logical_not_ = inplace_forms.logical_not_
    sgn_ = inplace_forms.sgn_
    fix = unary.trunc
    fix_ = unary.trunc_
    asinh = float_math.asinh
    asinh_ = inplace_forms.asinh_
    acosh = float_math.acosh
    acosh_ = inplace_forms.acosh_
    atanh = float_math.atanh
    atanh_ = inplace_forms.atanh_
    arcsin = unary.asin
    arcsin_ = unary.asin_
    arccos = unary.acos
    arccos_ = unary.acos_
    arctan = unary.atan
    arctan_ = unary.atan_
    arcsinh = float_math.asinh
    arcsinh_ = inplace_forms.asinh_
    arccosh = float_math.acosh
    arccosh_ = inplace_forms.acosh_
    arctanh = float_math.atanh
    arctanh_ = inplace_forms.atanh_
    signbit = float_math.signbit
    i0 = gamma_family.i0
    i0_ = inplace_forms.i0_
    mvlgamma = gamma_family.mvlgamma
    mvlgamma_ = inplace_forms.mvlgamma_
    polygamma_ = inplace_forms.polygamma_

    def polygamma(self, n: int) -> Tensor:
        """The ``n``-th derivative of digamma at ``self`` (see :func:`gtensor.polygamma`)."""
        return gamma_family.polygamma(n, self)

    __neg__ = unary.neg
    __abs__ = unary.abs
    __invert__ = unary.bitwise_not
