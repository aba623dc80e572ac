"""``normal`` (PyTorch's four overloads) and ``randint_like``, drawn with the counter-based
generator of :mod:`gtensor.ops.random`.

As in PyTorch, ``normal``'s result is not differentiable in ``mean`` and ``std``: their
gradient is zero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..device import DeviceLike, resolve
from ..dtypes import as_dtype, result_type
from ..errors import DTypeError, check
from ..generator import Generator
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from .creation import creation_args, finish_creation, zeros
from .random import normal_, random_

if TYPE_CHECKING:
    from ..tensor import Tensor


def _zero_vjp(ctx: Node, g: Tensor) -> tuple[Any, ...]:
    return tuple(zeros(shape, dtype=g.dtype, device=g.device) if shape is not None else None
                 for shape in ctx.shapes)


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *,
           generator: Generator | None = None, dtype: Any = None,
           device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """Values drawn from normal distributions with the given means and standard deviations.

    ``mean`` and ``std`` may be tensors (broadcast together; the result has their shape and
    float dtype) or numbers; with two numbers, ``size`` gives the shape.

    Example:
        >>> gt.normal(gt.zeros(3), 1.0).shape
        (3,)
        >>> gt.normal(2.0, 0.5, (2, 2)).shape
        (2, 2)
    """
    tensors = [t for t in (mean, std) if isinstance(t, TensorBase)]
    if not tensors:
        check(size is not None, "normal", "size is required when mean and std are numbers",
              TypeError)
        dims, dt, dev = creation_args((size,), dtype, device, "normal")
        check(std >= 0, "normal", lambda: f"std must be >= 0, got {std}", ValueError)
        out = normal_(TensorBase.empty(dims, dt, dev), float(mean), float(std),
                      generator=generator)
        return finish_creation(out, requires_grad)
    check(size is None, "normal", "size is only accepted when mean and std are numbers",
          TypeError)
    dev = tensors[0].device
    dt = result_type(*tensors)
    check(dt.is_floating_point or dt.is_complex, "normal", lambda: "expected floating point "
          f"mean and std, got {dt.name}", DTypeError)
    shape = broadcast_shapes(*(t.shape for t in tensors), op="normal")
    if isinstance(std, TensorBase):
        negative = bool((std < 0).any())  # type: ignore[attr-defined]
        check(not negative, "normal", "std must be >= 0", ValueError)
    else:
        check(std >= 0, "normal", lambda: f"std must be >= 0, got {std}", ValueError)
    with no_grad():
        noise = normal_(TensorBase.empty(shape, dt, dev), generator=generator)
        out = noise * std + mean
    record("normal", out, (mean, std), _zero_vjp,
           shapes=tuple(t.shape if isinstance(t, TensorBase) else None for t in (mean, std)))
    return out


def randint_like(input: Tensor, low: int = 0, high: int | None = None, *,
                 dtype: Any = None, device: DeviceLike | None = None,
                 generator: Generator | None = None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` shaped like ``input``
    (``randint_like(input, high)`` too), in ``input``'s dtype and device by default.

    Example:
        >>> gt.randint_like(gt.zeros(2, 3), 5).shape
        (2, 3)
    """
    if high is None:
        low, high = 0, low
    dt = input.dtype if dtype is None else as_dtype(dtype)
    dev = input.device if device is None else resolve(device, "randint_like")
    out = TensorBase.empty(tuple(input.shape), dt, dev)
    return random_(out, low, high, generator=generator)
