"""Import every module of a backend package so that its kernels register."""

from __future__ import annotations

import importlib
import pkgutil


def import_submodules(package_name: str, package_path: list[str]) -> None:
    """Import each non-private module found in ``package_path``.

    Args:
        package_name: dotted name of the package.
        package_path: the package's ``__path__``.

    Example:
        >>> import sys
        >>> import gtensor.kernels.common as common
        >>> import_submodules(common.__name__, common.__path__)
        >>> "gtensor.kernels.common.philox" in sys.modules
        True
    """
    for info in sorted(pkgutil.iter_modules(package_path), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package_name}.{info.name}")
