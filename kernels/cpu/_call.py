"""Calling a Numba CPU kernel from a launch plan without Numba's per-call type dispatch.

A Numba dispatcher works out the Numba type of every argument on every call
and looks the overload up; a tuple argument alone costs about a microsecond.
A launch plan passes arguments of the same types on every call (flat 1-D
buffers of fixed dtypes, integers, tuples of integers), so it can bind the
compiled overload once and call its entry point directly, as
``kernels/cuda/_launch.PlannedLaunch`` does for CUDA kernels.

Cheaper still is an entry point that takes addresses: unboxing a NumPy array
costs the entry point about 0.1-0.2 µs per argument, an integer a tenth of
that, and the caller needs no array object at all (a storage knows its
address). :func:`pointer_entry` binds such a kernel; inside it,
``numba.carray(address(p), n, dtype)`` is the array at address ``p``.
"""

from __future__ import annotations

from typing import Any

from numba import typeof, types
from numba.extending import intrinsic


@intrinsic
def address(typingctx: Any, addr: Any) -> Any:
    """``void*`` at the integer address ``addr`` (compiled code only), for ``numba.carray``."""
    if not isinstance(addr, types.Integer):
        return None
    sig = types.voidptr(addr)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], context.get_value_type(types.voidptr))

    return sig, codegen


def pointer_entry(dispatcher: Any, *example: Any) -> Any:
    """Compile ``dispatcher`` for the types of the ``example`` arguments; return the entry point.

    For a kernel that takes integers, numbers, NumPy scalar types (``np.float32``:
    the element type of a ``carray`` it builds) and integer addresses, so that
    a plan can call the compiled code with no type dispatch and no arrays.

    Example:
        >>> import numpy as np
        >>> from numba import carray, njit
        >>> @njit
        ... def fill(n, t, p):
        ...     a = carray(address(p), n, t)
        ...     a[:] = 7
        >>> buf = np.zeros(3, np.float32)
        >>> entry = pointer_entry(fill, 3, np.float32, 0)
        >>> entry(3, np.float32, buf.ctypes.data); buf.tolist()
        [7.0, 7.0, 7.0]
    """
    return dispatcher.compile(tuple(typeof(a) for a in example))


class PlannedCall:
    """Call ``dispatcher`` through the overload that its first call's argument types select.

    Arrays are typed as contiguous buffers without an alignment promise, so the
    one overload serves any buffer a plan is given (a foreign, misaligned one
    included); the entry point still refuses an array of another dtype or rank
    with ``TypeError``. Every call of one plan must pass the same types: use one
    ``PlannedCall`` per plan, not per kernel.

    Example:
        >>> from numba import njit
        >>> import numpy as np
        >>> double = PlannedCall(njit(lambda a, n: a[:n] * 2))
        >>> double(np.arange(3.0), 3).tolist()
        [0.0, 2.0, 4.0]
    """

    __slots__ = ("dispatcher", "entry")

    def __init__(self, dispatcher: Any) -> None:
        self.dispatcher = dispatcher
        self.entry: Any = None

    def __call__(self, *args: Any) -> Any:
        entry = self.entry
        if entry is None:
            sig = tuple([_unaligned(typeof(a)) for a in args])
            entry = self.entry = self.dispatcher.compile(sig)
        return entry(*args)


def _unaligned(ty: Any) -> Any:
    if isinstance(ty, types.Array):
        return types.Array(ty.dtype, ty.ndim, ty.layout, aligned=False)
    return ty
