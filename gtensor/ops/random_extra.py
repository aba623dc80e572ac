"""More draws from the counter-based generator: bernoulli, randperm, multinomial, dropout masks.

Like ``random.py``, each draw reserves ``n`` Philox counters of the device's
generator, so one seed gives the same values on cpu and cuda.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..cuda import runtime
from ..device import DeviceLike, device, resolve
from ..dtypes import as_dtype, bfloat16, bool_, float32, float64, get_default_dtype, int64
from ..errors import ShapeError, check
from ..generator import Generator, default_generator_for
from ..shape_rules import checked_numel, normalize_shape
from ..tensor_base import TensorBase
from .creation import full
from .dispatch import launch
from .layout.views import expand_to
from .tracing import library_call

if TYPE_CHECKING:
    from ..tensor import Tensor


def _target(spec: DeviceLike | None, op: str) -> device:
    """The device ``op`` creates its result on (the default device unless given), checked
    before allocating."""
    dev = resolve(spec, op)
    runtime.prepare(dev, op)
    return dev


def _counters(dev: Any, n: int, generator: Generator | None, op: str) -> tuple[int, int]:
    gen = default_generator_for(dev) if generator is None else generator
    check(gen.device.type == dev.type, op, lambda: f"generator on {gen.device} can't draw for "
          f"a tensor on {dev}", RuntimeError)
    return gen.take(n)


def _probabilities(p: Tensor, op: str) -> Tensor:
    """Contiguous float64 copy of ``p`` after checking its range on the device."""
    check(p.dtype.is_floating_point, op, lambda: f"expected floating probabilities, got "
          f"{p.dtype.name}", TypeError)
    q = p.to(float64).contiguous() if p.dtype is not float64 else p.contiguous()
    return q


def _range(t: Tensor) -> tuple[float, float]:
    lo, hi = launch("value_range", t.device, (t.dtype,), t._native())
    return float(lo), float(hi)


def bernoulli(self: Tensor, p: Any = None, *, generator: Generator | None = None) -> Tensor:
    """Draw 0/1 with probability ``self`` (or ``p``) per element, in ``self``'s dtype.

    Example:
        >>> gt.tensor([0.0, 1.0]).bernoulli().tolist()
        [0.0, 1.0]
    """
    probs = self if p is None else p
    if not isinstance(probs, TensorBase):
        probs = full(self.shape, float(probs), dtype=float64, device=self.device)
    q = _probabilities(probs, "bernoulli")
    if q.numel():
        lo, hi = _range(q)
        check(0.0 <= lo and hi <= 1.0, "bernoulli", lambda: f"probabilities must be in [0, 1], "
              f"got values in [{lo}, {hi}]", ValueError)
    mask = TensorBase.empty(q.shape, bool_, self.device)
    n = q.numel()
    if n:
        seed, offset = _counters(self.device, n, generator, "bernoulli")
        launch("random_bernoulli_tensor", self.device, (float64,), mask.reshape(-1)._native(),
               seed, offset, q.reshape(-1)._native())
    return mask if self.dtype is bool_ else mask.to(self.dtype)


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill in place with 0/1 draws of probability ``p`` (a number or a broadcastable tensor).

    Example:
        >>> gt.zeros(3).bernoulli_(1.0).tolist()
        [1.0, 1.0, 1.0]
    """
    probs = expand_to(p, self.shape, "bernoulli_") if isinstance(p, TensorBase) else p
    self.copy_(bernoulli(self, probs, generator=generator))
    return self


def randperm(n: int, *, generator: Generator | None = None, dtype: Any = None,
             device: DeviceLike | None = None) -> Tensor:
    """A random permutation of ``0 .. n-1``: the stable argsort of ``n`` random 62-bit keys.

    Example:
        >>> sorted(randperm(4).tolist())
        [0, 1, 2, 3]
    """
    check(isinstance(n, int) and n >= 0, "randperm", lambda: f"n must be a non-negative int, "
          f"got {n!r}", ValueError)
    checked_numel((n,), "randperm", int64.itemsize)
    dev = _target(device, "randperm")
    keys = TensorBase.empty((1, n), int64, dev)
    order = TensorBase.empty((1, n), int64, dev)
    if n:
        seed, offset = _counters(dev, n, generator, "randperm")
        launch("random_integers", dev, (int64,), keys.reshape(-1)._native(), seed, offset, 0,
               2**62)
        launch("sort_rows", dev, (int64,), keys._native(), order._native(), False)
    out = order.reshape(n)
    dt = int64 if dtype is None else as_dtype(dtype)
    return out if dt is int64 else out.to(dt)


def multinomial(self: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """Draw category indices from rows of non-negative weights (1-D or 2-D ``self``).

    Without replacement each row takes the ``num_samples`` smallest keys
    ``E / w`` (``E`` exponential), a weighted sample without replacement.

    Example:
        >>> gt.tensor([0.0, 1.0]).multinomial(2, replacement=True).tolist()
        [1, 1]
    """
    check(self.ndim in (1, 2), "multinomial", lambda: f"expected a 1-D or 2-D tensor, got "
          f"{self.ndim}-D", ShapeError)
    check(isinstance(num_samples, int) and num_samples > 0, "multinomial",
          lambda: f"num_samples must be a positive int, got {num_samples!r}", ValueError)
    probs = _probabilities(self, "multinomial").reshape(-1, self.shape[-1])
    rows, c = probs.shape
    check(c > 0, "multinomial", "needs at least one category", ValueError)
    check(replacement or num_samples <= c, "multinomial", lambda: f"cannot draw {num_samples} "
          f"samples without replacement from {c} categories", ValueError)
    lo, hi = _range(probs)
    check(lo >= 0.0 and hi < float("inf"), "multinomial", "weights must be finite and "
          "non-negative", ValueError)
    out = TensorBase.empty((rows, num_samples), int64, self.device)
    if replacement:
        seed, offset = _counters(self.device, out.numel(), generator, "multinomial")
        launch("random_categorical", self.device, (float64,), probs._native(), out._native(),
               seed, offset)
        check(_range(out)[0] >= 0, "multinomial", "each row needs a positive total weight",
              ValueError)
    else:
        keys = TensorBase.empty((rows, c), float64, self.device)
        order = TensorBase.empty((rows, c), int64, self.device)
        seed, offset = _counters(self.device, keys.numel(), generator, "multinomial")
        launch("random_exponential_keys", self.device, (float64,), keys.reshape(-1)._native(),
               seed, offset, probs.reshape(-1)._native())
        launch("sort_rows", self.device, (float64,), keys._native(), order._native(), False)
        worst = keys.narrow(1, num_samples - 1, 1).contiguous()
        check(_range(worst)[1] < float("inf"), "multinomial", lambda: "a row has fewer than "
              f"{num_samples} categories of positive weight", ValueError)
        out.copy_(order.narrow(1, 0, num_samples))
    return out if self.ndim == 2 else out.reshape(num_samples)


def dropout_mask(*size: Any, p: float = 0.5, scale: bool = True, dtype: Any = None,
                 device: DeviceLike | None = None, generator: Generator | None = None) -> Tensor:
    """A dropout mask: 0 with probability ``p``, else ``1 / (1 - p)`` (or 1 without ``scale``).

    Example:
        >>> set(dropout_mask(8, p=0.5).tolist()) <= {0.0, 2.0}
        True
    """
    check(0.0 <= p <= 1.0, "dropout_mask", lambda: f"p must be in [0, 1], got {p}", ValueError)
    dims = normalize_shape(size, "dropout_mask")
    dt = get_default_dtype() if dtype is None else as_dtype(dtype)
    check(dt.is_floating_point, "dropout_mask", lambda: f"expected a floating dtype, got "
          f"{dt.name}", TypeError)
    checked_numel(dims, "dropout_mask", dt.itemsize)
    check(all(d >= 0 for d in dims), "dropout_mask", lambda: f"negative dimension in shape "
          f"{dims}", ValueError)
    dev = _target(device, "dropout_mask")
    keep = 1.0 - p
    value = (1.0 / keep if keep > 0 else 0.0) if scale else 1.0
    draw = functools.partial(_dropout_mask, dims, dt, dev, keep, value, generator)
    return library_call("dropout_mask", draw, (), dims, dt)  # under gt.compile: every call


def _dropout_mask(dims: tuple[int, ...], dt: Any, dev: Any, keep: float, value: float,
                  generator: Generator | None) -> Tensor:
    wide = dt is bfloat16  # drawn in float32 (no bfloat16 kernel), rounded once
    out = TensorBase.empty(dims, float32 if wide else dt, dev)
    n = out.numel()
    if n:
        seed, offset = _counters(dev, n, generator, "dropout_mask")
        launch("random_dropout_mask", dev, (out.dtype,), out.reshape(-1)._native(), seed,
               offset, keep, value)
    return out.to(dt) if wide else out
