"""``gt.backends.cuda``: cuBLAS switches (``gt.backends.cuda.matmul.allow_tf32``).

Example:
    >>> gt.backends.cuda.matmul.allow_tf32
    False
"""

from __future__ import annotations

from typing import Any

from ..kernels.common import matmul_precision


class CuBLASSwitches:
    """The cuBLAS settings under ``gt.backends.cuda.matmul``.

    ``allow_tf32`` (default False, as in PyTorch) lets float32 and complex64
    products use TF32 tensor cores. It is the float32 matmul precision seen as
    a bool: setting it True sets the precision to ``"high"``, False to
    ``"highest"``; it reads True at ``"high"`` and ``"medium"``.

    Example:
        >>> gt.backends.cuda.matmul.allow_tf32 = True
        >>> gt.get_float32_matmul_precision()
        'high'
        >>> gt.backends.cuda.matmul.allow_tf32 = False  # back to the default, "highest"
    """

    __slots__ = ()

    @property
    def allow_tf32(self) -> bool:
        """Whether float32 products may use TF32 tensor cores."""
        return matmul_precision.tf32_allowed()

    @allow_tf32.setter
    def allow_tf32(self, value: bool) -> None:
        matmul_precision.set_level("high" if value else "highest")

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "allow_tf32":
            raise AttributeError(f"[backends.cuda.matmul] unknown attribute {name!r}")
        object.__setattr__(self, name, value)


matmul = CuBLASSwitches()

__all__ = ["CuBLASSwitches", "matmul"]
