"""``gt.set_float32_matmul_precision`` / ``gt.get_float32_matmul_precision``, as in PyTorch.

``"highest"`` (the default) computes float32 matrix products in float32;
``"high"`` and ``"medium"`` allow TF32 tensor cores on CUDA (cuBLAS), which
round the operands to a 10-bit mantissa and are several times faster.
``gt.backends.cuda.matmul.allow_tf32`` is the same switch seen as a bool.
The CPU computes in full precision at every level.
"""

from __future__ import annotations

from .errors import check
from .kernels.common import matmul_precision


def set_float32_matmul_precision(precision: str) -> None:
    """Set the internal precision of float32 matrix products.

    Args:
        precision: ``"highest"``, ``"high"`` or ``"medium"``.

    Example:
        >>> gt.set_float32_matmul_precision("high")
        >>> gt.backends.cuda.matmul.allow_tf32
        True
        >>> gt.set_float32_matmul_precision("highest")  # the default
    """
    check(precision in matmul_precision.LEVELS, "set_float32_matmul_precision",
          lambda: f"precision must be one of {matmul_precision.LEVELS}, got {precision!r}",
          ValueError)
    matmul_precision.set_level(precision)


def get_float32_matmul_precision() -> str:
    """Return the internal precision of float32 matrix products.

    Example:
        >>> gt.get_float32_matmul_precision()
        'highest'
    """
    return matmul_precision.get_level()
