"""``gt.backends.cudnn``: whether CUDA convolutions go through cuDNN, as ``torch.backends.cudnn``.

``enabled`` (default True) lets a real GPU with the cuDNN frontend
(``nvidia-cudnn-frontend``, the ``cuda12``/``cuda13`` extras) run ``conv2d``,
``conv_transpose2d`` and the convolution gradients through cuDNN; with it off,
or without cuDNN, they use gtensor's im2col kernels (deterministic). ``allow_tf32``
(default False, unlike PyTorch) lets float32 convolutions use TF32 tensor cores;
``deterministic`` (default False, as PyTorch) keeps cuDNN to engines that give
the same bits on every run. All are read at each call; graphs are cached per
setting.

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


def _switch(name: str, doc: str) -> property:
    """A module attribute that reads and writes ``SWITCHES.<name>`` (as a bool)."""
    return property(lambda self: getattr(SWITCHES, name),
                    lambda self, value: setattr(SWITCHES, name, bool(value)), doc=doc)


class _CudnnModule(types.ModuleType):
    """This module's type: its switches read and write the CUDA kernels' ``SWITCHES``."""

    enabled = _switch("enabled", "Whether convolutions may run through cuDNN.")
    allow_tf32 = _switch("allow_tf32", "Whether float32 convolutions may use TF32 tensor cores.")
    deterministic = _switch("deterministic", "Whether cuDNN runs only engines that give the "
                            "same bits on every run.")


sys.modules[__name__].__class__ = _CudnnModule

__all__ = ["allow_tf32", "deterministic", "enabled", "is_available", "version"]  # noqa: F822
