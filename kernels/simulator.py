"""Whether CUDA kernels run on Numba's CUDA simulator: the one flag every layer reads.

Numba fixes ``NUMBA_ENABLE_CUDASIM`` when it is first imported, so the flag is
read once, here; the frontend's ``gtensor.device.cuda_is_simulated`` returns it.

Example:
    >>> isinstance(SIMULATED, bool)
    True
"""

from __future__ import annotations

from numba.core import config

SIMULATED: bool = bool(config.ENABLE_CUDASIM)
