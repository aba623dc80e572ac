"""Python operators on Tensor, mapped to the elementwise ops (``a + b``, ``2 * a``, ``a < b``...).

A forward operator takes a tensor or a number and leaves other types to
Python (``NotImplemented``); a reflected one (``2 - a``) takes numbers only.
The in-place operators (``a += b``) are the in-place ops themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..graph.autocast_mode import with_autocast
from ..tensor_base import TensorBase
from . import elementwise as ew

if TYPE_CHECKING:
    from ..tensor import Tensor


def _forward(op: str) -> Callable[[Tensor, Any], Any]:
    spec = ew.SPECS[op]

    def forward(self: Tensor, other: Any) -> Any:
        if isinstance(other, TensorBase):
            result = ew.same_dtype_binary(spec, self, other)
            if result is not None:
                return result
        elif not ew.is_scalar(other):
            return NotImplemented
        return ew.binary(spec, self, other)

    forward.__name__ = forward.__qualname__ = op
    return with_autocast(op, forward)


def _reflected(op: str) -> Callable[[Tensor, Any], Any]:
    spec = ew.SPECS[op]

    def reflected(self: Tensor, other: Any) -> Any:
        if not ew.is_scalar(other):
            return NotImplemented
        return ew.binary(spec, other, self)

    reflected.__name__ = reflected.__qualname__ = "r" + op
    return with_autocast(op, reflected)


add, radd = _forward("add"), _reflected("add")
sub, rsub = _forward("sub"), _reflected("sub")
mul, rmul = _forward("mul"), _reflected("mul")
truediv, rtruediv = _forward("div"), _reflected("div")
floordiv, rfloordiv = _forward("floor_divide"), _reflected("floor_divide")
mod, rmod = _forward("remainder"), _reflected("remainder")
pow, rpow = _forward("pow"), _reflected("pow")  # noqa: A001
and_, rand = _forward("bitwise_and"), _reflected("bitwise_and")
or_, ror = _forward("bitwise_or"), _reflected("bitwise_or")
xor, rxor = _forward("bitwise_xor"), _reflected("bitwise_xor")
lshift, rlshift = _forward("left_shift"), _reflected("left_shift")
rshift, rrshift = _forward("right_shift"), _reflected("right_shift")
eq = _forward("eq")
ne = _forward("ne")
lt = _forward("lt")
le = _forward("le")
gt = _forward("gt")
ge = _forward("ge")


def pos(self: Tensor) -> Tensor:
    """``+a``: the tensor itself."""
    return self
