"""Grad modes: whether ops record graph nodes.

``no_grad`` and ``enable_grad`` switch recording; ``inference_mode`` is
``no_grad`` that ``is_inference_mode_enabled()`` reports (its results are
ordinary tensors: gtensor has no separate inference-tensor kind).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

class _State(threading.local):
    """Per-thread grad modes; the class attributes are each new thread's defaults."""

    enabled = True
    inference = False


state = _State()


def is_grad_enabled() -> bool:
    """True when ops record autograd nodes (the default).

    Example:
        >>> is_grad_enabled()
        True
    """
    return state.enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return state.inference


class _Mode:
    """A context manager that is also a decorator."""

    def __init__(self, enabled: bool, inference: bool = False) -> None:
        self.enabled = enabled
        self.inference = inference
        self._prev: list[tuple[bool, bool]] = []

    def __enter__(self) -> None:
        self._prev.append((is_grad_enabled(), is_inference_mode_enabled()))
        state.enabled = self.enabled
        if self.inference:
            state.inference = True

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.inference = self._prev.pop()

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with _Mode(self.enabled, self.inference):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class _BareDecorator(_Mode):
    """A mode usable as ``@mode`` as well as ``@mode()`` and ``with mode():``."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_BareDecorator):  # noqa: N801 - PyTorch's spelling
    """Disable recording inside the block (or the decorated function).

    Example:
        >>> with no_grad():
        ...     assert not is_grad_enabled()
        >>> @no_grad
        ... def f(x): return x * 2
    """

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        super().__init__(False)


class enable_grad(_BareDecorator):  # noqa: N801
    """Enable recording inside the block (or the decorated function), even within ``no_grad``."""

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        super().__init__(True)


class set_grad_enabled(_Mode):  # noqa: N801
    """Set recording on or off: as a function call, or for a ``with`` block.

    Example:
        >>> with set_grad_enabled(False):
        ...     assert not is_grad_enabled()
    """

    def __init__(self, mode: bool) -> None:
        super().__init__(bool(mode))
        self._prev_call = is_grad_enabled()
        state.enabled = bool(mode)

    def __enter__(self) -> None:
        self._prev.append((self._prev_call, is_inference_mode_enabled()))
        state.enabled = self.enabled


class inference_mode(_Mode):  # noqa: N801
    """Disable recording for inference, as ``no_grad`` does (``mode=False`` is a no-op).

    Example:
        >>> with inference_mode():
        ...     assert is_inference_mode_enabled()
    """

    def __new__(cls, mode: bool | Callable[..., Any] = True) -> Any:
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True) -> None:
        super().__init__(not mode and is_grad_enabled(), inference=mode)

