"""CUDA kernels; importing this package registers all of them."""

from numba.cuda.core import caching

from .. import cache_stamps
from .._autoload import import_submodules
from ._launch import SIMULATED
from ._toolchain import check_numpy

check_numpy(SIMULATED)
cache_stamps.install(caching)
import_submodules(__name__, __path__)
