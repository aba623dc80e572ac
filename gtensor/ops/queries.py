"""Questions about a tensor that read only its metadata (``is_signed``, ``get_device``,
``is_same_size``...) and ``is_nonzero``, which reads its one element."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import check
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor


def is_tensor(obj: Any) -> bool:
    """True when ``obj`` is a gtensor tensor.

    Example:
        >>> gt.is_tensor(gt.zeros(1)), gt.is_tensor([0.0])
        (True, False)
    """
    return isinstance(obj, TensorBase)


def is_signed(input: Tensor) -> bool:
    """True when ``input``'s dtype holds negative values (signed ints, floats, complex).

    Example:
        >>> gt.zeros(1, dtype=gt.uint8).is_signed()
        False
    """
    dt = input.dtype
    return not (dt.name == "bool" or dt.name.startswith("uint"))


def is_nonzero(input: Tensor) -> bool:
    """Whether the one element of ``input`` is nonzero (``bool(input)`` of a one-element tensor).

    Example:
        >>> gt.is_nonzero(gt.tensor([0.5]))
        True
    """
    check(isinstance(input, TensorBase), "is_nonzero",
          lambda: f"expected a tensor, got {type(input).__name__}", TypeError)
    n = input.numel()
    check(n == 1, "is_nonzero", lambda: "Boolean value of Tensor with no values is ambiguous"
          if n == 0 else f"Boolean value of Tensor with {n} values is ambiguous", RuntimeError)
    return bool(input.item())  # type: ignore[attr-defined]


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same shape.

    Example:
        >>> gt.zeros(2, 3).is_same_size(gt.ones(2, 3))
        True
    """
    return tuple(input.shape) == tuple(other.shape)


def is_cpu(input: Tensor) -> bool:
    """True when ``input`` lives on the cpu (the ``Tensor.is_cpu`` property)."""
    return input.device.type == "cpu"


def get_device(input: Tensor) -> int:
    """The cuda device's ordinal, or -1 for a cpu tensor.

    Example:
        >>> gt.zeros(1).get_device()
        -1
    """
    dev = input.device
    return -1 if dev.type == "cpu" else (dev.index or 0)


def is_neg(input: Tensor) -> bool:
    """False: gtensor applies negation eagerly, so no tensor carries a lazy negative bit.

    Example:
        >>> gt.is_neg(-gt.ones(1))
        False
    """
    return False


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` itself (no tensor carries a lazy negative bit; see :func:`is_neg`).

    Example:
        >>> x = gt.ones(1); gt.resolve_neg(x) is x
        True
    """
    return input


def ndimension(input: Tensor) -> int:
    """The number of dimensions (``dim()``)."""
    return len(input.shape)


def nelement(input: Tensor) -> int:
    """The number of elements (``numel()``)."""
    return input.numel()
