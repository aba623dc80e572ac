"""In-place forms (``x.cumsum_(0)``, ``x.gcd_(y)``...) of out-of-place ops, written through
``copy_`` so autograd, views and read-only checks behave as for every in-place op.

The result must keep ``self``'s dtype (a widening result is refused, as in PyTorch);
the predicates (``logical_not_``) and ``cumsum_``/``cumprod_`` write in ``self``'s dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..graph.inplace import differentiable_inplace
from . import float_math, integer_math
from .complex_ops import sgn
from .gamma_family import i0, mvlgamma, polygamma
from .scan import cumprod, cumsum
from .special_functions import write_inplace
from .unary import logical_not

if TYPE_CHECKING:
    from ..tensor import Tensor


def inplace_form(op: str, fn: Callable[..., Tensor], cast: bool = False) -> Callable[..., Tensor]:
    """The in-place op ``op`` that writes ``fn(self, ...)`` into ``self``.

    Args:
        op: the in-place op's name (``"gcd_"``), for error messages.
        fn: the out-of-place op, taking ``self`` first.
        cast: write the result in ``self``'s dtype (else a dtype change is refused).

    Example:
        >>> gcd_ = inplace_form("gcd_", gt.gcd)
        >>> x = gt.tensor([4, 6])
        >>> gcd_(x, gt.tensor([6, 4])) is x, x.tolist()
        (True, [2, 2])
    """

    def out_of_place(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        result = fn(self, *args, **kwargs)
        return result.to(self.dtype) if cast else result

    def inplace(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return write_inplace(op, self, out_of_place(self, *args, **kwargs))

    inplace.__name__ = inplace.__qualname__ = op
    inplace.__doc__ = f"In-place ``{op[:-1]}``: writes the result into ``self``."
    return differentiable_inplace(out_of_place)(inplace)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


cumsum_ = inplace_form("cumsum_", cumsum, cast=True)
cumprod_ = inplace_form("cumprod_", cumprod, cast=True)
logical_not_ = inplace_form("logical_not_", logical_not, cast=True)
sgn_ = inplace_form("sgn_", sgn)
asinh_ = inplace_form("asinh_", float_math.asinh)
acosh_ = inplace_form("acosh_", float_math.acosh)
atanh_ = inplace_form("atanh_", float_math.atanh)
copysign_ = inplace_form("copysign_", float_math.copysign)
hypot_ = inplace_form("hypot_", float_math.hypot)
nextafter_ = inplace_form("nextafter_", float_math.nextafter)
gcd_ = inplace_form("gcd_", integer_math.gcd)
lcm_ = inplace_form("lcm_", integer_math.lcm)
i0_ = inplace_form("i0_", i0)
polygamma_ = inplace_form("polygamma_", _polygamma_method)
mvlgamma_ = inplace_form("mvlgamma_", mvlgamma)
