"""CPU fill and arange kernels."""

from __future__ import annotations

import numpy as np

from ..registry import ANY, register


@register("fill", "cpu", [ANY])
def gtensor_fill_cpu(out: np.ndarray, value: object, stream: object = None) -> None:
    """Set every element of ``out`` (any strides) to ``value``.

    Example:
        >>> out = np.empty(3); gtensor_fill_cpu(out, 2.0)
    """
    out[...] = value


@register("arange", "cpu", [ANY])
def gtensor_arange_cpu(out: np.ndarray, start: float, step: float,
                       stream: object = None) -> None:
    """Write ``start + i * step`` into the 1-D ``out`` (computed in float64 or int64).

    Example:
        >>> out = np.empty(4); gtensor_arange_cpu(out, 1.0, 0.5)
    """
    calc = np.float64 if out.dtype.kind in "fb" else np.int64
    np.copyto(out, np.arange(out.shape[0], dtype=calc) * calc(step) + calc(start),
              casting="unsafe")
