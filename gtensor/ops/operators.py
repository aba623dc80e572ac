"""Python operators on Tensor, mapped to the elementwise ops (``a + b``, ``a += b``...)."""

from __future__ import annotations

from typing import Any

from ..tensor import Tensor, tensor_method
from . import elementwise as ew

_FORWARD = {
    "add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "floordiv": "floor_divide",
    "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or",
    "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
}
_COMPARE = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}


def _attach(dunder: str, op: str) -> None:
    spec = ew.SPECS[op]

    def forward(self: Tensor, other: Any) -> Any:
        if not (isinstance(other, Tensor) or ew.is_scalar(other)):
            return NotImplemented
        return ew.binary(spec, self, other)

    def reflected(self: Tensor, other: Any) -> Any:
        if not ew.is_scalar(other):
            return NotImplemented
        return ew.binary(spec, other, self)

    def inplace(self: Tensor, other: Any) -> Tensor:
        return getattr(self, op + "_")(other)

    tensor_method(f"__{dunder}__")(forward)
    if dunder not in _COMPARE:
        tensor_method(f"__r{dunder}__")(reflected)
        tensor_method(f"__i{dunder}__")(inplace)


for _dunder, _op in {**_FORWARD, **_COMPARE}.items():
    _attach(_dunder, _op)

tensor_method("__pos__")(lambda self: self)
tensor_method("true_divide", "divide")(ew.div)  # type: ignore[attr-defined]
tensor_method("multiply")(ew.mul)  # type: ignore[attr-defined]
tensor_method("subtract")(ew.sub)  # type: ignore[attr-defined]
