"""Binary and ternary elementwise methods, Python's arithmetic operators, matmul and the
linear-algebra shortcuts (``mv``, ``kron``, ``logdet``...)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..linalg import determinants, legacy, shortcuts, solvers
from ..linalg import products as linalg_products
from ..ops import (
    closeness,
    elementwise,
    float_math,
    inplace_forms,
    integer_math,
    number_functions,
    operators,
    products,
    special_functions,
    ternary,
)
from ..ops import matmul as linalg

if TYPE_CHECKING:
    from ..tensor import Tensor


class ArithmeticMethods:
    """``add``, ``mul``, comparisons, ``where``, ``clamp``, ``@``... and their operators."""

    __slots__ = ()

    add = elementwise.add
    add_ = elementwise.add_
    sub = elementwise.sub
    sub_ = elementwise.sub_
    subtract = elementwise.sub
    subtract_ = elementwise.sub_
    mul = elementwise.mul
    mul_ = elementwise.mul_
    multiply = elementwise.mul
    multiply_ = elementwise.mul_
    div = elementwise.div
    div_ = elementwise.div_
    divide = elementwise.div
    true_divide = elementwise.div
    divide_ = elementwise.div_
    true_divide_ = elementwise.div_
    floor_divide = elementwise.floor_divide
    floor_divide_ = elementwise.floor_divide_
    remainder = elementwise.remainder
    remainder_ = elementwise.remainder_
    pow = elementwise.pow
    pow_ = elementwise.pow_
    maximum = elementwise.maximum
    maximum_ = elementwise.maximum_
    minimum = elementwise.minimum
    minimum_ = elementwise.minimum_
    atan2 = elementwise.atan2
    atan2_ = elementwise.atan2_
    arctan2 = elementwise.atan2
    arctan2_ = elementwise.atan2_
    eq = elementwise.eq
    eq_ = elementwise.eq_
    ne = elementwise.ne
    ne_ = elementwise.ne_
    lt = elementwise.lt
    lt_ = elementwise.lt_
    le = elementwise.le
    le_ = elementwise.le_
    gt = elementwise.gt
    gt_ = elementwise.gt_
    ge = elementwise.ge
    ge_ = elementwise.ge_
    greater = elementwise.gt
    greater_ = elementwise.gt_
    greater_equal = elementwise.ge
    greater_equal_ = elementwise.ge_
    less = elementwise.lt
    less_ = elementwise.lt_
    less_equal = elementwise.le
    less_equal_ = elementwise.le_
    not_equal = elementwise.ne
    not_equal_ = elementwise.ne_
    logical_and = elementwise.logical_and
    logical_and_ = elementwise.logical_and_
    logical_or = elementwise.logical_or
    logical_or_ = elementwise.logical_or_
    logical_xor = elementwise.logical_xor
    logical_xor_ = elementwise.logical_xor_
    bitwise_and = elementwise.bitwise_and
    bitwise_and_ = elementwise.bitwise_and_
    bitwise_or = elementwise.bitwise_or
    bitwise_or_ = elementwise.bitwise_or_
    bitwise_xor = elementwise.bitwise_xor
    bitwise_xor_ = elementwise.bitwise_xor_
    left_shift = elementwise.left_shift
    left_shift_ = elementwise.left_shift_
    right_shift = elementwise.right_shift
    right_shift_ = elementwise.right_shift_
    bitwise_left_shift = elementwise.left_shift
    bitwise_left_shift_ = elementwise.left_shift_
    bitwise_right_shift = elementwise.right_shift
    bitwise_right_shift_ = elementwise.right_shift_
    gcd = integer_math.gcd
    gcd_ = inplace_forms.gcd_
    lcm = integer_math.lcm
    lcm_ = inplace_forms.lcm_
    fmax = integer_math.fmax
    fmin = integer_math.fmin
    copysign = float_math.copysign
    copysign_ = inplace_forms.copysign_
    hypot = float_math.hypot
    hypot_ = inplace_forms.hypot_
    logaddexp = float_math.logaddexp
    nextafter = float_math.nextafter
    nextafter_ = inplace_forms.nextafter_
    xlogy = special_functions.xlogy
    xlogy_ = special_functions.xlogy_
    ldexp = special_functions.ldexp
    ldexp_ = special_functions.ldexp_

    def where(self, condition: Any, other: Any) -> Tensor:
        """``self`` where ``condition`` is true, else ``other`` (see :func:`gtensor.where`)."""
        return elementwise.where(condition, self, other)

    clamp = ternary.clamp
    clamp_ = ternary.clamp_
    clip = ternary.clamp
    clip_ = ternary.clamp_
    lerp = ternary.lerp
    lerp_ = ternary.lerp_
    addcmul = ternary.addcmul
    addcmul_ = ternary.addcmul_
    addcdiv = ternary.addcdiv
    addcdiv_ = ternary.addcdiv_
    clamp_min = number_functions.clamp_min
    clamp_min_ = number_functions.clamp_min_
    clamp_max = number_functions.clamp_max
    clamp_max_ = number_functions.clamp_max_
    fmod = number_functions.fmod
    fmod_ = number_functions.fmod_
    heaviside = number_functions.heaviside
    heaviside_ = number_functions.heaviside_
    float_power = number_functions.float_power
    float_power_ = number_functions.float_power_
    logaddexp2 = number_functions.logaddexp2

    matmul = linalg.matmul
    mm = linalg.mm
    bmm = linalg.bmm
    dot = linalg.dot
    isclose = closeness.isclose
    allclose = closeness.allclose
    equal = closeness.equal
    vdot = linalg.vdot
    addmv = products.addmv
    addmv_ = products.addmv_
    addr = products.addr
    addr_ = products.addr_
    baddbmm = products.baddbmm
    baddbmm_ = products.baddbmm_
    addmm = products.addmm
    addmm_ = products.addmm_
    mv = shortcuts.mv
    inner = shortcuts.inner
    dist = shortcuts.dist
    kron = shortcuts.kron
    cross = shortcuts.cross
    outer = linalg_products.outer
    ger = linalg_products.outer
    logdet = shortcuts.logdet
    slogdet = determinants.slogdet
    det = determinants.det
    matrix_power = solvers.matrix_power
    inverse = legacy.inverse
    pinverse = legacy.pinverse
    cholesky = legacy.cholesky
    cholesky_solve = legacy.cholesky_solve
    cholesky_inverse = legacy.cholesky_inverse
    qr = legacy.qr
    svd = legacy.svd
    triangular_solve = legacy.triangular_solve
    matrix_exp = legacy.matrix_exp
    lu = legacy.lu

    def lu_solve(self, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
        """Solve ``A X = self`` from ``A``'s :func:`gtensor.linalg.lu_factor` result."""
        return legacy.lu_solve(self, LU_data, LU_pivots)

    addbmm = products.addbmm
    addbmm_ = products.addbmm_
    __matmul__ = linalg.matmul
    __rmatmul__ = linalg.rmatmul

    __pos__ = operators.pos
    __add__ = operators.add
    __radd__ = operators.radd
    __iadd__ = elementwise.add_
    __sub__ = operators.sub
    __rsub__ = operators.rsub
    __isub__ = elementwise.sub_
    __mul__ = operators.mul
    __rmul__ = operators.rmul
    __imul__ = elementwise.mul_
    __truediv__ = operators.truediv
    __rtruediv__ = operators.rtruediv
    __itruediv__ = elementwise.div_
    __floordiv__ = operators.floordiv
    __rfloordiv__ = operators.rfloordiv
    __ifloordiv__ = elementwise.floor_divide_
    __mod__ = operators.mod
    __rmod__ = operators.rmod
    __imod__ = elementwise.remainder_
    __pow__ = operators.pow
    __rpow__ = operators.rpow
    __ipow__ = elementwise.pow_
    __and__ = operators.and_
    __rand__ = operators.rand
    __iand__ = elementwise.bitwise_and_
    __or__ = operators.or_
    __ror__ = operators.ror
    __ior__ = elementwise.bitwise_or_
    __xor__ = operators.xor
    __rxor__ = operators.rxor
    __ixor__ = elementwise.bitwise_xor_
    __lshift__ = operators.lshift
    __rlshift__ = operators.rlshift
    __ilshift__ = elementwise.left_shift_
    __rshift__ = operators.rshift
    __rrshift__ = operators.rrshift
    __irshift__ = elementwise.right_shift_
    __eq__ = operators.eq
    __ne__ = operators.ne
    __lt__ = operators.lt
    __le__ = operators.le
    __gt__ = operators.gt
    __ge__ = operators.ge
