"""Parameter: a leaf tensor that a :class:`~gtensor.nn.Module` registers as trainable.

A ``Parameter`` is a :class:`~gtensor.Tensor` subclass that shares the
storage of the tensor it wraps. Moving a module (``module.to("cuda")``) keeps
every ``Parameter`` object and swaps its data in place with
:func:`replace_data_`, so optimizers built earlier still hold the live
parameters.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..graph.grad_mode import no_grad
from ..ops.creation import empty
from ..tensor import Tensor


class Parameter(Tensor):
    """A tensor that is a module parameter (``requires_grad=True`` by default).

    Args:
        data: the initial values (shared, not copied); an empty float tensor when None.
        requires_grad: whether the parameter is trained.

    Example:
        >>> import gtensor as gt
        >>> w = gt.nn.Parameter(gt.zeros(2, 3))
        >>> w.requires_grad, w.shape
        (True, (2, 3))
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"[Parameter] expected a Tensor, got {type(data).__name__}")
        Tensor.__init__(self, data._storage, data._shape, data._strides, data._offset,
                        data._dtype)
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


def replace_data_(t: Tensor, new: Tensor) -> Tensor:
    """Make ``t`` hold ``new``'s data in place (same Python object, new storage and metadata).

    Swaps the storage, shape, strides, offset and dtype fields of ``t`` for
    those of ``new``; autograd fields (``requires_grad``, hooks, the gradient
    accumulator) are kept, and ``t`` stops being a view of anything. Call it
    under :func:`gtensor.no_grad` on leaves only.

    Args:
        t: the tensor to update (typically a :class:`Parameter` or a buffer).
        new: the tensor whose data ``t`` takes (it keeps sharing that storage).

    Returns:
        ``t``.

    Example:
        >>> import gtensor as gt
        >>> p = gt.nn.Parameter(gt.zeros(2))
        >>> _ = replace_data_(p, gt.ones(2, dtype=gt.float64))
        >>> p.dtype
        gtensor.float64
    """
    if t.grad_fn is not None:
        raise RuntimeError("[replace_data_] only leaf tensors can have their data replaced")
    t._set_data(new)
    return t


def zero_grads(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Reset the ``.grad`` of each tensor: to None, or to zeros in place.

    Example:
        >>> zero_grads(model.parameters())  # doctest: +SKIP
    """
    for p in params:
        if set_to_none:
            p.grad = None  # not read first: gt.compile would guard the value read
        elif p.grad is not None:
            with no_grad():
                p.grad.fill_(0)
