"""Neural-network building blocks in PyTorch's shape: modules, layers, losses, init.

Example:
    >>> import gtensor as gt
    >>> model = gt.nn.Sequential(gt.nn.Linear(4, 8), gt.nn.ReLU(), gt.nn.Linear(8, 3))
    >>> model(gt.randn(2, 4)).shape
    (2, 3)
"""

from . import functional, init, parallel, utils
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional",
           "init", "parallel", "utils", *_modules_all]
