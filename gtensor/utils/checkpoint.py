"""Activation checkpointing: trade compute for memory by recomputing a block in backward.

``checkpoint(fn, *args)`` runs ``fn`` without recording its graph and keeps only
its inputs; backward reruns ``fn`` (with the random state it first saw) and
differentiates that rerun. Gradients reach the inputs and, through ``.grad``,
the parameters ``fn`` uses, as with PyTorch's ``torch.utils.checkpoint``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..autograd.engine import backward
from ..device import CPU
from ..generator import Generator, default_generator_for
from ..graph.function import Function, FunctionCtx
from ..graph.grad_mode import enable_grad, is_grad_enabled
from ..tensor import Tensor


def _rng_states(args: Sequence[Any]) -> list[tuple[Generator, Any]]:
    """The states of the cpu generator and of the generators of the args' devices."""
    devs = {CPU} | {a.device for a in args if isinstance(a, Tensor)}
    gens = {id(g): g for g in (default_generator_for(d) for d in devs)}
    return [(g, g.get_state()) for g in gens.values()]


class _Checkpoint(Function):
    @staticmethod
    def forward(ctx: FunctionCtx, fn: Callable[..., Any], preserve: bool, *args: Any) -> Any:
        ctx.fn = fn
        ctx.rng = _rng_states(args) if preserve else None
        ctx.template = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return fn(*args)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        saved = iter(ctx.saved_tensors)
        args = [next(saved) if a is None and ctx.template[i] is None else a
                for i, a in enumerate(ctx.template)]
        inputs = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                  for a in args]
        states = _rng_states(args) if ctx.rng is not None else []
        for g, st in ctx.rng or []:
            g.set_state(st)
        try:
            with enable_grad():
                result = ctx.fn(*inputs)
        finally:
            for g, st in states:
                g.set_state(st)
        outs = (result,) if isinstance(result, Tensor) else tuple(result)
        pairs = [(o, g) for o, g in zip(outs, grads, strict=False)
                 if isinstance(o, Tensor) and o.requires_grad and g is not None]
        if pairs:
            backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *[a.grad if isinstance(a, Tensor) else None for a in inputs])


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = None,
               preserve_rng_state: bool = True, **kwargs: Any) -> Any:
    """Run ``function(*args, **kwargs)`` keeping only its inputs; recompute it in backward.

    When no tensor input requires grad, ``function`` runs as usual (so that the
    parameters it uses still get gradients).

    Args:
        function: the block to checkpoint; returns a tensor or a tuple of tensors.
        args: its positional arguments.
        use_reentrant: accepted as in PyTorch; both behave the same here.
        preserve_rng_state: rerun with the random state of the first run (dropout
            draws the same mask).
        kwargs: keyword arguments of ``function``.

    Returns:
        What ``function`` returns.

    Example:
        >>> x = gt.tensor([1.0, 2.0], requires_grad=True)
        >>> checkpoint(lambda a: a.sin() * a, x).sum().backward()
        >>> [round(v, 4) for v in x.grad.tolist()]
        [1.3818, 0.077]
    """
    fn = functools.partial(function, **kwargs) if kwargs else function
    if not is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad
                                        for a in args):
        return fn(*args)
    return _Checkpoint.apply(fn, preserve_rng_state, *args)


def checkpoint_sequential(functions: Any, segments: int, input: Tensor,
                          use_reentrant: bool | None = None, **kwargs: Any) -> Tensor:
    """Run a sequence of modules in ``segments`` chunks, checkpointing all but the last.

    Example:
        >>> m = gt.nn.Sequential(gt.nn.Tanh(), gt.nn.Tanh())
        >>> checkpoint_sequential(m, 2, gt.ones(2, requires_grad=True)).shape
        (2,)
    """
    fns: Sequence[Any] = list(functions.children()) if hasattr(functions, "children") else \
        list(functions)
    if segments < 1:
        raise ValueError(f"[checkpoint_sequential] segments must be positive, got {segments}")
    size = max(1, -(-len(fns) // segments))

    def run(start: int, end: int) -> Callable[[Tensor], Tensor]:
        def forward(x: Tensor) -> Tensor:
            for f in fns[start:end]:
                x = f(x)
            return x
        return forward

    starts = list(range(0, len(fns), size))
    for s in starts[:-1]:
        input = checkpoint(run(s, s + size), input, **kwargs)
    return run(starts[-1], len(fns))(input) if starts else input
