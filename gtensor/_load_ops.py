"""Import every op module so that each attaches its methods to Tensor."""

from __future__ import annotations

import importlib
import pkgutil


def load_ops() -> None:
    """Import all modules of :mod:`gtensor.ops` (no central list of ops to edit).

    Example:
        >>> load_ops()
    """
    from . import ops

    for info in sorted(pkgutil.iter_modules(ops.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{ops.__name__}.{info.name}")
