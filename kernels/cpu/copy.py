"""CPU strided copy with dtype conversion."""

from __future__ import annotations

import numpy as np

from ..registry import ANY, register


@register("copy", "cpu", [(ANY, ANY)])
def gtensor_copy_cpu(src: np.ndarray, out: np.ndarray, stream: object = None) -> None:
    """Copy ``src`` (broadcast to ``out``'s shape, any strides) into ``out``, converting dtype.

    Args:
        src: source array, same shape as ``out`` (strides may be 0 or negative).
        out: destination array.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(3, np.float32); gtensor_copy_cpu(np.arange(3), out)
    """
    np.copyto(out, src, casting="unsafe")
