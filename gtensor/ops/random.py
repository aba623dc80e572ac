"""Random tensors from the counter-based generator (same values on cpu and cuda per seed)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ..device import DeviceLike, resolve
from ..dtypes import as_dtype, bfloat16, dtype, float32, get_default_dtype, int64
from ..errors import check
from ..generator import Generator, default_generator_for
from ..shape_rules import keyword_sizes
from ..tensor_base import TensorBase, contiguous_strides, from_storage
from . import tracing
from .creation import creation_args, finish_creation
from .dispatch import launch
from .tracing import library_call

if TYPE_CHECKING:
    from ..tensor import Tensor


def _draw(out: Tensor, op: str, generator: Generator | None, *params: Any) -> Tensor:
    """Fill ``out`` in place with ``op``'s distribution; strided outputs are written back.

    Under ``gt.compile`` the draw is a library call, made afresh (from the
    generator's state then) at every call.
    """
    out._check_writable(op)
    trace = tracing.state.trace
    if trace is not None:
        fresh = functools.partial(_drawn, out.shape, out.dtype, out.device, op, generator,
                                  params)
        trace.write(out, library_call(op, fresh, (), out.shape, out.dtype))
        return out
    gen = default_generator_for(out.device) if generator is None else generator
    check(gen.device.type == out.device.type, op, lambda: f"generator on {gen.device} can't "
          f"draw for a tensor on {out.device}", RuntimeError)
    # bfloat16 draws in float32 (its kernels have no bfloat16 store) and rounds on the copy
    wide = out.dtype is bfloat16
    target = out if out.is_contiguous() and not wide else TensorBase.empty(
        out.shape, float32 if wide else out.dtype, out.device)
    n = target.numel()
    if n:
        seed, offset = gen.take(n)
        flat = target._make_view((n,), (1,), target._offset)
        launch(op, out.device, (target.dtype,), flat._native(), seed, offset, *params)
    if target is not out:
        out.copy_(target)
        if wide and op == "random_uniform" and n:  # a value rounded up to `high` stays below
            high = params[1]
            out.masked_fill_(out >= high, largest_below(high, bfloat16))
    out._bump_version()
    return out


def largest_below(value: float, dt: dtype) -> float:
    """The largest value of half dtype ``dt`` below ``value``.

    Example:
        >>> largest_below(1.0, bfloat16)
        0.99609375
    """
    x = np.array(value, np.float32).astype(dt.numpy)
    if float(x) < value:
        return float(x)
    bits = int(x.view(np.uint16))
    bits = bits - 1 if float(x) > 0 else (bits + 1 if float(x) < 0 else 0x8001)
    return float(np.array(bits, np.uint16).view(dt.numpy))


def _drawn(shape: tuple[int, ...], dt: Any, dev: Any, op: str, generator: Generator | None,
           params: tuple[Any, ...]) -> Tensor:
    return _draw(TensorBase.empty(shape, dt, dev), op, generator, *params)


def _draw_parts(self: Tensor, op: str, generator: Generator | None, *params: Any) -> Tensor:
    """Draw a complex tensor's real and imaginary parts as independent real values."""
    parts = TensorBase.empty((*self.shape, 2), self.dtype.real_dtype, self.device)
    _draw(parts, op, generator, *params)
    pairs = from_storage(parts._storage, self.shape, contiguous_strides(self.shape), 0,
                         self.dtype)
    return self.copy_(pairs)


def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)`` (each part of a complex number)."""
    check(self.dtype.is_inexact, "uniform_", lambda: "expected a floating dtype, got "
          f"{self.dtype.name}", TypeError)
    if self.dtype.is_complex:
        return _draw_parts(self, "random_uniform", generator, float(a), float(b))
    return _draw(self, "random_uniform", generator, float(a), float(b))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with values drawn from a normal distribution; a complex number's parts each have
    ``std / sqrt(2)`` (so ``E|z - mean|**2 = std**2``, PyTorch's rule)."""
    check(self.dtype.is_inexact, "normal_", lambda: "expected a floating dtype, got "
          f"{self.dtype.name}", TypeError)
    check(std >= 0, "normal_", lambda: f"std must be >= 0, got {std}", ValueError)
    if self.dtype.is_complex:
        return _draw_parts(self, "random_normal", generator, float(mean), std / 2 ** 0.5)
    return _draw(self, "random_normal", generator, float(mean), float(std))


def random_(self: Tensor, low: int = 0, high: int | None = None, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with integers drawn uniformly from ``[low, high)``."""
    if high is None:
        low, high = 0, low
    check(low < high, "random_", lambda: f"expects low < high, got low={low}, high={high}",
          ValueError)
    return _draw(self, "random_integers", generator, int(low), int(high))


def rand(*sizes: Any, size: Any = None, generator: Generator | None = None, dtype: Any = None,
         device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Return values drawn uniformly from ``[0, 1)``.

    Example:
        >>> rand(2, 3).shape
        (2, 3)
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "rand")
    dims, dt, dev = creation_args(sizes, dtype, device, "rand")
    out = uniform_(TensorBase.empty(dims, dt, dev), generator=generator)
    return finish_creation(out, requires_grad)


def randn(*sizes: Any, size: Any = None, generator: Generator | None = None, dtype: Any = None,
          device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Return values drawn from the standard normal distribution.

    Example:
        >>> randn(4).dtype
        gtensor.float32
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "randn")
    dims, dt, dev = creation_args(sizes, dtype, device, "randn")
    out = normal_(TensorBase.empty(dims, dt, dev), generator=generator)
    return finish_creation(out, requires_grad)


def randint(low: int, high: int | None = None, size: Any = None, *,
            generator: Generator | None = None, dtype: Any = None,
            device: DeviceLike | None = None) -> Tensor:
    """Return integers drawn uniformly from ``[low, high)`` (``randint(high, size)`` too).

    Example:
        >>> randint(0, 10, (3,)).dtype
        gtensor.int64
    """
    if size is None:
        low, high, size = 0, low, high
    check(size is not None, "randint", "size is required", TypeError)
    dims, dt, dev = creation_args((tuple(size),), dtype, device, "randint", int64)
    return random_(TensorBase.empty(dims, dt, dev), low, high, generator=generator)


def rand_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """Uniform ``[0, 1)`` values shaped like ``t``."""
    return rand(t.shape, dtype=t.dtype if dtype is None else dtype,
                device=t.device if device is None else resolve(device))


def randn_like(t: Tensor, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """Standard normal values shaped like ``t``."""
    dt = as_dtype(t.dtype if dtype is None else dtype)
    if not dt.is_inexact:
        dt = get_default_dtype()
    return randn(t.shape, dtype=dt, device=t.device if device is None else resolve(device))
