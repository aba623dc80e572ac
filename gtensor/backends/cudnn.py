"""``gt.backends.cudnn``: whether CUDA convolutions go through cuDNN, as ``torch.backends.cudnn``.

``enabled`` (default True) lets a real GPU with the cuDNN frontend
(``nvidia-cudnn-frontend``, the ``cuda12``/``cuda13`` extras) run ``conv2d``,
``conv_transpose2d`` and the convolution gradients through cuDNN; with it off,
or without cuDNN, they use gtensor's im2col kernels. ``allow_tf32`` (default
False, unlike PyTorch) lets float32 convolutions use TF32 tensor cores. Both
are read at each call; graphs are cached per setting.

Example:
    >>> import gtensor as gt
    >>> gt.backends.cudnn.enabled = False
    >>> gt.backends.cudnn.enabled
    False
    >>> gt.backends.cudnn.enabled = True
"""

from __future__ import annotations

import sys
import types

from ..kernels.common.cudnn_library import SWITCHES, backend_version


def is_available() -> bool:
    """Return True when cuDNN can run here (a real GPU, the frontend and libcudnn).

    Example:
        >>> is_available() in (True, False)
        True
    """
    return backend_version() is not None


def version() -> int | None:
    """Return libcudnn's version as an int (``91000`` for 9.10.0), or None without cuDNN.

    Example:
        >>> version() is None or version() >= 90000
        True
    """
    return backend_version()


class _CudnnModule(types.ModuleType):
    """This module's type: ``enabled`` and ``allow_tf32`` read and write the kernels' switches."""

    @property
    def enabled(self) -> bool:
        """Whether convolutions may run through cuDNN."""
        return SWITCHES.enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        SWITCHES.enabled = bool(value)

    @property
    def allow_tf32(self) -> bool:
        """Whether float32 convolutions may use TF32 tensor cores."""
        return SWITCHES.allow_tf32

    @allow_tf32.setter
    def allow_tf32(self, value: bool) -> None:
        SWITCHES.allow_tf32 = bool(value)


sys.modules[__name__].__class__ = _CudnnModule

__all__ = ["allow_tf32", "enabled", "is_available", "version"]  # noqa: F822
