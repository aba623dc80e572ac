"""Affine maps: linear and bilinear."""

from __future__ import annotations

from ...errors import ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...tensor import Tensor


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias`` over the last dimension.

    Args:
        input: ``(*, in_features)``.
        weight: ``(out_features, in_features)``.
        bias: ``(out_features,)`` or None.

    Returns:
        ``(*, out_features)``.

    Example:
        >>> F.linear(gt.tensor([[1.0, 2.0]]), gt.tensor([[1.0, 0.0], [1.0, 1.0]]), gt.ones(2))
        tensor([[2., 4.]])
    """
    input, weight, bias = autocast_inputs("linear", input, weight, bias)
    check(input.ndim >= 1 and input.shape[-1] == weight.shape[-1], "linear",
          lambda: f"input of shape {input.shape} does not match weight of shape {weight.shape}",
          ShapeError)
    out = input @ weight.T
    return out if bias is None else out + bias


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """``y[..., k] = input1 @ weight[k] @ input2 + bias[k]``.

    Args:
        input1: ``(*, in1)``.
        input2: ``(*, in2)``.
        weight: ``(out, in1, in2)``.
        bias: ``(out,)`` or None.

    Returns:
        ``(*, out)``.

    Example:
        >>> F.bilinear(gt.ones(4, 3), gt.ones(4, 5), gt.ones(2, 3, 5)).shape
        (4, 2)
    """
    input1, input2, weight, bias = autocast_inputs("bilinear", input1, input2, weight, bias)
    n_out, in1, in2 = weight.shape
    check(input1.shape[-1] == in1 and input2.shape[-1] == in2
          and input1.shape[:-1] == input2.shape[:-1], "bilinear",
          lambda: f"inputs of shapes {input1.shape} and {input2.shape} do not match weight of "
          f"shape {weight.shape}", ShapeError)
    lead = input1.shape[:-1]
    x1 = input1.reshape(-1, in1)
    x2 = input2.reshape(-1, 1, in2)
    w = weight.permute(1, 0, 2).reshape(in1, n_out * in2)
    out = ((x1 @ w).reshape(-1, n_out, in2) * x2).sum(-1)
    if bias is not None:
        out = out + bias
    return out.reshape(*lead, n_out)
