"""Activation layers: ReLU and its relatives, GELU, SiLU, Tanh, the sigmoids, the softmaxes."""

from __future__ import annotations

from typing import Any

from ...errors import ShapeError
from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from ..init import constant_
from ..parameter import Parameter
from .module import Module


def _inplace_repr(inplace: bool) -> str:
    return ", inplace=True" if inplace else ""


class ReLU(Module):
    """``max(x, 0)``.

    Example:
        >>> gt.nn.ReLU()(gt.tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply ReLU."""
        return F.relu(input, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    """Gaussian error linear unit (``approximate="tanh"`` for the tanh form)."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        """Apply GELU."""
        return F.gelu(input, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """``x * sigmoid(x)``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply SiLU."""
        return F.silu(input)


class Tanh(Module):
    """Hyperbolic tangent."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply tanh."""
        return F.tanh(input)


class Sigmoid(Module):
    """Logistic sigmoid."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply the sigmoid."""
        return F.sigmoid(input)


class Softmax(Module):
    """Softmax along ``dim`` (PyTorch's deprecated implicit choice when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """Apply softmax."""
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels at each position of ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> gt.nn.Softmax2d()(gt.zeros(1, 2, 1, 1)).flatten().tolist()
        [0.5, 0.5]
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply softmax over dim -3."""
        if input.ndim not in (3, 4):
            raise ShapeError(f"[Softmax2d] expected 3D or 4D input, got shape {input.shape}")
        return F.softmax(input, -3)


class LogSoftmax(Module):
    """Log-softmax along ``dim`` (PyTorch's deprecated implicit choice when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """Apply log-softmax."""
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class _Inplace(Module):
    """An activation without options but ``inplace`` (shown in the repr when set)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` above 0, ``negative_slope * x`` below.

    Example:
        >>> gt.nn.LeakyReLU(0.2)(gt.tensor([-1.0, 2.0]))
        tensor([-0.2000,  2.0000])
    """

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply leaky ReLU."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_repr(self.inplace)}"


class ELU(Module):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply ELU."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_repr(self.inplace)}"


class CELU(ELU):
    """``x`` above 0, ``alpha * (exp(x / alpha) - 1)`` below."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply CELU."""
        return F.celu(input, self.alpha, self.inplace)


class SELU(_Inplace):
    """Scaled ELU with the self-normalizing constants."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply SELU."""
        return F.selu(input, self.inplace)


class Hardtanh(Module):
    """Clip to ``[min_val, max_val]``.

    Example:
        >>> gt.nn.Hardtanh(-2.0, 2.0)(gt.tensor([-3.0, 3.0])).tolist()
        [-2.0, 2.0]
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0,
                 inplace: bool = False) -> None:
        super().__init__()
        if min_val > max_val:
            raise ValueError("[Hardtanh] min_val cannot be greater than max_val")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply hardtanh."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_repr(self.inplace)}"


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Hardswish(_Inplace):
    """``x * relu6(x + 3) / 6``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply hardswish."""
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:
        """Empty, as in PyTorch (which does not show ``inplace`` here)."""
        return ""


class Hardsigmoid(_Inplace):
    """``relu6(x + 3) / 6``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply hardsigmoid."""
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        """Empty, as in PyTorch (which does not show ``inplace`` here)."""
        return ""


class Mish(_Inplace):
    """``x * tanh(softplus(x))``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply Mish."""
        return F.mish(input, self.inplace)


class LogSigmoid(Module):
    """``log(sigmoid(x))``, stable for large ``|x|``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply log-sigmoid."""
        return F.logsigmoid(input)


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        """Apply softplus."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmin(Module):
    """``softmax(-x)`` along ``dim`` (PyTorch's deprecated implicit choice when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """Apply softmin."""
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GLU(Module):
    """Gated linear unit over the halves of ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """Apply GLU."""
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """Leaky ReLU whose slope is learned: one per channel, or one shared.

    Args:
        num_parameters: 1, or the number of channels (dim 1 of the input).
        init: the slopes' initial value.
        device: where the weight lives.
        dtype: the weight's dtype.

    Example:
        >>> gt.nn.PReLU(3)(gt.tensor([[-4.0, -2.0, 2.0]])).tolist()  # slopes start at 0.25
        [[-1.0, -0.5, 2.0]]
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Set every slope to ``init``."""
        constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        """Apply PReLU."""
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
