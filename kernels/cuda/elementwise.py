"""CUDA elementwise kernels: every op of the common scalar tables, registered for ``cuda``.

See ``kernels.common.elementwise_ops`` for the calling convention.
"""

from __future__ import annotations

from ..common.elementwise_ops import register_elementwise
from ._elementwise_build import CudaElementwise

register_elementwise("cuda", CudaElementwise)
