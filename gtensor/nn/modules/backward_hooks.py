"""Module backward hooks: ``register_full_backward_hook`` and ``register_full_backward_pre_hook``.

As in PyTorch, the tensors going into and coming out of a hooked module's
forward pass through identity nodes. The output node sees the gradients of
the outputs (``grad_output``; pre-hooks may replace them), the input node the
gradients of the inputs (``grad_input``; hooks may replace them). When no input
requires grad the hooks run at the output node with ``grad_input`` all None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...autograd.hooks import RemovableHandle
from ...graph.node import Node, needs_grad, record
from ...tensor import Tensor


def _grad_tensors(values: tuple[Any, ...]) -> list[int]:
    return [i for i, v in enumerate(values) if isinstance(v, Tensor) and v.requires_grad]


def _replaced(op: str, new: Any, old: tuple[Any, ...]) -> tuple[Any, ...]:
    if new is None:
        return old
    new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
    if len(new) != len(old):
        raise RuntimeError(f"[{op}] the hook returned {len(new)} gradients, expected "
                           f"{len(old)}")
    return new


class _Pass:
    """One hooked call: the module, its hooks, and the ``grad_output`` once it arrives."""

    def __init__(self, module: Any, n_args: int, grad_args: list[int]) -> None:
        self.module, self.n_args, self.grad_args = module, n_args, grad_args
        self.grad_output: tuple[Any, ...] | None = None

    def run_hooks(self, grad_input: tuple[Any, ...]) -> tuple[Any, ...]:
        for hook in list(self.module._backward_hooks):
            grad_input = _replaced("register_full_backward_hook",
                                   hook(self.module, grad_input, self.grad_output), grad_input)
        return grad_input

    def inputs_vjp(self, ctx: Node, *grads: Tensor) -> tuple[Any, ...]:
        full: list[Any] = [None] * self.n_args
        for i, g in zip(self.grad_args, grads, strict=True):
            full[i] = g
        out = self.run_hooks(tuple(full))
        return tuple(out[i] for i in self.grad_args)

    def outputs_vjp(self, ctx: Node, *grads: Tensor) -> tuple[Any, ...]:
        grad_output = tuple(grads)
        for hook in list(self.module._backward_pre_hooks):
            grad_output = _replaced("register_full_backward_pre_hook",
                                    hook(self.module, grad_output), grad_output)
        self.grad_output = grad_output
        if not self.grad_args:
            for hook in list(self.module._backward_hooks):
                if hook(self.module, (None,) * self.n_args, grad_output) is not None:
                    raise RuntimeError("[register_full_backward_hook] a hook cannot replace "
                                       "grad_input when no input requires grad")
        return grad_output


def _identity(values: list[Tensor], vjp: Callable[..., Any]) -> list[Tensor]:
    outs = [v.detach() for v in values]
    record("BackwardHookFunctionBackward", outs, values, vjp)
    return outs


def with_backward_hooks(module: Any, args: tuple[Any, ...],
                        forward: Callable[[tuple[Any, ...]], Any]) -> Any:
    """Run ``forward(args)`` with ``module``'s backward hooks attached to its inputs and
    outputs (plain ``forward(args)`` when grad mode is off or nothing requires grad)."""
    grad_args = _grad_tensors(args)
    hooked = _Pass(module, len(args), grad_args)
    if grad_args and needs_grad(*[args[i] for i in grad_args]):
        new = list(args)
        for i, t in zip(grad_args, _identity([args[i] for i in grad_args], hooked.inputs_vjp),
                        strict=True):
            new[i] = t
        args = tuple(new)
    out = forward(args)
    single = isinstance(out, Tensor)
    items = (out,) if single else tuple(out) if isinstance(out, (tuple, list)) else ()
    picks = _grad_tensors(items)
    if not picks or not needs_grad(*[items[i] for i in picks]):
        return out
    new_items = list(items)
    for i, t in zip(picks, _identity([items[i] for i in picks], hooked.outputs_vjp),
                    strict=True):
        new_items[i] = t
    return new_items[0] if single else type(out)(new_items)


class BackwardHooks:
    """The Module methods that register backward hooks."""

    _backward_hooks: list[Callable[..., Any]]
    _backward_pre_hooks: list[Callable[..., Any]]

    def register_full_backward_hook(self, hook: Callable[..., Any], prepend: bool = False
                                    ) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` once the gradients of the module's
        positional inputs are computed; a non-None result replaces ``grad_input``.

        Example:
            >>> lin, seen = gt.nn.Linear(2, 1), []
            >>> h = lin.register_full_backward_hook(lambda m, gi, go: seen.append(go[0].shape))
            >>> lin(gt.ones(3, 2, requires_grad=True)).sum().backward(); seen
            [(3, 1)]
        """
        self._backward_hooks.insert(0 if prepend else len(self._backward_hooks), hook)
        return RemovableHandle(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any], prepend: bool = False
                                        ) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the gradients of the module's outputs
        arrive; a non-None result replaces ``grad_output``.

        Example:
            >>> lin = gt.nn.Linear(2, 1)
            >>> h = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 0,))
            >>> x = gt.ones(1, 2, requires_grad=True); lin(x).sum().backward(); x.grad.tolist()
            [[0.0, 0.0]]
        """
        self._backward_pre_hooks.insert(0 if prepend else len(self._backward_pre_hooks), hook)
        return RemovableHandle(self._backward_pre_hooks, hook)
