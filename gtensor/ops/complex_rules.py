"""Which ops complex numbers take, and the conjugation their gradients need.

Complex gradients follow PyTorch's convention: for ``y = f(x)`` and the
incoming gradient ``g``, the input's gradient is ``g * conj(f'(x))`` (for a
real loss, ``dL/d(re x) + 1j * dL/d(im x)``). The VJPs conjugate the
derivative's factors with :func:`conj_of`.
"""

from __future__ import annotations

from typing import Any

from ..dtypes import dtype
from ..errors import DTypeError, check
from ..tensor_base import TensorBase

COMPLEX_BINARY = frozenset(("add", "sub", "mul", "div", "pow", "eq", "ne", "logical_and",
                            "logical_or", "logical_xor"))
"""The binary ops defined on complex numbers; the others (ordering, ``maximum``, ``//``...)
refuse them."""


def refuse_complex(op: str, dt: dtype) -> None:
    """Raise :class:`DTypeError` naming ``op``, which has no meaning for complex ``dt``.

    Example:
        >>> import gtensor as gt
        >>> refuse_complex("lt", gt.float32)
    """
    check(not dt.is_complex, op, lambda: f"not supported for complex tensors ({dt.name})",
          DTypeError)


def conj_of(x: Any) -> Any:
    """The conjugate of a complex tensor or number; real ones as they are.

    Example:
        >>> conj_of(1 + 2j), conj_of(3.0)
        ((1-2j), 3.0)
    """
    if isinstance(x, TensorBase):
        return x.conj() if x._dtype.category == 3 else x  # type: ignore[attr-defined]
    return x.conjugate() if isinstance(x, complex) else x
