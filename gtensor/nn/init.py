"""Parameter initialisation, in place and without recording gradients.

Random initialisers draw on the tensor's device from gtensor's counter-based
generator (``gt.manual_seed`` or an explicit ``generator=``), so one seed
gives the same weights on ``cpu`` and ``cuda``. Fan-in and fan-out follow
PyTorch: for a weight of shape ``(out, in, *kernel)``, ``fan_in = in *
prod(kernel)`` and ``fan_out = out * prod(kernel)``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..generator import Generator
from ..graph.grad_mode import no_grad
from ..ops.random import randn
from ..tensor import Tensor
from ..tensor_base import from_numpy

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """Return the recommended gain for ``nonlinearity`` (as in PyTorch).

    Args:
        nonlinearity: "linear", "conv2d", "sigmoid", "tanh", "relu", "leaky_relu", "selu".
        param: the negative slope for "leaky_relu" (0.01 by default).

    Example:
        >>> round(calculate_gain("relu"), 4)
        1.4142
    """
    if nonlinearity in _LINEAR:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"[calculate_gain] unsupported nonlinearity {nonlinearity!r}")


def _calculate_fan_in_and_fan_out(t: Tensor) -> tuple[int, int]:
    if t.ndim < 2:
        raise ValueError(f"[init] fan in and fan out need at least 2 dimensions, got shape "
                         f"{t.shape}")
    receptive = math.prod(t.shape[2:])
    return t.shape[1] * receptive, t.shape[0] * receptive


def _fan(t: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"[init] mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(t)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with values drawn uniformly from ``[a, b)``.

    Example:
        >>> w = gt.nn.init.uniform_(gt.empty(3, 5), -1, 1)
        >>> w.shape, bool((w >= -1).all() and (w < 1).all())
        ((3, 5), True)
    """
    with no_grad():
        return t.uniform_(a, b, generator=generator)


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with values drawn from ``N(mean, std**2)``."""
    with no_grad():
        return t.normal_(mean, std, generator=generator)


def constant_(t: Tensor, val: float) -> Tensor:
    """Fill ``t`` with ``val``."""
    with no_grad():
        return t.fill_(val)


def zeros_(t: Tensor) -> Tensor:
    """Fill ``t`` with zeros."""
    return constant_(t, 0.0)


def ones_(t: Tensor) -> Tensor:
    """Fill ``t`` with ones."""
    return constant_(t, 1.0)


def xavier_uniform_(t: Tensor, gain: float = 1.0, *,
                    generator: Generator | None = None) -> Tensor:
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``.

    Example:
        >>> w = gt.nn.init.xavier_uniform_(gt.empty(4, 3))  # fan_in 3, fan_out 4
        >>> bool(w.abs().max() <= math.sqrt(6 / (3 + 4)))
        True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(t)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(t, -bound, bound, generator=generator)


def xavier_normal_(t: Tensor, gain: float = 1.0, *,
                   generator: Generator | None = None) -> Tensor:
    """Glorot normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(t)
    return normal_(t, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator=generator)


def _zero_element(t: Tensor) -> bool:
    """Whether ``t`` has no elements (PyTorch warns and leaves it as it is)."""
    if 0 not in tuple(t.shape):
        return False
    warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
    return True


def kaiming_uniform_(t: Tensor, a: float = 0.0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", *,
                     generator: Generator | None = None) -> Tensor:
    """He uniform: ``U(-b, b)`` with ``b = gain * sqrt(3 / fan)``.

    Args:
        t: the tensor to fill.
        a: negative slope of the rectifier after this layer (for "leaky_relu").
        mode: "fan_in" (preserve forward variance) or "fan_out" (backward).
        nonlinearity: passed to :func:`calculate_gain`.
        generator: the random stream (the device's default one when None).

    Example:
        >>> w = gt.nn.init.kaiming_uniform_(gt.empty(8, 4), nonlinearity="relu")  # fan_in 4
        >>> bool(w.abs().max() <= math.sqrt(2) * math.sqrt(3 / 4))  # gain * sqrt(3 / fan_in)
        True
    """
    if _zero_element(t):
        return t
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(t, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(t, -bound, bound, generator=generator)


def kaiming_normal_(t: Tensor, a: float = 0.0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", *,
                    generator: Generator | None = None) -> Tensor:
    """He normal: ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    if _zero_element(t):
        return t
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(t, mode))
    return normal_(t, 0.0, std, generator=generator)


def orthogonal_(t: Tensor, gain: float = 1.0, *, generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with a (semi-)orthogonal matrix scaled by ``gain``.

    The tensor is viewed as ``(rows, numel / rows)``; a normal matrix is drawn
    from the generator and orthonormalised on the host with a QR factorisation
    (signs fixed by the diagonal of R so the result is uniformly distributed),
    then copied once to the tensor's device.

    Example:
        >>> w = gt.nn.init.orthogonal_(gt.empty(3, 5))
        >>> gt.allclose(w @ w.T, gt.eye(3), atol=1e-5)  # orthonormal rows
        True
    """
    if t.ndim < 2:
        raise ValueError(f"[orthogonal_] needs at least 2 dimensions, got shape {t.shape}")
    rows = t.shape[0]
    cols = t.numel() // rows
    where = "cpu" if generator is None else generator.device
    flat = randn(rows, cols, generator=generator, dtype="float64", device=where).cpu().numpy()
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        t.copy_(from_numpy(np.ascontiguousarray(gain * q).reshape(t.shape)))
    return t
