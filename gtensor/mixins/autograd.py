"""Autograd methods: ``requires_grad``, ``backward``, gradient hooks, ``retain_grad``, ``data``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..autograd import hooks
from ..errors import check
from ..tensor_base import TensorBase
from ..trace_state import state as _tracing

if TYPE_CHECKING:
    from ..tensor import Tensor


def _read_data(self: Tensor) -> Tensor:
    """The values outside autograd: a detached tensor over the same storage and layout.

    Assigning a tensor of any shape, dtype or device points this tensor at its
    storage, keeping the object, its ``requires_grad``, ``grad`` and hooks (as
    ``module.to`` does for parameters). The detached tensor shares the
    storage's version counter, so a write through ``.data`` into a tensor that
    a pending backward saved is reported at that backward (PyTorch gives
    ``.data`` a counter of its own and lets such a write through).
    """
    return self.detach()


def _write_data(self: Tensor, new: Any) -> None:
    """Point ``self`` at ``new``'s storage and layout (any shape, dtype or device)."""
    check(isinstance(new, TensorBase), "data", lambda: "data has to be a tensor, but got "
          f"{type(new).__name__}", TypeError)
    check(new.dtype.is_inexact or not self.requires_grad, "data", lambda: "data set to "
          f"a tensor that requires gradients must be floating point, got {new.dtype.name}",
          RuntimeError)
    if _tracing.trace is not None:
        _tracing.trace.refuse(self)
    self._set_data(new)


class AutogradMethods:
    """The Tensor side of autograd; ``backward`` runs the engine."""

    __slots__ = ()

    requires_grad = property(hooks.requires_grad, hooks.set_requires_grad)
    backward = hooks.backward
    register_hook = hooks.register_hook
    register_post_accumulate_grad_hook = hooks.register_post_accumulate_grad_hook
    retain_grad = hooks.retain_grad
    retains_grad = property(hooks.retains_grad)
    data = property(_read_data, _write_data)
