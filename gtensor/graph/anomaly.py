"""Anomaly detection: NaNs produced in backward name the forward op that made them."""

from __future__ import annotations

import threading


class _State(threading.local):
    """Per-thread anomaly mode; the class attribute is each new thread's default."""

    enabled = False


_state = _State()


def is_anomaly_enabled() -> bool:
    """True inside ``detect_anomaly()``."""
    return _state.enabled


class detect_anomaly:  # noqa: N801 - PyTorch's spelling
    """Record where each op was created and check every backward result for NaN.

    Example:
        >>> with detect_anomaly():
        ...     pass
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        self._prev = False

    def __enter__(self) -> None:
        self._prev = is_anomaly_enabled()
        _state.enabled = self.check_nan

    def __exit__(self, *exc: object) -> None:
        _state.enabled = self._prev


class set_detect_anomaly:  # noqa: N801 - PyTorch's spelling
    """Turn anomaly mode on or off: as a function call, or for a ``with`` block.

    Args:
        mode: whether anomaly mode is on.
        check_nan: whether backward results are checked for NaN (on only with ``mode``).

    Example:
        >>> with set_detect_anomaly(True):
        ...     assert is_anomaly_enabled()
        >>> is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._prev = is_anomaly_enabled()
        _state.enabled = bool(mode) and check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _state.enabled = self._prev
