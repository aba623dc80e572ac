"""Planned kernel launches straight through ``cuda.core``, without Numba's per-call argument work.

A Numba-cuda launch turns every argument into the words of the kernel's ABI on
every call: an array becomes ``meminfo, parent, size, itemsize, data, *shape,
*strides`` after being wrapped (an ``InOut`` hint, then a strided memory view),
an integer a ctypes value whose class is looked up by name, and each launch
builds a new ``LaunchConfig``. Numba-cuda 0.30 measures about 5.5 µs plus 1.4 µs
per array argument for this; a planned launch knows its argument types, grid,
stream and kernel once, so :func:`direct_launch` writes one function per
signature that emits the words inline and calls ``cuda.core.launch`` with a
configuration made once. A device array's words are kept on the array (gtensor
keeps one flat array per allocator block, so they are worked out once per block).

Why not a ``RawModule`` from Numba's PTX or a CuPy ``RawKernel``: both would
load a second copy of every kernel's module and keep their own argument
marshalling; this reuses Numba's compiled function and ABI, and checks the
words it emits against Numba's own on the first launch of each plan (a
mismatch keeps Numba's launch for that plan). ``GTENSOR_CUDA_LAUNCH=numba``
turns it off, to compare the two.
"""

from __future__ import annotations

import ctypes
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

from numba.core import types

from ..common.codegen import build

ENABLED = os.environ.get("GTENSOR_CUDA_LAUNCH", "direct") != "numba"
"""Whether planned launches go straight to ``cuda.core`` (``GTENSOR_CUDA_LAUNCH=numba``: no)."""

OUTCOMES: Counter[str] = Counter()
"""How the plans made so far launch: ``direct``, or why they kept Numba's launch."""

_WORDS = "_gtensor_launch_words"


def array_words(arr: Any) -> tuple[int, ...]:
    """The ABI words of a device array argument, kept on the array after the first call.

    Example:
        >>> class Buffer:
        ...     size, shape, strides = 4, (4,), (4,)
        ...     dtype = np.dtype("float32")
        ...     __cuda_array_interface__ = {"data": (4096, False)}
        >>> array_words(Buffer())
        (0, 0, 4, 4, 4096, 4, 4)
    """
    found = arr.__dict__.get(_WORDS)
    if found is None:
        ptr = int(arr.__cuda_array_interface__["data"][0]) if arr.size else 0
        found = (0, 0, arr.size, arr.dtype.itemsize, ptr, *arr.shape, *arr.strides)
        arr.__dict__[_WORDS] = found
    return found


_C_INTEGERS = {f"{kind}{bits}": getattr(ctypes, f"c_{kind}{bits}")
               for kind in ("int", "uint") for bits in (8, 16, 32, 64)}


def _word_expression(ty: Any, name: str) -> str | None:
    """Source that emits the words of one argument ``name`` of Numba type ``ty`` (None: no
    direct form, the plan keeps Numba's launch)."""
    if isinstance(ty, types.Array):
        return f"*array_words({name})"
    if isinstance(ty, types.Boolean):
        return f"bool({name})"
    if isinstance(ty, types.Integer):
        if ty.bitwidth == 64 and ty.signed:
            return f"int({name})"  # a Python int goes as an intptr_t, as Numba's array words do
        key = f"{'int' if ty.signed else 'uint'}{ty.bitwidth}"
        return f"c_{key}({name})" if key in _C_INTEGERS else None
    if ty == types.float64:
        return f"float({name})"
    if ty == types.float32:
        return f"c_float({name})"
    if isinstance(ty, types.UniTuple) and isinstance(ty.dtype, types.Integer) \
            and ty.dtype.bitwidth == 64 and ty.dtype.signed:
        return f"*{name}"
    return None


def packing_source(argtypes: tuple[Any, ...]) -> str | None:
    """The source of ``run(a0, a1, ...)``, which launches the kernel on the arguments' words,
    and of ``words(a0, a1, ...)``, which lists them; None when a type has no direct form.

    Example:
        >>> print(packing_source((types.int64, types.float32[::1])))
        def run(a0, a1):
            launch(stream, config, kernel, int(a0), *array_words(a1))
        def words(a0, a1):
            return [int(a0), *array_words(a1)]
    """
    names = [f"a{i}" for i in range(len(argtypes))]
    words = [_word_expression(ty, name) for ty, name in zip(argtypes, names, strict=True)]
    if any(w is None for w in words):
        return None
    params, listed = ", ".join(names), ", ".join(words)  # type: ignore[arg-type]
    return (f"def run({params}):\n    launch(stream, config, kernel, {listed})\n"
            f"def words({params}):\n    return [{listed}]\n")


def comparable(words: list[Any] | tuple[Any, ...]) -> list[tuple[str, Any]]:
    """Argument words as ``(C type, value)``: what ``cuda.core`` packs, whatever the Python form.

    Example:
        >>> comparable([1, ctypes.c_int64(1), 1.5, ctypes.c_float(2.0)])
        [('i8', 1), ('i8', 1), ('f8', 1.5), ('f4', 2.0)]
    """
    out = []
    for w in words:
        if isinstance(w, bool):
            out.append(("b", w))
        elif isinstance(w, int):
            out.append(("i8", w))
        elif isinstance(w, float):
            out.append(("f8", w))
        elif isinstance(w, ctypes._SimpleCData):
            out.append((f"{'f' if isinstance(w, (ctypes.c_float, ctypes.c_double)) else 'i'}"
                        f"{ctypes.sizeof(w)}", w.value))
        else:
            out.append((type(w).__name__, w))
    return out


def direct_launch(compiled: Any, configured: Any, args: tuple[Any, ...],
                  launch: Callable[..., None], launch_config: type,
                  cooperative_keyword: str) -> Callable[..., None] | None:
    """A function launching ``compiled`` (a specialized kernel) as ``configured`` does, or None.

    Args:
        compiled: the kernel Numba compiled for these argument types.
        configured: Numba's configured launch (``kernel[grid, block, stream]``): grid, block,
            stream and shared memory come from it.
        args: the arguments of this (first) call, whose words are checked against Numba's.
        launch: ``cuda.core.launch``.
        launch_config: ``cuda.core.LaunchConfig``.
        cooperative_keyword: its keyword for cooperative launches in this ``cuda.core``.

    Returns None when a type has no direct form, the kernel is cooperative, debugging or
    sensitive to its launch configuration, or the words differ from Numba's.

    Example:
        >>> direct_launch(kernel, kernel[4, 256, s], args, launch, LaunchConfig,
        ...               "is_cooperative")  # doctest: +SKIP
    """
    if getattr(compiled, "debug", False) or getattr(compiled, "cooperative", False) \
            or getattr(compiled, "launch_config_sensitive", False) \
            or configured.pre_launch_callbacks:
        return _kept("a debug, cooperative or configuration-sensitive kernel")
    argtypes = tuple(compiled.argument_types)
    if any(isinstance(ty, types.Array) and not hasattr(value, "__cuda_array_interface__")
           for ty, value in zip(argtypes, args, strict=True)):
        return _kept("host arrays, which Numba copies to the device at each launch")
    source = packing_source(argtypes)
    if source is None:
        return _kept(f"an argument type without a direct form in {argtypes}")
    config = launch_config(grid=configured.griddim, block=configured.blockdim,
                           shmem_size=configured.sharedmem, **{cooperative_keyword: False})
    namespace: dict[str, Any] = {
        "launch": launch, "stream": configured.stream, "config": config,
        "kernel": compiled._codelibrary.get_cufunc().kernel, "array_words": array_words,
        "c_float": ctypes.c_float, **{f"c_{k}": v for k, v in _C_INTEGERS.items()}}
    made = build(source, direct_launch, namespace)
    expected: list[Any] = []
    retained: list[Any] = []
    for ty, value in zip(argtypes, args, strict=True):
        compiled._prepare_args(ty, value, configured.stream, retained, expected)
    if comparable(made["words"](*args)) != comparable(expected):
        return _kept(f"argument words unlike Numba's for {argtypes}")
    OUTCOMES["direct"] += 1
    return made["run"]


def _kept(reason: str) -> None:
    OUTCOMES[reason] += 1
