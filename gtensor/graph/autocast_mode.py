"""Autocast state and op policy: which ops run in a lower precision inside ``gt.autocast``.

The state is per thread, as PyTorch's: whether autocast is on for each device
type (``cpu``, ``cuda``), its low-precision dtype there, whether casts of
parameters are cached, and the nesting depth of autocast regions. The ops
consult it at entry through :func:`autocast_inputs`, one line per public op
(ops made by factories go through :func:`with_autocast`); with autocast off
nowhere in the process that call reads one module global and returns its
arguments.

Policies follow PyTorch's autocast lists (``aten/src/ATen/autocast_mode.h``
for CUDA, ``autocast_mode.cpp`` for the CPU), restricted to the ops gtensor
has (PyTorch's CPU list also casts its linear-algebra decompositions to
float32; gtensor's ``linalg`` decompositions take no half dtypes and are left
out):

* ``low``: floating arguments (not float64) are cast to the low dtype
  (matrix products, linear, attention, recurrent layers, prelu);
* ``fp32``: they are cast to float32 (losses, softmax and sums on CUDA,
  exp-like ops on CUDA...);
* ``promote``: they are cast to the widest floating dtype among them
  (float32 if any is float32, else the low dtype);
* ``banned``: the op refuses to run (``binary_cross_entropy`` on CUDA).

Convolutions are ``fp32`` here (PyTorch: low): gtensor's convolution kernels
compute half inputs in float32 anyway (``ops/widen.py``), so the low dtype
would only add casts; they move to the low list once a convolution kernel
computes in half types.

gtensor's recurrent layers and cells are linear layers around a cell kernel,
so ``recurrence`` is low on both device types (PyTorch's CPU lists only the
LSTM layer: its GRU and cell kernels keep the input dtype). Ops inside a
policy op apply their own policy (PyTorch runs them with autocast off): an
``einsum`` that ends in a sum on CUDA returns float32.

A cast is an ordinary differentiable ``to()``, so gradients come back in each
argument's own dtype. A float32 leaf that requires grad (a parameter) cast to
the low dtype is cast once per outermost autocast region and reused
(``cache_enabled``), unless it was written in place since.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ..dtypes import bfloat16, dtype, float16, float32, float64
from ..errors import DTypeError, check
from ..tensor_base import TensorBase
from ..trace_state import state as tracing
from .grad_mode import state as grad_state

F = TypeVar("F", bound=Callable[..., Any])

LOW, FP32, PROMOTE, BANNED = "low", "fp32", "promote", "banned"
DEVICE_TYPES = ("cpu", "cuda")

_CONV = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d")
_LOSSES = ("nll_loss", "cross_entropy", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
           "margin_ranking_loss", "triplet_margin_loss", "kl_div",
           "binary_cross_entropy_with_logits")

POLICIES: dict[str, dict[str, str]] = {
    "cuda": {
        **dict.fromkeys(("matmul", "mm", "bmm", "baddbmm", "addmv", "addr", "chain_matmul",
                         "multi_dot", "vecdot", "einsum", "linear", "prelu",
                         "scaled_dot_product_attention", "recurrence"), LOW),
        **dict.fromkeys(_CONV + _LOSSES + (
            "acos", "asin", "cosh", "exp", "expm1", "log", "log10", "log2", "log1p",
            "reciprocal", "rsqrt", "sinh", "tan", "pow", "softplus", "layer_norm",
            "group_norm", "cosine_similarity", "cdist", "renorm", "logsumexp", "interpolate",
            "softmax", "log_softmax", "prod", "cumprod", "cumsum", "sum", "norm",
            "vector_norm", "matrix_norm"), FP32),
        **dict.fromkeys(("addcdiv", "addcmul", "atan2", "bilinear", "cross", "tensordot",
                         "index_put", "scatter_add", "grid_sample"), PROMOTE),
        "binary_cross_entropy": BANNED,
    },
    "cpu": {
        **dict.fromkeys(("matmul", "mm", "bmm", "baddbmm", "vecdot", "linear", "prelu",
                         "scaled_dot_product_attention", "recurrence"), LOW),
        **dict.fromkeys(_CONV + _LOSSES + (
            "binary_cross_entropy", "ctc_loss", "grid_sample", "cdist", "prod", "quantile",
            "nanquantile", "trace"), FP32),
        **dict.fromkeys(("cat", "stack", "index_copy"), PROMOTE),
    },
}

_BANNED_MESSAGE = (
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using "
    "torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast.").replace("torch.", "gt.")


def default_dtype(device_type: str) -> dtype:
    """PyTorch's default low dtype: bfloat16 on the cpu, float16 on cuda."""
    return bfloat16 if device_type == "cpu" else float16


class _State(threading.local):
    """One thread's autocast settings (each new thread starts with autocast off)."""

    def __init__(self) -> None:
        self.enabled = dict.fromkeys(DEVICE_TYPES, False)
        self.dtype = {d: default_dtype(d) for d in DEVICE_TYPES}
        self.cache_enabled = True
        self.nesting = 0
        self.cache: dict[int, tuple[TensorBase, int, TensorBase]] = {}
        self.on = False


state = _State()
_threads_on = 0  # threads with autocast on for some device type: 0 makes every hook a no-op
_count_lock = threading.Lock()


def _check_device_type(device_type: str, op: str) -> None:
    check(device_type in DEVICE_TYPES, op,
          lambda: f"unsupported autocast device_type {device_type!r}; expected one of "
          f"{', '.join(DEVICE_TYPES)}", ValueError)


def is_autocast_available(device_type: str) -> bool:
    """True for the device types autocast supports (``"cpu"`` and ``"cuda"``).

    Example:
        >>> is_autocast_available("cuda"), is_autocast_available("mps")
        (True, False)
    """
    return device_type in DEVICE_TYPES


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """True inside an enabled ``autocast`` region for ``device_type`` (this thread).

    Example:
        >>> is_autocast_enabled("cpu")
        False
    """
    _check_device_type(device_type, "is_autocast_enabled")
    return state.enabled[device_type]


def set_autocast_enabled(device_type: str, enabled: bool) -> None:
    """Turn autocast on or off for ``device_type`` in this thread (``autocast`` does this)."""
    global _threads_on
    _check_device_type(device_type, "set_autocast_enabled")
    state.enabled[device_type] = bool(enabled)
    on = any(state.enabled.values())
    if on != state.on:
        with _count_lock:
            _threads_on += 1 if on else -1
        state.on = on


def get_autocast_dtype(device_type: str) -> dtype:
    """The low dtype of ``device_type``'s autocast (float16 on cuda by default).

    Example:
        >>> get_autocast_dtype("cuda")
        gtensor.float16
    """
    _check_device_type(device_type, "get_autocast_dtype")
    return state.dtype[device_type]


def set_autocast_dtype(device_type: str, dt: dtype) -> None:
    """Set the low dtype of ``device_type``'s autocast in this thread."""
    _check_device_type(device_type, "set_autocast_dtype")
    state.dtype[device_type] = dt


def is_autocast_cache_enabled() -> bool:
    """True when parameter casts are cached inside autocast regions (the default)."""
    return state.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Turn the cache of parameter casts on or off in this thread."""
    state.cache_enabled = bool(enabled)


def clear_autocast_cache() -> None:
    """Drop the cached casts (leaving the outermost autocast region does this)."""
    state.cache.clear()


def autocast_increment_nesting() -> int:
    """Count one more entered autocast region; return the depth."""
    state.nesting += 1
    return state.nesting


def autocast_decrement_nesting() -> int:
    """Count one region left; return the depth (0: outside every region)."""
    state.nesting -= 1
    return state.nesting


def autocast_key() -> tuple[Any, ...] | None:
    """What a traced function's result depends on: None when autocast is off in this thread,
    else each enabled device type with its low dtype (``gt.compile`` keys traces by it)."""
    if not _threads_on or not state.on:
        return None
    return tuple((d, state.dtype[d]) for d in DEVICE_TYPES if state.enabled[d])


def autocast_inputs(op: str, *args: Any) -> tuple[Any, ...]:
    """Return ``args`` cast per ``op``'s autocast policy (as they are when autocast is off).

    Tensors (or lists and tuples of them) are cast; ``None`` and other values
    pass through. An op calls this first, with its tensor arguments.

    Example:
        >>> a, b = gt.ones(2, 2), gt.ones(2, 2)
        >>> with gt.autocast("cpu", dtype=gt.bfloat16):
        ...     print([t.dtype for t in autocast_inputs("matmul", a, b)])
        [gtensor.bfloat16, gtensor.bfloat16]
    """
    if not _threads_on:
        return args
    return _cast_for(op, args)


def with_autocast(op: str, fn: F) -> F:
    """``fn`` behind :func:`autocast_inputs` (on its positional arguments) when ``op`` has a
    policy on some device type, else ``fn`` itself: for ops made by factories, so that the
    ops without a policy pay nothing.

    Example:
        >>> mm = with_autocast("matmul", lambda a, b: a @ b)
        >>> with gt.autocast("cpu", dtype=gt.bfloat16):
        ...     print(mm(gt.ones(2, 2), gt.ones(2, 2)).dtype)
        gtensor.bfloat16
    """
    if not any(op in policy for policy in POLICIES.values()):
        return fn

    @functools.wraps(fn)
    def entry(*args: Any, **kwargs: Any) -> Any:
        return fn(*autocast_inputs(op, *args), **kwargs)

    return entry  # type: ignore[return-value]


def _first_tensor(args: tuple[Any, ...]) -> TensorBase | None:
    for a in args:
        if isinstance(a, TensorBase):
            return a
        if isinstance(a, (list, tuple)):
            for t in a:
                if isinstance(t, TensorBase):
                    return t
    return None


def _cast_for(op: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    st = state
    if not st.on:
        return args
    first = _first_tensor(args)
    if first is None:
        return args
    dev = first._storage.device.type
    if not st.enabled.get(dev):
        return args
    policy = POLICIES[dev].get(op)
    if policy is None:
        return args
    check(policy != BANNED, op, _BANNED_MESSAGE, RuntimeError)
    low = st.dtype[dev]
    target = float32 if policy == FP32 else low
    if policy == PROMOTE:
        target = _widest(op, args, dev, low)
    return tuple(_cast_arg(a, target, dev, low) for a in args)


def _eligible(t: Any, dev: str) -> bool:
    return (isinstance(t, TensorBase) and t._dtype.category == 2 and t._dtype is not float64
            and t._storage.device.type == dev)


def _widest(op: str, args: tuple[Any, ...], dev: str, low: dtype) -> dtype:
    """PyTorch's ``promote``: float32 if any eligible argument is float32, else ``low``."""
    found = low
    for a in args:
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if not _eligible(t, dev) or t._dtype is low:
                continue
            check(t._dtype is float32, op, lambda: f"autocast to {low.name} cannot promote a "
                  f"{t._dtype.name} argument", DTypeError)
            found = float32
    return found


def _cast_arg(a: Any, target: dtype, dev: str, low: dtype) -> Any:
    if isinstance(a, (list, tuple)):
        return type(a)(_cast_arg(t, target, dev, low) for t in a)
    if not _eligible(a, dev) or a._dtype is target:
        return a
    cacheable = (target is low and a._dtype is float32 and a._requires_grad and a.grad_fn is None
                 and a._base is None and state.cache_enabled and grad_state.enabled
                 and tracing.trace is None)
    if not cacheable:
        return a.to(target)
    hit = state.cache.get(id(a))
    version = a._storage.version
    if hit is not None and hit[0] is a and hit[1] == version and hit[2]._dtype is target:
        return hit[2]
    cast = a.to(target)
    state.cache[id(a)] = (a, version, cast)
    return cast
