"""Normalization: batch_norm, layer_norm, group_norm, instance_norm, rms_norm and
local_response_norm (a window sum of squares over neighbouring channels).

All but ``rms_norm`` normalize with the biased variance ``mean((x - mean)**2)``
and ``1 / sqrt(var + eps)``, then apply an optional per-feature scale and
shift; ``rms_norm`` divides by the root mean square without centring.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...graph.grad_mode import no_grad
from ...ops.layout.copies import pad
from ...tensor import Tensor


def _normalize(x: Tensor, dims: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor, Tensor]:
    mean = x.mean(dims, keepdim=True)
    centered = x - mean
    var = (centered * centered).mean(dims, keepdim=True)
    return centered * (var + eps).rsqrt(), mean, var


def _channel_shape(x: Tensor) -> tuple[int, ...]:
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def layer_norm(input: Tensor, normalized_shape: int | Sequence[int],
               weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Normalize over the trailing ``normalized_shape`` dimensions.

    Args:
        input: ``(*, *normalized_shape)``.
        normalized_shape: the trailing shape to normalize over.
        weight: scale of shape ``normalized_shape`` (or None).
        bias: shift of shape ``normalized_shape`` (or None).
        eps: added to the variance.

    Example:
        >>> F.layer_norm(gt.tensor([[1.0, 2.0, 3.0]]), (3,))
        tensor([[-1.2247,  0.0000,  1.2247]])
    """
    input, weight, bias = autocast_inputs("layer_norm", input, weight, bias)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    check(k >= 1 and tuple(input.shape[input.ndim - k:]) == shape, "layer_norm",
          lambda: f"input of shape {input.shape} does not end with normalized_shape {shape}",
          ShapeError)
    y, _, _ = _normalize(input, tuple(range(input.ndim - k, input.ndim)), eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalize each sample over groups of ``C / num_groups`` channels (and all positions).

    Args:
        input: ``(N, C, *)``.
        num_groups: number of groups; divides ``C``.
        weight: per-channel scale ``(C,)`` (or None).
        bias: per-channel shift ``(C,)`` (or None).
        eps: added to the variance.

    Example:
        >>> F.group_norm(gt.tensor([[1.0, 3.0, 10.0, 30.0]]), 2)  # groups (1, 3) and (10, 30)
        tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    input, weight, bias = autocast_inputs("group_norm", input, weight, bias)
    check(input.ndim >= 2, "group_norm", lambda: f"expected input with at least 2 dims, got "
          f"shape {input.shape}", ShapeError)
    n, c = input.shape[:2]
    check(num_groups > 0 and c % num_groups == 0, "group_norm", lambda: f"{c} channels are "
          f"not divisible into {num_groups} groups", ShapeError)
    grouped = input.reshape(n, num_groups, -1)
    y = _normalize(grouped, (2,), eps)[0].reshape(input.shape)
    if weight is not None:
        y = y * weight.reshape(_channel_shape(input))
    if bias is not None:
        y = y + bias.reshape(_channel_shape(input))
    return y


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel over the batch (and spatial) dimensions.

    In training, the batch statistics normalize and the running ones are
    updated in place: ``running = (1 - momentum) * running + momentum *
    batch`` (the running variance takes the unbiased batch variance). In
    evaluation, the running statistics normalize.

    Args:
        input: ``(N, C)`` or ``(N, C, *)``.
        running_mean: ``(C,)`` buffer (or None to not track).
        running_var: ``(C,)`` buffer (or None to not track).
        weight: per-channel scale ``(C,)`` (or None).
        bias: per-channel shift ``(C,)`` (or None).
        training: use batch statistics and update the running ones.
        momentum: weight of the batch statistics in the running update.
        eps: added to the variance.

    Example:
        >>> rm, rv = gt.zeros(1), gt.ones(1)
        >>> F.batch_norm(gt.tensor([[1.0], [3.0]]), rm, rv, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
        >>> rm, rv  # updated in place with momentum 0.1
        (tensor([0.2000]), tensor([1.1000]))
    """
    check(input.ndim >= 2, "batch_norm", lambda: f"expected input with at least 2 dims, got "
          f"shape {input.shape}", ShapeError)
    dims = (0, *range(2, input.ndim))
    shape = _channel_shape(input)
    if training:
        count = input.numel() // input.shape[1]
        check(count > 1, "batch_norm", lambda: "expected more than 1 value per channel when "
              f"training, got input of shape {input.shape}", ValueError)
        y, mean, var = _normalize(input, dims, eps)
        if running_mean is not None and running_var is not None:
            with no_grad():
                running_mean.mul_(1 - momentum).add_(
                    mean.detach().reshape(-1) * momentum)
                running_var.mul_(1 - momentum).add_(
                    var.detach().reshape(-1) * (momentum * count / (count - 1)))
    else:
        check(running_mean is not None and running_var is not None, "batch_norm",
              "running_mean and running_var are required in evaluation mode", ValueError)
        mean = running_mean.reshape(shape)  # type: ignore[union-attr]
        inv = (running_var.reshape(shape) + eps).rsqrt()  # type: ignore[union-attr]
        y = (input - mean) * inv
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel of each sample over its positions.

    With ``use_input_stats`` the per-instance statistics normalize and the
    running ones (when given) move towards their mean over the batch (the
    variance unbiased); otherwise the running statistics normalize.

    Args:
        input: ``(N, C, *)`` with at least one position dim.
        running_mean: ``(C,)`` buffer (or None).
        running_var: ``(C,)`` buffer (or None).
        weight: per-channel scale ``(C,)`` (or None).
        bias: per-channel shift ``(C,)`` (or None).
        use_input_stats: normalize with the instance statistics.
        momentum: weight of the batch statistics in the running update.
        eps: added to the variance.

    Example:
        >>> F.instance_norm(gt.tensor([[[1.0, 3.0], [2.0, 6.0]]]))  # each channel on its own
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    check(input.ndim >= 3, "instance_norm", lambda: f"expected input with at least 3 dims, "
          f"got shape {input.shape}", ShapeError)
    if not use_input_stats:
        check(running_mean is not None and running_var is not None, "instance_norm",
              "running_mean and running_var are required when use_input_stats=False",
              ValueError)
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    count = input.numel() // (input.shape[0] * input.shape[1])
    check(count > 1, "instance_norm", lambda: "expected more than 1 spatial element when "
          f"training, got input of shape {input.shape}", ValueError)
    y, mean, var = _normalize(input, tuple(range(2, input.ndim)), eps)
    if running_mean is not None and running_var is not None:
        with no_grad():
            c = input.shape[1]
            running_mean.mul_(1 - momentum).add_(
                mean.detach().reshape(-1, c).mean(0) * momentum)
            running_var.mul_(1 - momentum).add_(
                var.detach().reshape(-1, c).mean(0) * (momentum * count / (count - 1)))
    if weight is not None:
        y = y * weight.reshape(_channel_shape(input))
    if bias is not None:
        y = y + bias.reshape(_channel_shape(input))
    return y


def rms_norm(input: Tensor, normalized_shape: int | Sequence[int],
             weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """Scale by the reciprocal root mean square over the trailing ``normalized_shape`` dims.

    ``y = x * rsqrt(mean(x**2) + eps) * weight``.

    Args:
        input: ``(*, *normalized_shape)``.
        normalized_shape: the trailing shape to normalize over.
        weight: scale of shape ``normalized_shape`` (or None).
        eps: added to the mean square (None: the machine epsilon of the dtype).

    Example:
        >>> F.rms_norm(gt.tensor([[3.0, 4.0]]), (2,))  # divided by sqrt(12.5)
        tensor([[0.8485, 1.1314]])
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    check(k >= 1 and tuple(input.shape[input.ndim - k:]) == shape, "rms_norm",
          lambda: f"input of shape {input.shape} does not end with normalized_shape {shape}",
          ShapeError)
    if eps is None:
        eps = float(np.finfo(input.dtype.name).eps)
    dims = tuple(range(input.ndim - k, input.ndim))
    y = input * ((input * input).mean(dims, keepdim=True) + eps).rsqrt()
    return y if weight is None else y * weight


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Divide each entry by ``(k + alpha * mean of squares over size neighbouring channels)
    ** beta``.

    Args:
        input: ``(N, C, *)`` with at least one position dim.
        size: channels in the window (zero padded at the ends).
        alpha: multiplicative factor.
        beta: exponent.
        k: additive factor.

    Example:
        >>> F.local_response_norm(gt.ones(1, 3, 2), 2).shape
        (1, 3, 2)
    """
    op = "local_response_norm"
    check(input.ndim >= 3, op, lambda: f"expected 3D or higher dimensionality input (got "
          f"{input.ndim} dimensions)", ShapeError)
    check(isinstance(size, int) and size > 0, op, lambda: f"size must be a positive int, got "
          f"{size!r}", ValueError)
    if input.numel() == 0:
        return input
    n, c = input.shape[:2]
    sq = (input * input).reshape(n, c, -1)
    sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
    total = sq.narrow(1, 0, c)
    for i in range(1, size):
        total = total + sq.narrow(1, i, c)
    div = (total.reshape(input.shape) * (alpha / size) + k) ** beta
    return input / div
