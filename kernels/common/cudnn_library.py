"""The cuDNN frontend (``import cudnn``) where it can run, and the switches that gate its use.

Importing this module loads no CUDA library: :func:`frontend` imports the
``nvidia-cudnn-frontend`` package (Python module ``cudnn``) on its first call
and remembers the answer. ``gtensor.backends.cudnn`` exposes the switches as
``enabled``, ``allow_tf32`` and ``deterministic``.

Example:
    >>> SWITCHES.enabled in (True, False)
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..simulator import SIMULATED


@dataclass
class CudnnSwitches:
    """What the CUDA convolution kernels may use cuDNN for.

    Attributes:
        enabled: run convolutions through cuDNN where it is available (else im2col).
        allow_tf32: let float32 convolutions use TF32 tensor cores (PyTorch's
            ``torch.backends.cudnn.allow_tf32``; off here, so float32 stays float32).
        deterministic: use only engines that give the same bits on every run (off,
            as in PyTorch: some faster engines accumulate with atomics).
    """

    enabled: bool = True
    allow_tf32: bool = False
    deterministic: bool = False


SWITCHES = CudnnSwitches()

_UNPROBED = object()
_frontend: Any = _UNPROBED


def frontend() -> Any:
    """Return the ``cudnn`` module, or None where it cannot run.

    None on Numba's CUDA simulator, where the package is not installed, or where
    it imports but finds no ``libcudnn`` (its ``backend_version`` raises then).

    Example:
        >>> frontend() is None or hasattr(frontend(), "pygraph")
        True
    """
    global _frontend
    if _frontend is _UNPROBED:
        _frontend = None if SIMULATED else _import_frontend()
    return _frontend


def _import_frontend() -> Any:
    try:
        import cudnn

        cudnn.backend_version()
    except Exception:  # ImportError, OSError, or RuntimeError when libcudnn is missing
        return None
    return cudnn


def backend_version() -> int | None:
    """Return libcudnn's version as an int (``90100`` for 9.1.0), or None without cuDNN.

    Example:
        >>> backend_version() is None or backend_version() > 0
        True
    """
    cudnn = frontend()
    return None if cudnn is None else int(cudnn.backend_version())
