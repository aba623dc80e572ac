"""CPU concatenation (``cat``, ``stack``): each input copied into its slice of the output."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..registry import ANY, register
from .copy import gtensor_copy_cpu


@register("cat", "cpu", [ANY])
def gtensor_cat_cpu(srcs: Sequence[np.ndarray], out: np.ndarray, dim: int,
                    stream: object = None) -> None:
    """Write the concatenation of ``srcs`` along ``dim`` into ``out``, converting dtypes.

    Args:
        srcs: arrays with ``out``'s shape except along ``dim``, any strides and dtypes.
        out: destination array.
        dim: the cat dim (non-negative).
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(3); gtensor_cat_cpu([np.ones(2), np.zeros(1, np.int8)], out, 0)
        >>> out.tolist()
        [1.0, 1.0, 0.0]
    """
    start = 0
    lead = (slice(None),) * dim
    for src in srcs:
        n = src.shape[dim]
        if src.size:
            gtensor_copy_cpu(src, out[(*lead, slice(start, start + n))])
        start += n
