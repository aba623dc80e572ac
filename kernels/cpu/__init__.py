"""CPU kernels; importing this package registers all of them."""

from .._autoload import import_submodules

import_submodules(__name__, __path__)
