"""CPU kernels; importing this package registers all of them.

Thread pools: Numba's parallel kernels run on its OpenMP layer, whose worker
threads by default spin for a while after each parallel region, and so do
OpenBLAS's after each matmul. Spinning workers of one pool steal the cores the
other pool needs next, which measured 2-4x slower on a mix of matmul and
elementwise kernels on 2 cores. gtensor therefore asks OpenMP to sleep between
regions (``OMP_WAIT_POLICY=PASSIVE``) unless the user set a policy; it must be
set before Numba starts its first parallel region, which is why it lives here.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .._autoload import import_submodules  # noqa: E402

import_submodules(__name__, __path__)
