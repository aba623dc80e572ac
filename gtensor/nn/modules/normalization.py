"""Normalization layers: BatchNorm1d/2d/3d, InstanceNorm1d/2d/3d, LayerNorm, GroupNorm, RMSNorm,
LocalResponseNorm."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...dtypes import int64
from ...errors import ShapeError
from ...graph.grad_mode import no_grad
from ...ops.creation import empty, ones, zeros
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class _BatchNorm(Module):
    _expected_dims: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        self.register_parameter("weight", Parameter(empty(num_features, device=device,
                                                          dtype=dtype)) if affine else None)
        self.register_parameter("bias", Parameter(empty(num_features, device=device,
                                                        dtype=dtype)) if affine and bias else None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", zeros((), dtype=int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def _fill_missing_state(self, state_dict: dict[str, Any], prefix: str) -> None:
        """Checkpoints from before ``num_batches_tracked`` load with a count of 0."""
        key = prefix + "num_batches_tracked"
        if self.track_running_stats and key not in state_dict:
            state_dict[key] = zeros((), dtype=int64)

    def reset_running_stats(self) -> None:
        """Reset the running mean to 0, the running variance to 1 and the batch count."""
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            with no_grad():
                self.num_batches_tracked.fill_(0)

    def reset_parameters(self) -> None:
        """Reset the running statistics and set the scale to 1 and the shift to 0."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        """Normalize with batch statistics (training) or running statistics (eval)."""
        name = type(self).__name__
        if input.ndim not in self._expected_dims:
            raise ShapeError(f"[{name}] expected {' or '.join(map(str, self._expected_dims))}-D "
                             f"input, got shape {input.shape}")
        if input.shape[1] != self.num_features:
            raise ShapeError(f"[{name}] expected {self.num_features} channels, got input of "
                             f"shape {input.shape}")
        momentum = self.momentum
        if self.training and self.track_running_stats:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if momentum is None:
                momentum = 1.0 / self.num_batches_tracked.item()
        use_batch = self.training or not self.track_running_stats
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            use_batch, momentum or 0.0, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization over ``(N, C)`` or ``(N, C, L)`` inputs, with running statistics.

    Args:
        num_features: C.
        eps: added to the variance.
        momentum: weight of each batch in the running statistics (None: cumulative average).
        affine: learn a per-channel scale and shift.
        track_running_stats: keep running statistics for evaluation.
        device: where to create parameters and buffers.
        dtype: their floating dtype.

    Example:
        >>> bn = gt.nn.BatchNorm1d(1)
        >>> bn(gt.tensor([[1.0], [3.0]])).shape, bn.running_mean  # momentum 0.1
        ((2, 1), tensor([0.2000]))
    """

    _expected_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over ``(N, C, H, W)`` inputs, with running statistics.

    Same arguments as :class:`BatchNorm1d`.

    Example:
        >>> gt.nn.BatchNorm2d(3)(gt.ones(2, 3, 4, 4)).shape
        (2, 3, 4, 4)
    """

    _expected_dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalization over ``(N, C, D, H, W)`` inputs, with running statistics.

    Same arguments as :class:`BatchNorm1d`.

    Example:
        >>> gt.nn.BatchNorm3d(3)(gt.ones(2, 3, 2, 2, 2)).shape
        (2, 3, 2, 2, 2)
    """

    _expected_dims = (5,)


class _InstanceNorm(_BatchNorm):
    """Per-sample, per-channel normalization; PyTorch's defaults: no affine, no running stats."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        """Normalize each channel of each sample (unbatched input gets N = 1)."""
        name = type(self).__name__
        batched = self._expected_dims[-1]
        if input.ndim not in self._expected_dims:
            raise ShapeError(f"[{name}] expected {batched - 1}-D or {batched}-D input, got "
                             f"shape {input.shape}")
        if input.ndim == batched - 1:
            return self.forward(input.unsqueeze(0)).squeeze(0)
        if input.shape[1] != self.num_features and self.affine:
            raise ShapeError(f"[{name}] expected {self.num_features} channels, got input of "
                             f"shape {input.shape}")
        use_input = self.training or not self.track_running_stats
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, use_input, self.momentum or 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over ``(N, C, L)`` or ``(C, L)`` inputs.

    Same arguments as :class:`BatchNorm1d`, with ``affine`` and
    ``track_running_stats`` off by default.

    Example:
        >>> gt.nn.InstanceNorm1d(3)(gt.ones(2, 3, 5)).shape
        (2, 3, 5)
    """

    _expected_dims = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over ``(N, C, H, W)`` or ``(C, H, W)`` inputs.

    Same arguments as :class:`InstanceNorm1d`.

    Example:
        >>> gt.nn.InstanceNorm2d(3, affine=True)(gt.ones(2, 3, 4, 4)).shape
        (2, 3, 4, 4)
    """

    _expected_dims = (3, 4)


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` inputs.

    Same arguments as :class:`InstanceNorm1d`.

    Example:
        >>> gt.nn.InstanceNorm3d(2)(gt.randn(1, 2, 2, 2, 2)).shape
        (1, 2, 2, 2, 2)
    """

    _expected_dims = (4, 5)


class LocalResponseNorm(Module):
    """:func:`~gtensor.nn.functional.local_response_norm` as a module.

    Example:
        >>> gt.nn.LocalResponseNorm(2)(gt.ones(1, 3, 2)).shape
        (1, 3, 2)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        """Normalize across neighbouring channels."""
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LayerNorm(Module):
    """Normalize over the trailing ``normalized_shape`` dimensions, with an elementwise affine.

    Example:
        >>> gt.nn.LayerNorm(8)(gt.ones(2, 5, 8)).shape
        (2, 5, 8)
    """

    def __init__(self, normalized_shape: int | Sequence[int], eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
            normalized_shape)
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(zeros(shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        """Normalize ``input``."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalize groups of channels per sample, with a per-channel affine.

    Example:
        >>> gt.nn.GroupNorm(2, 4)(gt.ones(3, 4, 5)).shape
        (3, 4, 5)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        if num_groups <= 0 or num_channels % num_groups:
            raise ValueError(f"[GroupNorm] num_channels ({num_channels}) must be divisible by "
                             f"num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        self.register_parameter("weight", Parameter(ones(num_channels, device=device,
                                                         dtype=dtype)) if affine else None)
        self.register_parameter("bias", Parameter(zeros(num_channels, device=device,
                                                       dtype=dtype)) if affine and bias else None)

    def forward(self, input: Tensor) -> Tensor:
        """Normalize ``input``."""
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Root-mean-square normalization over the trailing ``normalized_shape`` dims.

    Args:
        normalized_shape: the trailing shape to normalize over.
        eps: added to the mean square (None: the dtype's machine epsilon).
        elementwise_affine: learn a scale of shape ``normalized_shape`` (starting at 1).
        device: where to create the scale.
        dtype: its floating dtype.

    Example:
        >>> gt.nn.RMSNorm(8)(gt.ones(2, 8)).shape
        (2, 8)
    """

    def __init__(self, normalized_shape: int | Sequence[int], eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) \
            else tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)

    def forward(self, input: Tensor) -> Tensor:
        """Normalize ``input``."""
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")
