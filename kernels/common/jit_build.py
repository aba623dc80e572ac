"""Compile plain-Python scalar functions for one target, binding their calls to each other."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def build_functions(source: dict[str, Any], names: tuple[str, ...],
                    jit: Callable[[Callable], Callable],
                    bound: dict[str, Any] | None = None) -> types.SimpleNamespace:
    """Compile ``source[name]`` for each name with ``jit`` in a private globals dict.

    Inside that dict each name refers to its compiled version, so the functions
    call each other on the target (``numba.njit`` or ``numba.cuda.jit(device=True)``).

    Args:
        source: the defining module's ``globals()``.
        names: functions to compile, callees first.
        jit: the target's decorator.
        bound: extra names to bind (already compiled functions of another module).

    Returns:
        A namespace with one compiled function per name.

    Example:
        >>> def twice(x): return 2 * x
        >>> build_functions({"twice": twice}, ("twice",), lambda f: f).twice(3)
        6
    """
    namespace = dict(source)
    namespace.update(bound or {})
    compiled = {}
    for name in names:
        fn = source[name]
        clone = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__)
        compiled[name] = namespace[name] = jit(clone)
    return types.SimpleNamespace(**compiled)
