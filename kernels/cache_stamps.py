"""Disk-cached kernels that go stale with any kernel module they draw on, not only their own.

Numba keys a cached kernel on the contents of the file that defines it. gtensor's
kernels inline device functions from other modules (``fast_math``, the
``*_math`` helpers, the half conversions, the scalar op tables), so an edit or an
upgrade that changed only a helper would load machine code built from the old
helper. :func:`install` puts a locator ahead of each of Numba's source-file
locators (each backend installs it for its Numba target) that, for a function
of this project, adds to Numba's stamp the contents of every ``gtensor.kernels``
module the function reaches through its globals and closure, directly or through
those modules' globals.
Any such change then misses the cache and recompiles, as an edit of the kernel's
own file does.
"""

from __future__ import annotations

import hashlib
import os
import sys
import types
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

PACKAGE = __name__.rpartition(".")[0]  # the kernels package, as imported
_OWNER = PACKAGE.partition(".")[0] + "."  # functions of the whole project use the stamp


def _modules_named(values: Iterable[Any]) -> Iterator[str]:
    """Names of this package's modules that ``values`` are, or were defined in."""
    prefix = PACKAGE + "."
    for value in values:
        if isinstance(value, types.ModuleType):
            name = value.__name__
        else:
            try:
                name = getattr(value, "__module__", None)
            except Exception:  # an object whose attribute lookup itself fails
                continue
        if isinstance(name, str) and (name == PACKAGE or name.startswith(prefix)):
            yield name


def reached_files(func: Any) -> list[str]:
    """Source files of the kernel modules ``func`` reaches (sorted; its own module included).

    Example:
        >>> from gtensor.kernels.common import scalar_unary
        >>> any(p.endswith("scalar_unary.py") for p in reached_files(scalar_unary))
        True
    """
    if isinstance(func, types.ModuleType):
        start = [func]
    else:
        cells = [cell.cell_contents for cell in getattr(func, "__closure__", None) or ()
                 if cell.cell_contents is not None]
        start = [*getattr(func, "__globals__", {}).values(), *cells, func]
    return list(_closure(frozenset(_modules_named(start))))


@cache
def _closure(names: frozenset[str]) -> tuple[str, ...]:
    todo = list(names)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        module = sys.modules.get(name)
        if module is not None:
            todo.extend(_modules_named(list(vars(module).values())))
    files = {getattr(sys.modules.get(name), "__file__", None) for name in seen}
    return tuple(sorted(f for f in files if f and os.path.exists(f)))


def helpers_stamp(func: Any) -> bytes:
    """One digest of the contents of every file :func:`reached_files` lists for ``func``.

    Example:
        >>> from gtensor.kernels.common import scalar_unary
        >>> len(helpers_stamp(scalar_unary))
        32
    """
    return _combined(tuple(reached_files(func)))


@cache
def _combined(paths: tuple[str, ...]) -> bytes:
    total = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            total.update(hashlib.sha256(f.read()).digest())
    return total.digest()


def _stamped(base: type) -> type:
    """A locator like ``base`` for this project's functions, stamped with their helpers too."""

    class Locator(base):  # type: ignore[misc, valid-type]
        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not str(getattr(py_func, "__module__", "")).startswith(_OWNER):
                return None
            self = super().from_function(py_func, py_file)
            if self is not None:
                self._helpers = helpers_stamp(py_func)
            return self

        def get_source_stamp(self) -> Any:
            return super().get_source_stamp(), self._helpers

    Locator.__name__ = Locator.__qualname__ = "Stamped" + base.__name__.lstrip("_")
    Locator.stamped_base = base  # type: ignore[attr-defined]
    return Locator


def install(caching: types.ModuleType) -> None:
    """Put stamped locators ahead of the source-file locators of Numba's ``caching`` module.

    Each backend package calls this with its Numba caching module (``numba.core.caching``;
    ``numba.cuda.core.caching``) before its kernels are compiled. Idempotent.

    Example:
        >>> from numba.core import caching
        >>> install(caching)
        >>> caching.CacheImpl._locator_classes[0].__name__.startswith("Stamped")
        True
    """
    classes = caching.CacheImpl._locator_classes
    if any(hasattr(cls, "stamped_base") for cls in classes):
        return
    mixin = caching._SourceFileBackedLocatorMixin
    for base in [cls for cls in classes if issubclass(cls, mixin)]:
        classes.insert(classes.index(base), _stamped(base))
