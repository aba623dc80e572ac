"""Activation functions: the elementwise ops under their ``nn.functional`` names, and composites.

The composites (``leaky_relu``, ``elu``, ``hardswish``, ``mish``, ``glu``,
``prelu``...) are written in gtensor ops, so autograd and ``gt.compile`` go
through them and they need no kernel of their own. Their gradients at the
kinks and at nan are PyTorch's: the branch a ``where`` picks there decides
them. ``inplace=True`` computes the result out of place and writes it into
the input with ``copy_``, as ``relu_`` does, so autograd records the write.
``gumbel_softmax`` adds Gumbel noise drawn from ``rand`` before the softmax.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ...errors import ShapeError, check
from ...generator import Generator
from ...graph.autocast_mode import autocast_inputs
from ...graph.inplace import differentiable_inplace
from ...ops.creation import zeros_like
from ...ops.elementwise import where
from ...ops.random import rand
from ...ops.softmax import log_softmax as _log_softmax
from ...ops.softmax import softmax as _softmax
from ...ops.unary import check_floating
from ...ops.unary import softplus as _softplus
from ...shape_rules import wrap_dim
from ...tensor import Tensor

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _in_place(fn: Callable[..., Tensor], name: str) -> Callable[..., Tensor]:
    """The in-place form ``name`` of the composite ``fn``: its result written into the input."""

    def write(self: Tensor, *args: Any) -> Tensor:
        return self.copy_(fn(self, *args))

    write.__name__ = name
    return differentiable_inplace(fn)(write)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)``.

    Example:
        >>> F.relu(gt.tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """
    return input.relu_() if inplace else input.relu()


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: ``x * Phi(x)`` (``approximate="tanh"`` for the tanh form).

    Example:
        >>> F.gelu(gt.tensor([-1.0, 0.0, 1.0]), approximate="tanh")
        tensor([-0.1588,  0.0000,  0.8412])
    """
    check(approximate in ("none", "tanh"), "gelu", lambda: "approximate must be 'none' or "
          f"'tanh', got {approximate!r}", ValueError)
    return input.gelu(approximate=approximate)


def silu(input: Tensor) -> Tensor:
    """``x * sigmoid(x)``."""
    return input.silu()


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-x))``."""
    return input.sigmoid()


def _implicit_dim(op: str, input: Tensor, dim: int | None, stacklevel: int) -> int:
    """``dim``, or PyTorch's deprecated choice when None (0 for 0-, 1- and 3-d inputs, else 1)."""
    if dim is not None:
        return dim
    warnings.warn(f"[{op}] implicit dimension choice for {op} has been deprecated. "
                  "Change the call to include dim=X as an argument.", UserWarning,
                  stacklevel=stacklevel)
    return 0 if input.ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim`` (numerically stable), in ``dtype`` when given.

    Without ``dim``, PyTorch's deprecated choice is made (0 for 0-, 1- and 3-d inputs, else
    1), with a warning.

    Example:
        >>> F.softmax(gt.tensor([0.0, 1.0]), dim=-1)
        tensor([0.2689, 0.7311])
    """
    return _softmax(input, _implicit_dim("softmax", input, dim, _stacklevel), dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: Any = None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim`` (numerically stable), in ``dtype`` when given.

    Without ``dim``, PyTorch's deprecated choice is made, as in :func:`softmax`.

    Example:
        >>> F.log_softmax(gt.tensor([[0.0, 0.0]]), dim=1)
        tensor([[-0.6931, -0.6931]])
    """
    return _log_softmax(input, _implicit_dim("log_softmax", input, dim, _stacklevel), dtype)


def _leaky_relu(x: Tensor, negative_slope: float) -> Tensor:
    return where(x > 0, x, x * negative_slope)


leaky_relu_ = _in_place(_leaky_relu, "leaky_relu_")


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` above 0, ``negative_slope * x`` at and below (gradient ``negative_slope`` at 0).

    Example:
        >>> F.leaky_relu(gt.tensor([-2.0, 3.0]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    check_floating(input, "leaky_relu")
    return (leaky_relu_ if inplace else _leaky_relu)(input, negative_slope)


def _elu(x: Tensor, alpha: float, scale: float = 1.0, input_scale: float = 1.0) -> Tensor:
    """``scale * x`` above 0, ``scale * alpha * expm1(input_scale * x)`` at and below.

    nan takes the linear branch, so its gradient is ``scale`` as in PyTorch.
    """
    below = x <= 0
    negative = where(below, x, 0.0)  # the unused branch stays finite: its zero gradient stays 0
    if input_scale != 1.0:
        negative = negative * input_scale
    negative = negative.expm1() * (alpha * scale)
    return where(below, negative, x * scale if scale != 1.0 else x)


elu_ = _in_place(_elu, "elu_")


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Exponential linear unit: ``x`` above 0, ``alpha * (exp(x) - 1)`` at and below.

    Example:
        >>> F.elu(gt.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """
    check_floating(input, "elu")
    return (elu_ if inplace else _elu)(input, alpha)


def _selu(x: Tensor) -> Tensor:
    return _elu(x, _SELU_ALPHA, _SELU_SCALE)


selu_ = _in_place(_selu, "selu_")


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Scaled ELU with the self-normalizing constants (``scale * elu(x, alpha)``).

    Example:
        >>> F.selu(gt.tensor([-1.0, 0.0, 1.0]))
        tensor([-1.1113,  0.0000,  1.0507])
    """
    check_floating(input, "selu")
    return (selu_ if inplace else _selu)(input)


def _celu(x: Tensor, alpha: float) -> Tensor:
    return _elu(x, alpha, 1.0, 1.0 / alpha)


celu_ = _in_place(_celu, "celu_")


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Continuously differentiable ELU: ``x`` above 0, ``alpha * (exp(x / alpha) - 1)`` below.

    Raises:
        ValueError: ``alpha`` is 0.

    Example:
        >>> F.celu(gt.tensor([-1.0, 0.0, 1.0]), alpha=2.0)
        tensor([-0.7869,  0.0000,  1.0000])
    """
    check_floating(input, "celu")
    check(alpha != 0, "celu", "alpha cannot be 0 for CELU", ValueError)
    return (celu_ if inplace else _celu)(input, alpha)


def _hardtanh(x: Tensor, min_val: float, max_val: float) -> Tensor:
    """Clip to ``[min_val, max_val]``; the gradient is 0 at and beyond the bounds, 1 at nan."""
    if not x.dtype.is_floating_point:  # integer tensors keep their dtype, as in PyTorch
        min_val, max_val = int(min_val), int(max_val)
    return where(x <= min_val, min_val, where(x >= max_val, max_val, x))


hardtanh_ = _in_place(_hardtanh, "hardtanh_")


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """Clip to ``[min_val, max_val]`` (zero gradient at the bounds, as in PyTorch).

    Raises:
        ValueError: ``min_val > max_val``.

    Example:
        >>> F.hardtanh(gt.tensor([-3.0, 0.5, 3.0])).tolist()
        [-1.0, 0.5, 1.0]
    """
    check(min_val <= max_val, "hardtanh", "min_val cannot be greater than max_val", ValueError)
    return (hardtanh_ if inplace else _hardtanh)(input, min_val, max_val)


def _relu6(x: Tensor) -> Tensor:
    return _hardtanh(x, 0.0, 6.0)


relu6_ = _in_place(_relu6, "relu6_")


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(x, 0), 6)``: :func:`hardtanh` on ``[0, 6]``.

    Example:
        >>> F.relu6(gt.tensor([-1.0, 7.0])).tolist()
        [0.0, 6.0]
    """
    return (relu6_ if inplace else _relu6)(input)


def _hardswish(x: Tensor) -> Tensor:
    """``x * 0`` at and below -3 (nan at -inf, as in PyTorch), ``x`` from 3 on, ``x * (x + 3) / 6``
    between; the gradient at -3 is 0, at 3 it is 1 (PyTorch's kinks)."""
    low, high = x <= -3.0, ~(x < 3.0)  # nan is neither low nor below 3: it takes the x branch
    mid = where(low | high, 0.0, x)  # the unused branch stays finite: its zero gradient stays 0
    return where(low, x * 0.0, where(high, x, mid * (mid + 3.0) / 6.0))


hardswish_ = _in_place(_hardswish, "hardswish_")


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * relu6(x + 3) / 6``.

    Example:
        >>> F.hardswish(gt.tensor([-4.0, 1.0, 4.0]))
        tensor([-0.0000,  0.6667,  4.0000])
    """
    check_floating(input, "hardswish")
    return (hardswish_ if inplace else _hardswish)(input)


def _hardsigmoid(x: Tensor) -> Tensor:
    """``(x + 3) / 6`` clipped to ``[0, 1]``; the gradient is 1/6 strictly inside, else 0."""
    ramp = (x + 3.0) / 6.0
    edge = _hardtanh(ramp.detach(), 0.0, 1.0)  # 0, 1 or nan, without a gradient (nan's is 0)
    return where((x > -3.0) & (x < 3.0), ramp, edge)


hardsigmoid_ = _in_place(_hardsigmoid, "hardsigmoid_")


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(x + 3) / 6``.

    Example:
        >>> F.hardsigmoid(gt.tensor([-4.0, 0.0, 4.0])).tolist()
        [0.0, 0.5, 1.0]
    """
    check_floating(input, "hardsigmoid")
    return (hardsigmoid_ if inplace else _hardsigmoid)(input)


def _mish(x: Tensor) -> Tensor:
    return x * _softplus(x).tanh()


mish_ = _in_place(_mish, "mish_")


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))`` (softplus is one stable kernel: linear above 20).

    Example:
        >>> F.mish(gt.tensor([-1.0, 0.0, 1.0]))
        tensor([-0.3034,  0.0000,  0.8651])
    """
    check_floating(input, "mish")
    return (mish_ if inplace else _mish)(input)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``.

    Example:
        >>> F.logsigmoid(gt.tensor([-100.0, 0.0]))
        tensor([-100.0000,   -0.6931])
    """
    check_floating(input, "logsigmoid")
    return -_softplus(-input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``.

    Example:
        >>> F.softplus(gt.tensor([-1.0, 0.0, 1.0]), beta=2.0)
        tensor([0.0635, 0.3466, 1.0635])
    """
    return _softplus(input, beta, threshold)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: halves ``a, b`` of ``input`` along ``dim``, then ``a * sigmoid(b)``.

    Raises:
        ShapeError: ``input`` is 0-d, or its size along ``dim`` is odd.

    Example:
        >>> F.glu(gt.tensor([[1.0, 2.0, 0.0, 0.0]]))  # first half * sigmoid(second half)
        tensor([[0.5000, 1.0000]])
    """
    check_floating(input, "glu")
    check(input.ndim > 0, "glu", "does not support scalars because halving size must be even",
          ShapeError)
    d = wrap_dim(dim, input.ndim, "glu")
    n = input.shape[d]
    check(n % 2 == 0, "glu", lambda: f"halving dimension must be even, but dimension {d} is "
          f"size {n}", ShapeError)
    return input.narrow(d, 0, n // 2) * input.narrow(d, n // 2, n // 2).sigmoid()


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` above 0, ``weight * x`` at and below; ``weight`` has 1 or ``C = input.shape[1]``
    elements.

    Raises:
        ShapeError: ``weight`` is not 0-d or 1-D, or its size is neither 1 nor C.

    Example:
        >>> F.prelu(gt.tensor([-2.0, 2.0]), gt.full((1,), 0.25))
        tensor([-0.5000,  2.0000])
    """
    input, weight = autocast_inputs("prelu", input, weight)
    check_floating(input, "prelu")
    check(weight.ndim <= 1, "prelu", lambda: "expected weight to be a scalar or 1-D tensor, "
          f"got ndim = {weight.ndim}", ShapeError)
    k = weight.numel()
    if k == 1:
        weight = weight.reshape(())
    else:
        channels = input.shape[1] if input.ndim > 1 else 1
        check(channels == k, "prelu", lambda: "mismatch of parameter numbers and input channel "
              f"size: found parameter numbers = {k} and channel size = {channels}", ShapeError)
        weight = weight.reshape((k,) + (1,) * (input.ndim - 2))
    return where(input > 0, input, weight * input)


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    """``softmax(-x)`` along ``dim`` (computed in ``dtype`` when given).

    Without ``dim``, PyTorch's deprecated choice is made (0 for 0-, 1- and 3-d inputs, else
    1), with a warning.

    Example:
        >>> F.softmin(gt.tensor([1.0, 2.0]), dim=0)
        tensor([0.7311, 0.2689])
    """
    return _softmax(-input, _implicit_dim("softmin", input, dim, _stacklevel), dtype)


def relu_(input: Tensor) -> Tensor:
    """``max(x, 0)`` written into ``input``.

    Example:
        >>> x = gt.tensor([-1.0, 2.0])
        >>> F.relu_(x).tolist()
        [0.0, 2.0]
    """
    return input.relu_()


def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1, *, generator: Generator | None = None) -> Tensor:
    """A sample of the Gumbel-softmax (concrete) distribution over ``dim``.

    Args:
        logits: unnormalized log-probabilities.
        tau: temperature (> 0).
        hard: return one-hot samples whose gradient is the soft sample's
            (straight-through).
        eps: unused; kept for PyTorch's signature.
        dim: the class dim.
        generator: the random stream (the device's default one when None).

    Example:
        >>> y = F.gumbel_softmax(gt.zeros(2, 3), hard=True)
        >>> y.sum(-1).tolist()
        [1.0, 1.0]
    """
    del eps
    check(tau > 0, "gumbel_softmax", lambda: f"tau must be positive, got {tau}", ValueError)
    u = 1.0 - rand(*logits.shape, dtype=logits.dtype, device=logits.device, generator=generator)
    gumbels = -((-u.log()).log())
    y_soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
