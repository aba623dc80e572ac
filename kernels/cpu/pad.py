"""CPU constant padding: the value everywhere, then the source copied into its window."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..registry import ANY, register
from .copy import gtensor_copy_cpu
from .fill import gtensor_fill_cpu


@register("constant_pad", "cpu", [ANY])
def gtensor_constant_pad_cpu(src: np.ndarray, out: np.ndarray, lows: Sequence[int],
                             value: object, stream: object = None) -> None:
    """Write ``src`` into ``out`` at offset ``lows`` and ``value`` everywhere else.

    Args:
        src: source array, ``out``'s dtype and rank, at most ``out``'s size in every dim.
        out: destination array.
        lows: the left pad of every dim (non-negative).
        value: the fill value.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(4); gtensor_constant_pad_cpu(np.ones(2), out, (1,), 7.0)
        >>> out.tolist()
        [7.0, 1.0, 1.0, 7.0]
    """
    gtensor_fill_cpu(out, value)
    if src.size:
        window = tuple(slice(lo, lo + n) for lo, n in zip(lows, src.shape, strict=True))
        gtensor_copy_cpu(src, out[window])
