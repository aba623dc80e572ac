"""Shrinking and thresholding activations: softsign, hardshrink, softshrink, tanhshrink,
threshold, rrelu (and the in-place ``threshold_``, ``rrelu_``).

Each is a composition of ``where`` and elementwise ops, so autograd and
``gt.compile`` go through it. ``rrelu`` in training draws one slope per
element from ``U(lower, upper)`` for the inputs at or below 0 (PyTorch's
rule); in evaluation it is ``leaky_relu`` with the mean slope.
"""

from __future__ import annotations

from ...errors import DTypeError, check
from ...ops.elementwise import where
from ...ops.random import rand_like
from ...ops.unary import check_floating
from ...tensor import Tensor
from .activation import _in_place, leaky_relu


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)`` (integer input gives the default float dtype, as in PyTorch).

    Example:
        >>> F.softsign(gt.tensor([1.0, -3.0])).tolist()
        [0.5, -0.75]
    """
    check(input.dtype.name != "bool", "softsign", "not implemented for dtype bool", DTypeError)
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)`` (integer input gives the default float dtype, as in PyTorch).

    Example:
        >>> F.tanhshrink(gt.tensor([0.0])).tolist()
        [0.0]
    """
    check(input.dtype.name != "bool", "tanhshrink", "not implemented for dtype bool",
          DTypeError)
    return input - input.tanh()


def _lambd(op: str, lambd: float) -> None:
    check(lambd >= 0, op, lambda: f"lambda must be greater or equal to 0, but found to be "
          f"{lambd}", ValueError)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0.

    Example:
        >>> F.hardshrink(gt.tensor([0.25, -0.75])).tolist()
        [0.0, -0.75]
    """
    check_floating(input, "hardshrink")
    return where((input >= -lambd) & (input <= lambd), 0.0, input)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Example:
        >>> F.softshrink(gt.tensor([1.0, -1.0, 0.2])).tolist()
        [0.5, -0.5, 0.0]
    """
    check_floating(input, "softshrink")
    _lambd("softshrink", lambd)
    inside = (input >= -lambd) & (input <= lambd)
    return where(inside, input * 0, input - input.sign() * lambd)


def _threshold(x: Tensor, threshold: float, value: float) -> Tensor:
    out = where(x <= threshold, value, x)
    return out if out.dtype is x.dtype else out.to(x.dtype)


threshold_ = _in_place(_threshold, "threshold_")


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold``, else ``value`` (in ``x``'s dtype, integers included).

    Example:
        >>> F.threshold(gt.tensor([0.5, 2.0]), 1.0, -1.0).tolist()
        [-1.0, 2.0]
    """
    check(not input.dtype.is_complex, "threshold", lambda: f"not implemented for dtype "
          f"{input.dtype.name}", DTypeError)
    return (threshold_ if inplace else _threshold)(input, threshold, value)


def _rrelu(x: Tensor, lower: float, upper: float, training: bool) -> Tensor:
    if not training:
        return leaky_relu(x, (lower + upper) / 2)
    slope = rand_like(x) * (upper - lower) + lower
    return x * where(x <= 0, slope, 1.0)


_rrelu_inplace = _in_place(_rrelu, "rrelu_")


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: slopes drawn from ``U(lower, upper)`` for ``x <= 0`` in training,
    their mean in evaluation.

    Example:
        >>> F.rrelu(gt.tensor([-2.0, 3.0])).tolist()
        [-0.4583333432674408, 3.0]
    """
    check_floating(input, "rrelu")
    check(0 <= lower <= upper, "rrelu", lambda: f"expected 0 <= lower <= upper, got lower "
          f"{lower} and upper {upper}", ValueError)
    return (_rrelu_inplace if inplace else _rrelu)(input, lower, upper, training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False) -> Tensor:
    """In-place :func:`rrelu`.

    Example:
        >>> F.rrelu_(gt.tensor([-2.0, 3.0])).tolist()
        [-0.4583333432674408, 3.0]
    """
    return rrelu(input, lower, upper, training, inplace=True)
