"""CUDA kernels; importing this package registers all of them."""

from .._autoload import import_submodules
from ._launch import SIMULATED
from ._toolchain import check_numpy

check_numpy(SIMULATED)
import_submodules(__name__, __path__)
