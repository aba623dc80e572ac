"""The number of cpu threads gtensor's parallel kernels use (Numba's thread pool).

Example:
    >>> import gtensor as gt
    >>> gt.get_num_threads() >= 1
    True
"""

from __future__ import annotations

import numba


def get_num_threads() -> int:
    """The number of threads the cpu kernels run on.

    Example:
        >>> get_num_threads() >= 1
        True
    """
    return int(numba.get_num_threads())


def set_num_threads(n: int) -> None:
    """Run the cpu kernels on ``n`` threads (1 to the number Numba started with).

    Example:
        >>> set_num_threads(get_num_threads())
    """
    limit = numba.config.NUMBA_NUM_THREADS
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= limit:
        raise ValueError(f"[set_num_threads] expected an int from 1 to {limit}, got {n!r}")
    numba.set_num_threads(n)
