"""Tolerant and exact comparisons of whole tensors: ``isclose``, ``allclose``, ``equal``.

``isclose`` is NumPy's and PyTorch's test ``|a - b| <= atol + rtol * |b|``,
true also where ``a == b`` (equal infinities); complex numbers compare by the
magnitude of their difference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import bool_
from ..errors import check
from ..tensor_base import TensorBase
from .elementwise import device_of, sub

if TYPE_CHECKING:
    from ..tensor import Tensor


def isclose(input: Tensor, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Where ``input`` and ``other`` are within ``atol + rtol * |other|`` of each other.

    Args:
        input, other: tensors (or a number for ``other``), broadcast together.
        rtol, atol: the relative and absolute tolerances (non-negative).
        equal_nan: count two nans (for complex numbers: two values with a nan part) as close.

    Returns:
        A bool tensor.

    Example:
        >>> import gtensor as gt
        >>> gt.isclose(gt.tensor([1.0, 2.0]), gt.tensor([1.0 + 1e-9, 2.1])).tolist()
        [True, False]
    """
    check(rtol >= 0 and atol >= 0, "isclose", lambda: f"rtol ({rtol}) and atol ({atol}) must "
          "not be negative", ValueError)
    device_of("isclose", (input, other))
    same = input == other
    if input.dtype is bool_ and (not isinstance(other, TensorBase) or other.dtype is bool_):
        return same
    magnitude = other.abs() if isinstance(other, TensorBase) else abs(other)
    close = same | (sub(input, other).abs() <= atol + rtol * magnitude)  # type: ignore[operator]
    if equal_nan:
        other_nan = other.isnan() if isinstance(other, TensorBase) else other != other
        close = close | (input.isnan() & other_nan)  # type: ignore[attr-defined]
    return close


def allclose(input: Tensor, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """True when every element pair is :func:`isclose`.

    Example:
        >>> import gtensor as gt
        >>> gt.allclose(gt.tensor([1j]), gt.tensor([1j + 1e-9]))
        True
    """
    return bool(isclose(input, other, rtol, atol, equal_nan).all().item())


def equal(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have one shape and equal elements (nan never equals).

    Example:
        >>> import gtensor as gt
        >>> gt.equal(gt.tensor([1, 2]), gt.tensor([1, 2]))
        True
    """
    check(isinstance(other, TensorBase), "equal", "expected two tensors", TypeError)
    return input.shape == other.shape and bool((input == other).all().item())
