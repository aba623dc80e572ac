"""Autograd methods: ``requires_grad``, ``backward``, gradient hooks, ``retain_grad``."""

from __future__ import annotations

from ..autograd import hooks


class AutogradMethods:
    """The Tensor side of autograd; ``backward`` runs the engine."""

    __slots__ = ()

    requires_grad = property(hooks.requires_grad, hooks.set_requires_grad)
    backward = hooks.backward
    register_hook = hooks.register_hook
    register_post_accumulate_grad_hook = hooks.register_post_accumulate_grad_hook
    retain_grad = hooks.retain_grad
    retains_grad = property(hooks.retains_grad)
