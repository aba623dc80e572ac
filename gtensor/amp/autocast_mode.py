"""``gt.autocast``: run a region's ops in a lower precision per PyTorch's policy for the device.

The region (a ``with`` block or a decorated function) switches the per-thread
state of :mod:`gtensor.graph.autocast_mode`, which each op reads at entry;
``custom_fwd`` and ``custom_bwd`` carry that state into custom autograd
functions.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from ..cuda import is_available as cuda_is_available
from ..dtypes import HALF_DTYPES, as_dtype, dtype, float64
from ..graph import autocast_mode as mode
from ..tensor_base import TensorBase

F = TypeVar("F", bound=Callable[..., Any])


class autocast:  # noqa: N801 - PyTorch's spelling
    """Run ops in ``dtype`` where the device's autocast policy allows: a context manager and a
    decorator.

    Inside the region, matmul, linear, attention and recurrent layers take
    their floating inputs in ``dtype``; losses (and on CUDA softmax, sums,
    exp-like ops and norms) run in float32; ops that mix inputs promote to the
    widest. Regions nest; ``enabled=False`` turns autocast off inside an
    enabled one. Gradients come back in each parameter's own dtype. Run the
    backward pass outside the region, as PyTorch recommends.

    Args:
        device_type: ``"cpu"`` or ``"cuda"``: tensors on that device type are autocast.
        dtype: the low dtype (default :func:`get_autocast_dtype`: bfloat16 on
            the cpu, float16 on cuda).
        enabled: switch autocast on (default) or off in the region.
        cache_enabled: cast each float32 parameter once per region (default: the
            current setting, on at start).

    Raises:
        ValueError: ``device_type`` is not a string.
        RuntimeError: autocast does not support ``device_type``.

    Example:
        >>> import gtensor as gt
        >>> a, b = gt.randn(4, 4), gt.randn(4, 4)
        >>> with gt.autocast("cpu", dtype=gt.float16):
        ...     c = a @ b
        >>> c.dtype
        gtensor.float16
    """

    def __init__(self, device_type: str, dtype: Any = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if not mode.is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self.device = device_type
        self.fast_dtype = mode.get_autocast_dtype(device_type) if dtype is None \
            else as_dtype(dtype)
        self._cache_enabled = mode.is_autocast_cache_enabled() if cache_enabled is None \
            else bool(cache_enabled)
        if enabled and device_type == "cuda" and not cuda_is_available():
            warnings.warn("CUDA is not available. Disabling autocast.", stacklevel=2)
            enabled = False
        elif enabled and device_type == "cpu" and self.fast_dtype not in HALF_DTYPES:
            names = ", ".join(f"gtensor.{d.name}" for d in HALF_DTYPES)
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          f"autocast.\nCPU Autocast only supports dtypes of {names} currently.",
                          stacklevel=2)
            enabled = False
        self._enabled = bool(enabled)
        self._prev: list[tuple[bool, dtype, bool]] = []

    def __enter__(self) -> autocast:
        self._prev.append((mode.is_autocast_enabled(self.device),
                           mode.get_autocast_dtype(self.device), mode.is_autocast_cache_enabled()))
        mode.set_autocast_enabled(self.device, self._enabled)
        mode.set_autocast_dtype(self.device, self.fast_dtype)
        mode.autocast_increment_nesting()
        mode.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc: object) -> bool:
        if mode.autocast_decrement_nesting() == 0:
            mode.clear_autocast_cache()
        enabled, dt, cache = self._prev.pop()
        mode.set_autocast_enabled(self.device, enabled)
        mode.set_autocast_dtype(self.device, dt)
        mode.set_autocast_cache_enabled(cache)
        return False

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with autocast(self.device, self.fast_dtype, self._enabled, self._cache_enabled):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


def _cast(value: Any, device_type: str, dt: dtype) -> Any:
    """``value`` with its floating tensors on ``device_type`` (not float64) cast to ``dt``."""
    if isinstance(value, TensorBase):
        eligible = (value.dtype.is_floating_point and value.dtype is not float64
                    and value.device.type == device_type)
        return value.to(dt) if eligible else value
    if isinstance(value, dict):
        return {k: _cast(v, device_type, dt) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dt) for v in value)
    return value


def custom_fwd(fwd: Callable[..., Any] | None = None, *, device_type: str,
               cast_inputs: Any = None) -> Any:
    """Decorate a custom ``Function.forward`` so that it runs under a chosen autocast state.

    With ``cast_inputs`` and autocast on for ``device_type``, floating tensor
    arguments are cast to it and ``forward`` runs with autocast off; without,
    ``forward`` runs in the current state. Either way :func:`custom_bwd`
    runs ``backward`` in the state ``forward`` ran in.

    Example:
        >>> class Mul(gt.autograd.Function):
        ...     @staticmethod
        ...     @gt.amp.custom_fwd(device_type="cpu", cast_inputs=gt.float32)
        ...     def forward(ctx, a, b):
        ...         return a * b
        >>> with gt.autocast("cpu", dtype=gt.bfloat16):
        ...     print(Mul.apply(gt.ones(2, dtype=gt.bfloat16), gt.ones(2)).dtype)
        gtensor.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    forward = fwd

    @functools.wraps(forward)
    def decorate_fwd(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        ctx._dtype = mode.get_autocast_dtype(device_type)
        on = mode.is_autocast_enabled(device_type)
        if cast_inputs is None or not on:
            ctx._fwd_used_autocast = on and cast_inputs is None
            return forward(ctx, *args, **kwargs)
        ctx._fwd_used_autocast = False
        target = as_dtype(cast_inputs)
        with autocast(device_type, enabled=False):
            return forward(ctx, *_cast(args, device_type, target),
                           **_cast(kwargs, device_type, target))

    return decorate_fwd


def custom_bwd(bwd: Callable[..., Any] | None = None, *, device_type: str) -> Any:
    """Decorate a custom ``Function.backward`` to run in the autocast state of its ``forward``.

    Example:
        >>> class Double(gt.autograd.Function):
        ...     @staticmethod
        ...     @gt.amp.custom_fwd(device_type="cpu")
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     @gt.amp.custom_bwd(device_type="cpu")
        ...     def backward(ctx, g):
        ...         print(gt.is_autocast_enabled("cpu")); return g * 2
        >>> x = gt.ones(2, requires_grad=True)
        >>> with gt.autocast("cpu"):
        ...     y = Double.apply(x)
        >>> y.sum().backward()  # outside the block: runs with autocast on, as forward did
        True
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    backward = bwd

    @functools.wraps(backward)
    def decorate_bwd(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        with autocast(device_type, dtype=ctx._dtype, enabled=ctx._fwd_used_autocast):
            return backward(ctx, *args, **kwargs)

    return decorate_bwd
