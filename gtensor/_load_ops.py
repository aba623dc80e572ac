"""Import every op module so that each attaches its methods to Tensor."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any


def load_ops() -> dict[str, Any]:
    """Import all modules of :mod:`gtensor.ops` (no central list of ops to edit).

    Returns:
        The public functions the modules list in ``EXPORTS``, to become ``gt.<name>``.

    Example:
        >>> "add" in load_ops()
        True
    """
    from . import ops

    exports: dict[str, Any] = {}
    for info in sorted(pkgutil.iter_modules(ops.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"{ops.__name__}.{info.name}")
            for name in getattr(module, "EXPORTS", ()):
                exports[name] = getattr(module, name)
    return exports
