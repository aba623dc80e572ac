"""CPU elementwise kernels: every op of the common scalar tables, registered for ``cpu``.

See ``kernels.common.elementwise_ops`` for the calling convention.
"""

from __future__ import annotations

from ..common.elementwise_ops import register_elementwise
from ._elementwise_build import CpuElementwise

register_elementwise("cpu", CpuElementwise)
