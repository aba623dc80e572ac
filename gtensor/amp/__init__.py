"""Automatic mixed precision: ``autocast`` regions and ``GradScaler``, as ``torch.amp``.

Example:
    >>> import gtensor as gt
    >>> with gt.amp.autocast("cpu", dtype=gt.float16):
    ...     y = gt.ones(2, 3) @ gt.ones(3, 4)
    >>> y.dtype
    gtensor.float16
"""

from ..graph.autocast_mode import (
    clear_autocast_cache,
    get_autocast_dtype,
    is_autocast_available,
    is_autocast_cache_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)
from .autocast_mode import autocast, custom_bwd, custom_fwd
from .grad_scaler import GradScaler, OptState

__all__ = ["GradScaler", "OptState", "autocast", "clear_autocast_cache", "custom_bwd",
           "custom_fwd", "get_autocast_dtype", "is_autocast_available",
           "is_autocast_cache_enabled", "is_autocast_enabled", "set_autocast_cache_enabled",
           "set_autocast_dtype", "set_autocast_enabled"]
