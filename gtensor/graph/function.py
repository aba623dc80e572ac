"""Custom differentiable functions: ``gt.autograd.Function`` with a context object."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..tensor_base import TensorBase
from .grad_mode import no_grad
from .node import Node, needs_grad

if TYPE_CHECKING:
    from ..tensor import Tensor


class FunctionCtx:
    """What ``forward`` leaves for ``backward``: saved tensors, flags and any attribute."""

    def __init__(self) -> None:
        self.to_save: tuple[Tensor | None, ...] = ()
        self.dirty: tuple[Tensor, ...] = ()
        self.non_differentiable: tuple[Tensor, ...] = ()
        self.needs_input_grad: tuple[bool, ...] = ()
        self.materialize_grads = True
        self._node: Node | None = None

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep ``tensors`` for ``backward`` (checked for in-place changes)."""
        self.to_save = tensors

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        """The tensors given to :meth:`save_for_backward`."""
        if self._node is None:
            return self.to_save
        return self._node.saved_tensors

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Declare inputs that ``forward`` modified in place."""
        self.dirty = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """Declare outputs that never get a gradient."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether missing output gradients arrive as zeros (default) or None."""
        self.materialize_grads = value


class Function:
    """Base class of user-defined ops with a hand-written backward.

    Example:
        >>> class Square(Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * g
        >>> x = gt.tensor([1.0, 3.0], requires_grad=True)
        >>> Square.apply(x).sum().backward(); x.grad.tolist()
        [2.0, 6.0]
    """

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        """Compute the outputs (runs with grad recording off)."""
        raise NotImplementedError("[Function] subclasses must define forward")

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        """Return one gradient (or None) per forward input."""
        raise NotImplementedError("[Function] subclasses must define backward")

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run ``forward`` and record ``backward`` in the graph.

        A subclass that defines ``setup_context(ctx, inputs, output)`` has a
        ``forward`` without ``ctx``, as in PyTorch; ``setup_context`` then fills
        the context from the inputs and the output.
        """
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, TensorBase) and a.requires_grad for a in args)
        setup = getattr(cls, "setup_context", None)
        with no_grad():
            if setup is None:
                result = cls.forward(ctx, *args)
            else:
                result = cls.forward(*args)
                setup(ctx, args, result)
        if not needs_grad(*args):
            return result
        outs = (result,) if isinstance(result, TensorBase) else tuple(result)
        node = Node(cls.__name__, _call_backward(cls, ctx), args, len(outs))
        ctx._node = node
        if not ctx.materialize_grads:
            node.materialize_grads = False
        dirty = {id(t) for t in ctx.dirty}
        frozen = {id(t) for t in ctx.non_differentiable}
        for i, out in enumerate(outs):
            if not isinstance(out, TensorBase):
                continue
            if id(out) in dirty and out.is_leaf and out.requires_grad:
                raise RuntimeError(f"[{cls.__name__}] a leaf Variable that requires grad is "
                                   "being used in an in-place operation")
            node.output_meta[i] = (out.shape, out.dtype, out.device)
            if out.dtype.is_inexact and id(out) not in frozen:
                if any(out is a for a in args) and id(out) not in dirty:
                    raise RuntimeError(f"[{cls.__name__}] forward returned an input unchanged; "
                                       "return a view or clone, or mark_dirty it")
                out._requires_grad = True
                out.grad_fn = node
                out._output_nr = i
                if id(out) in dirty:
                    out._bump_version()
        node.save(ctx.to_save, outs)
        return result


def _call_backward(cls: type[Function], ctx: FunctionCtx) -> Callable[..., Any]:
    def vjp(node: Node, *grads: Tensor) -> Any:
        return cls.backward(ctx, *grads)

    return vjp


def once_differentiable(backward: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a ``backward`` as not differentiable itself: it runs with grad recording off.

    Example:
        >>> @staticmethod
        ... @once_differentiable
        ... def backward(ctx, g): ...
    """

    @functools.wraps(backward)
    def wrapper(ctx: FunctionCtx, *grads: Any) -> Any:
        with no_grad():
            return backward(ctx, *grads)

    return wrapper
