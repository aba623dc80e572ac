"""Identity, Flatten, Unflatten, Linear and Bilinear layers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Identity(Module):
    """Return the input unchanged (arguments are accepted and ignored).

    Example:
        >>> x = gt.ones(2)
        >>> gt.nn.Identity()(x) is x
        True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        """Return ``input``."""
        return input


class Flatten(Module):
    """Flatten dimensions ``start_dim .. end_dim`` into one.

    Example:
        >>> gt.nn.Flatten()(gt.zeros(2, 3, 4)).shape
        (2, 12)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        """Flatten ``input``."""
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size`` (one entry may be -1).

    Example:
        >>> gt.nn.Unflatten(1, (2, 3))(gt.zeros(4, 6)).shape
        (4, 2, 3)
    """

    def __init__(self, dim: int, unflattened_size: Sequence[int]) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("[Unflatten] unflattened_size must be a tuple or list of ints, got "
                            f"{type(unflattened_size).__name__}")
        for i, size in enumerate(unflattened_size):
            if isinstance(size, bool) or not isinstance(size, int):
                raise TypeError("[Unflatten] unflattened_size must be a tuple of ints, but "
                                f"found element of type {type(size).__name__} at pos {i}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        """Unflatten ``input``."""
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _uniform_fan_in(t: Tensor, fan_in: int) -> None:
    if fan_in <= 0:  # PyTorch's U(0, 0)
        init.zeros_(t)
        return
    bound = 1.0 / math.sqrt(fan_in)
    init.uniform_(t, -bound, bound)


def _register_bias(module: Module, bias: bool, n: int, device: Any, dtype: Any) -> None:
    module.register_parameter("bias", Parameter(empty(n, device=device, dtype=dtype))
                              if bias else None)


class Linear(Module):
    """``y = x @ W.T + b``.

    Weights start from ``kaiming_uniform_(a=sqrt(5))`` and the bias from
    ``U(-1/sqrt(in), 1/sqrt(in))``, as in PyTorch.

    Args:
        in_features: input size.
        out_features: output size.
        bias: learn an additive bias.
        device: where to create the parameters.
        dtype: the parameters' floating dtype.

    Example:
        >>> import gtensor as gt
        >>> gt.nn.Linear(3, 2)(gt.randn(5, 3)).shape
        (5, 2)
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, device=device, dtype=dtype))
        _register_bias(self, bias, out_features, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh initial values."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            _uniform_fan_in(self.bias, self.in_features)

    def forward(self, input: Tensor) -> Tensor:
        """Apply the affine map."""
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """``y[k] = x1 @ W[k] @ x2 + b[k]``.

    Args:
        in1_features: size of the first input.
        in2_features: size of the second input.
        out_features: output size.
        bias: learn an additive bias.
        device: where to create the parameters.
        dtype: the parameters' floating dtype.

    Example:
        >>> gt.nn.Bilinear(3, 4, 2)(gt.ones(5, 3), gt.ones(5, 4)).shape
        (5, 2)
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in1_features, in2_features, device=device,
                                      dtype=dtype))
        _register_bias(self, bias, out_features, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh initial values from ``U(-1/sqrt(in1), 1/sqrt(in1))``."""
        _uniform_fan_in(self.weight, self.in1_features)
        if self.bias is not None:
            _uniform_fan_in(self.bias, self.in1_features)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        """Apply the bilinear map."""
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
