"""The frontend's one door into the kernel table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import kernels
from ..cuda import Stream, current_stream
from ..device import device
from ..dtypes import dtype
from ..errors import DTypeError, UnsupportedDTypeError

_found: dict[tuple[Any, ...], Callable[..., Any]] = {}


def kernel(op: str, dev: device, *dtypes: dtype) -> Callable[..., Any]:
    """Look up ``op`` for ``dev``'s backend and the given input dtypes (memoized).

    Raises:
        DTypeError: for an op without complex kernels given a complex dtype.
        UnsupportedDTypeError: for other signatures without a kernel (a ``DTypeError``
            and a ``NotImplementedError``).

    Example:
        >>> from gtensor import float32
        >>> from gtensor.device import CPU
        >>> callable(kernel("copy", CPU, float32, float32))
        True
    """
    key = (op, dev.type, *dtypes)
    fn = _found.get(key)
    if fn is None:
        try:
            fn = _found[key] = kernels.lookup(op, dev.type, tuple(d.name for d in dtypes))
        except NotImplementedError as missing:
            complex_dt = next((d for d in dtypes if d.is_complex), None)
            if complex_dt is None:
                raise UnsupportedDTypeError(str(missing)) from None
            raise DTypeError(f"[{op}] not supported for complex tensors "
                             f"({complex_dt.name})") from None
    return fn


class PlanCache(dict):
    """Launch plans keyed by call signature: what does not depend on the data, worked out once.

    A key holds everything a plan depends on (op, device, stream, dtypes,
    shapes, strides, options); the value is whatever the op needs to launch
    (result metadata, a bound kernel). Look plans up with ``get`` (a plain dict
    lookup on the hot path) and store new ones with :meth:`add`, which clears
    the cache when it holds ``limit`` plans, so a program sweeping through many
    shapes cannot grow it without bound.

    Example:
        >>> plans = PlanCache()
        >>> plans.get(("neg", 3)) is None, plans.add(("neg", 3), "plan")
        (True, 'plan')
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int = 4096) -> None:
        super().__init__()
        self.limit = limit

    def add(self, key: Any, plan: Any) -> Any:
        """Store and return ``plan`` for ``key``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = plan
        return plan


def current_stream_of(dev: device) -> Stream | None:
    """Return ``dev``'s current stream (``None`` on the cpu); an op looks it up once.

    The op keys its plan by the stream's handle, launches on ``stream.numba``
    and allocates its result on the same stream.

    Example:
        >>> from gtensor.device import CPU
        >>> current_stream_of(CPU) is None
        True
    """
    if dev._type == "cpu":
        return None
    return current_stream(dev)


def launch(op: str, dev: device, dtypes: tuple[dtype, ...], *args: Any, **kwargs: Any) -> Any:
    """Look up ``op`` and call it on ``args`` on ``dev``'s current stream.

    Example:
        >>> src, out = gt.tensor([1.0, 2.0]), gt.empty(2, dtype=gt.float64)
        >>> launch("copy", src.device, (src.dtype, out.dtype), src._native(), out._native())
        >>> out.tolist()
        [1.0, 2.0]
    """
    fn = kernel(op, dev, *dtypes)
    stream = current_stream_of(dev)
    return fn(*args, stream=None if stream is None else stream.numba, **kwargs)


def bits_native(t: Any) -> Any:
    """``t``'s native array as kernels over a half type read it: the type's bits (``uint16``).

    Other dtypes: the native array as it is.

    Example:
        >>> bits_native(gt.ones(2, dtype=gt.bfloat16)).dtype
        dtype('uint16')
    """
    native = t._native()
    return native.view(t._dtype.kernel) if t._dtype.is_half else native
