"""Reductions composed of the basic ones: count_nonzero, nansum, nanmean, aminmax, std_mean,
var_mean.

NaNs are zeroed with ``where`` before summing, so the gradient is zero at
them, as in PyTorch; the pairs run the two reductions they name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import DTypeError, check
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .elementwise import where
from .reduction import Dims, amax, amin, mean, std, sum, var

if TYPE_CHECKING:
    from ..tensor import Tensor


class AminmaxResult(NamedTuple):
    """``(min, max)`` as returned by :func:`aminmax`."""

    min: Tensor
    max: Tensor


def _tensor_arg(op: str, x: Any) -> Tensor:
    check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got {type(x).__name__}",
          TypeError)
    return x


def count_nonzero(input: Tensor, dim: Dims = None) -> Tensor:
    """The number of nonzero elements (over ``dim``, all by default), as int64.

    Example:
        >>> gt.count_nonzero(gt.tensor([[0, 1], [2, 3]]), 1).tolist()
        [1, 2]
    """
    _tensor_arg("count_nonzero", input)
    return sum(input != 0, dim)


def _nan_zeroed(op: str, input: Tensor) -> Tensor:
    _tensor_arg(op, input)
    if not input.dtype.is_floating_point:
        return input
    return where(input.isnan(), 0.0, input)  # type: ignore[attr-defined]


def nansum(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None
           ) -> Tensor:
    """The sum over ``dim`` treating NaN as zero.

    Example:
        >>> gt.nansum(gt.tensor([1.0, float("nan"), 2.0])).item()
        3.0
    """
    return sum(_nan_zeroed("nansum", input), dim, keepdim, dtype=dtype)


def nanmean(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None
            ) -> Tensor:
    """The mean over ``dim`` of the non-NaN elements (NaN where all are NaN).

    Example:
        >>> gt.nanmean(gt.tensor([1.0, float("nan"), 2.0])).item()
        1.5
    """
    _tensor_arg("nanmean", input)
    check(input.dtype.is_floating_point or input.dtype.is_complex, "nanmean",
          lambda: f"expected input to have floating point or complex dtype, got "
          f"{input.dtype.name}", DTypeError)
    count = sum(~input.isnan(), dim, keepdim)  # type: ignore[attr-defined]
    return nansum(input, dim, keepdim, dtype=dtype) / count


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> AminmaxResult:
    """The minimum and maximum over ``dim`` (all elements by default).

    Example:
        >>> gt.aminmax(gt.tensor([3, 1, 2])).max.item()
        3
    """
    _tensor_arg("aminmax", input)
    if input.numel() == 0:  # fine while the reduced dim itself is not empty, as in PyTorch
        check(dim is not None and input.shape[wrap_dim(dim, input.ndim, "aminmax")] > 0,
              "aminmax", "cannot compute aminmax of an empty tensor (the operation has no "
              "identity)", ValueError)
    return AminmaxResult(amin(input, dim, keepdim), amax(input, dim, keepdim))


def std_mean(input: Tensor, dim: Dims = None, unbiased: bool | None = None,
             keepdim: bool = False, *, correction: float | None = None
             ) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` over ``dim`` (``correction`` 1 by default).

    Example:
        >>> [t.item() for t in gt.std_mean(gt.tensor([1.0, 3.0]))]
        [1.4142135381698608, 2.0]
    """
    _tensor_arg("std_mean", input)
    return (std(input, dim, unbiased, keepdim, correction=correction),
            mean(input, dim, keepdim))


def var_mean(input: Tensor, dim: Dims = None, unbiased: bool | None = None,
             keepdim: bool = False, *, correction: float | None = None
             ) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` over ``dim`` (``correction`` 1 by default).

    Example:
        >>> [t.item() for t in gt.var_mean(gt.tensor([1.0, 3.0]))]
        [2.0, 2.0]
    """
    _tensor_arg("var_mean", input)
    return (var(input, dim, unbiased, keepdim, correction=correction),
            mean(input, dim, keepdim))
