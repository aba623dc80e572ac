"""The float32 matmul precision the GEMM kernels read: PyTorch's three levels.

``"highest"`` computes float32 (and complex64) products in full float32;
``"high"`` and ``"medium"`` let cuBLAS round the operands to TF32 on tensor
cores (cuBLAS has no faster bfloat16 path for float32 inputs, so on CUDA
``"medium"`` behaves as ``"high"``, as in PyTorch). The CPU kernels always
compute in full precision. The frontend sets the level
(``gtensor.set_float32_matmul_precision``, ``gtensor.backends.cuda.matmul.allow_tf32``);
the kernels read it on every call.
"""

from __future__ import annotations

LEVELS = ("highest", "high", "medium")

_level = ["highest"]


def get_level() -> str:
    """Return the current float32 matmul precision level.

    Example:
        >>> get_level()
        'highest'
    """
    return _level[0]


def set_level(level: str) -> None:
    """Set the float32 matmul precision level (one of ``LEVELS``).

    Example:
        >>> set_level("highest")
    """
    if level not in LEVELS:
        raise ValueError(f"[set_float32_matmul_precision] precision must be one of {LEVELS}, "
                         f"got {level!r}")
    _level[0] = level


def tf32_allowed() -> bool:
    """Whether float32 products may use TF32 tensor cores (any level below ``"highest"``).

    Example:
        >>> tf32_allowed()
        False
    """
    return _level[0] != "highest"
