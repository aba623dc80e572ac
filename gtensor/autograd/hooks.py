"""Tensor-side autograd API: ``requires_grad``, ``backward``, hooks, ``retain_grad``.

:class:`gtensor.Tensor` declares these as methods (``gtensor.mixins.autograd``);
they sit above the engine that ``backward`` runs.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..graph.inplace import refresh_view
from .engine import backward as _backward

if TYPE_CHECKING:
    from ..tensor import Tensor


class RemovableHandle:
    """Returned by hook registration; ``remove()`` unregisters the hook.

    Example:
        >>> x = gt.ones(2, requires_grad=True)
        >>> with x.register_hook(lambda g: g * 2):  # removed when the block ends
        ...     x.sum().backward()
        >>> x.sum().backward(); x.grad.tolist()
        [3.0, 3.0]
    """

    def __init__(self, hooks: list[Callable], hook: Callable) -> None:
        self._hooks: list[Callable] | None = hooks
        self._hook = hook

    def remove(self) -> None:
        """Unregister the hook (idempotent; other registrations of the same callable stay)."""
        hooks, self._hooks = self._hooks, None
        for i, registered in enumerate(hooks or ()):
            if registered is self._hook:
                del hooks[i]  # type: ignore[union-attr]
                return

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def requires_grad(self: Tensor) -> bool:
    """Whether gradients flow to this tensor (a view's answer follows writes into its base)."""
    if self._base is not None and self._view_version != self._storage.version:
        refresh_view(self)
    return self._requires_grad


def set_requires_grad(self: Tensor, value: bool) -> None:
    """Assign ``requires_grad`` (leaves only, as :meth:`requires_grad_`)."""
    self.requires_grad_(value)


def backward(self: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate the gradient of this tensor into the leaves' ``.grad``.

    Example:
        >>> x = gt.tensor([1.0, 2.0], requires_grad=True)
        >>> (x * x).sum().backward()
        >>> x.grad.tolist()
        [2.0, 4.0]
    """
    _backward(self, gradient, retain_graph=retain_graph, create_graph=create_graph,
              inputs=inputs)


def _hook_list(t: Tensor, op: str) -> list[Callable]:
    """The list that holds ``t``'s gradient hooks.

    A leaf keeps its hooks itself: its ``AccumulateGrad`` node is only weakly
    referenced and made afresh for each graph, so hooks stored there would be
    lost. A non-leaf's hooks live on its ``grad_fn``, which it holds.
    """
    if not t.requires_grad:
        raise RuntimeError(f"[{op}] cannot register a hook on a tensor that doesn't require "
                           "gradient")
    if t.grad_fn is None:
        if t._backward_hooks is None:
            t._backward_hooks = []
        return t._backward_hooks
    node = t.grad_fn
    if node.pre_hooks is None:
        node.pre_hooks = {}
    return node.pre_hooks.setdefault(t._output_nr, [])


def register_hook(self: Tensor, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
    """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it.

    Example:
        >>> x = gt.ones(2, requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 2)
        >>> x.sum().backward(); x.grad.tolist()
        [2.0, 2.0]
    """
    hooks = _hook_list(self, "register_hook")
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


def register_post_accumulate_grad_hook(self: Tensor,
                                       hook: Callable[[Tensor], None]) -> RemovableHandle:
    """Call ``hook(tensor)`` after a leaf's ``.grad`` has been updated.

    Example:
        >>> p = gt.ones(2, requires_grad=True)
        >>> h = p.register_post_accumulate_grad_hook(lambda p: print(p.grad.tolist()))
        >>> (p * 3).sum().backward()
        [3.0, 3.0]
    """
    if not (self.is_leaf and self.requires_grad):
        raise RuntimeError("[register_post_accumulate_grad_hook] can only register on a leaf "
                           "tensor that requires grad")
    if self._post_acc_hooks is None:
        self._post_acc_hooks = []
    self._post_acc_hooks.append(hook)
    return RemovableHandle(self._post_acc_hooks, hook)


def retain_grad(self: Tensor) -> None:
    """Keep the gradient of this non-leaf tensor in ``.grad`` after backward."""
    if self.is_leaf or self._retains_grad:
        if not self.requires_grad:
            raise RuntimeError("[retain_grad] can't retain_grad on a tensor that has "
                               "requires_grad=False")
        return
    self._retains_grad = True
    ref = weakref.ref(self)

    def store(g: Tensor) -> None:
        t = ref()
        if t is None:
            return
        if t.grad is None:
            t.grad = g.detach().clone()
        else:
            t.grad = t.grad + g.detach()

    _hook_list(self, "retain_grad").append(store)


def retains_grad(self: Tensor) -> bool:
    """True once :meth:`retain_grad` was called on this non-leaf tensor."""
    return self._retains_grad
