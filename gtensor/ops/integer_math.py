"""``gcd``, ``lcm`` (Euclid's algorithm over ``remainder``) and the NaN-ignoring ``fmax`` and
``fmin``, composed of existing elementwise ops.

``fmax``/``fmin`` pick an operand with ``where``, so the gradient goes wholly to the
picked one (to ``input`` on ties), as PyTorch's does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import result_type
from ..errors import DTypeError, check
from ..graph.grad_mode import no_grad
from ..tensor_base import TensorBase
from . import elementwise as ew
from .creation import as_tensor
from .elementwise import takes_out
from .unary import abs as _abs
from .unary import isnan

if TYPE_CHECKING:
    from ..tensor import Tensor


def _integer_pair(op: str, input: Any, other: Any) -> tuple[Tensor, Tensor]:
    check(isinstance(input, TensorBase), op,
          lambda: f"expected a tensor, got {type(input).__name__}", TypeError)
    dev = input.device
    other = other if isinstance(other, TensorBase) else as_tensor(other, device=dev)
    dt = result_type(input, other)
    check(not dt.is_floating_point and not dt.is_complex and dt.name != "bool", op,
          lambda: f"expected integer tensors, got {input.dtype.name} and {other.dtype.name}",
          DTypeError)
    return input.to(dt), other.to(dt)


@takes_out
def gcd(input: Tensor, other: Any) -> Tensor:
    """The greatest common divisor of each pair (non-negative; ``gcd(0, 0) == 0``).

    Args:
        input: an integer tensor.
        other: an integer tensor or int, broadcast against ``input``.

    Returns:
        The elementwise gcd, in the promoted integer dtype.

    Example:
        >>> gt.gcd(gt.tensor([4, -6, 0]), gt.tensor([6, 4, 5])).tolist()
        [2, 2, 5]
    """
    a, b = _integer_pair("gcd", input, other)
    with no_grad():
        a, b = _abs(a), _abs(b)
        a, b = ew.add(a, ew.mul(b, 0)), ew.add(b, ew.mul(a, 0))  # broadcast both
        while bool(ew.ne(b, 0).any()):
            live = ew.ne(b, 0)
            safe = ew.where(live, b, 1)
            a, b = ew.where(live, b, a), ew.where(live, ew.remainder(a, safe), 0)
    return a


@takes_out
def lcm(input: Tensor, other: Any) -> Tensor:
    """The least common multiple of each pair (non-negative; 0 when either is 0).

    Example:
        >>> gt.lcm(gt.tensor([4, -6, 0]), gt.tensor([6, 4, 5])).tolist()
        [12, 12, 0]
    """
    a, b = _integer_pair("lcm", input, other)
    g = gcd(a, b)
    with no_grad():
        return _abs(ew.mul(ew.floor_divide(a, ew.where(ew.eq(g, 0), 1, g)), b))


def _pick_non_nan(op: str, input: Any, other: Any, prefer: Any) -> Tensor:
    check(isinstance(input, TensorBase) or isinstance(other, TensorBase), op,
          "expected at least one tensor", TypeError)
    dev = input.device if isinstance(input, TensorBase) else other.device
    a = input if isinstance(input, TensorBase) else as_tensor(input, device=dev)
    b = other if isinstance(other, TensorBase) else as_tensor(other, device=dev)
    check(not a.dtype.is_complex and not b.dtype.is_complex, op,
          "complex tensors are not supported", DTypeError)
    dt = result_type(a, b)
    a, b = a.to(dt), b.to(dt)
    return ew.where(ew.logical_or(prefer(a, b), isnan(b)), a, b)


@takes_out
def fmax(input: Tensor, other: Any) -> Tensor:
    """The elementwise maximum, ignoring NaN (NaN only where both are NaN).

    Example:
        >>> gt.fmax(gt.tensor([1.0, float("nan")]), gt.tensor([float("nan"), 2.0])).tolist()
        [1.0, 2.0]
    """
    return _pick_non_nan("fmax", input, other, ew.ge)


@takes_out
def fmin(input: Tensor, other: Any) -> Tensor:
    """The elementwise minimum, ignoring NaN (NaN only where both are NaN).

    Example:
        >>> gt.fmin(gt.tensor([1.0, float("nan")]), gt.tensor([float("nan"), 2.0])).tolist()
        [1.0, 2.0]
    """
    return _pick_non_nan("fmin", input, other, ew.le)
