"""Checks that the CUDA compiler can run with the installed libraries, before any kernel."""

from __future__ import annotations

import numpy as np


def check_numpy(simulated: bool) -> None:
    """Raise ``ImportError`` naming the fix when numba-cuda cannot compile with this NumPy.

    numba-cuda 0.30 registers ``np.row_stack``, which NumPy 2.5 removed, so its
    compiler fails on the first kernel; say so at load time instead.

    Example:
        >>> check_numpy(simulated=True)
    """
    if simulated:
        return
    try:
        import numba.cuda.np.arrayobj  # noqa: F401
    except AttributeError as exc:
        from importlib.metadata import version

        raise ImportError(
            f"[cuda] numba-cuda {version('numba-cuda')} cannot compile kernels with NumPy "
            f"{np.__version__} ({exc}); install NumPy below 2.5 (gtensor's cuda12 and cuda13 "
            "extras pin it)") from exc
