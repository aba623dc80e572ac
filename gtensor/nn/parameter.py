"""Parameter: a leaf tensor that a :class:`~gtensor.nn.Module` registers as trainable.

A ``Parameter`` is a :class:`~gtensor.Tensor` subclass that shares the
storage of the tensor it wraps. Moving a module (``module.to("cuda")``) keeps
every ``Parameter`` object and swaps its data in place with
:func:`replace_data_`, so optimizers built earlier still hold the live
parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..graph.grad_mode import no_grad
from ..ops.creation import empty
from ..tensor import Tensor


def _share(t: Tensor, data: Any, op: str) -> None:
    """Make the new tensor ``t`` a view of all of ``data``'s storage."""
    if not isinstance(data, Tensor):
        raise TypeError(f"[{op}] expected a Tensor, got {type(data).__name__}")
    Tensor.__init__(t, data._storage, data._shape, data._strides, data._offset, data._dtype)


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
        _share(self, data, "Parameter")
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


class Buffer(Tensor):
    """A tensor marked to become a buffer when assigned to a module attribute.

    Shares the storage of the tensor it wraps (as :class:`Parameter` does) and keeps
    its ``requires_grad``.

    Args:
        data: the values (an empty float tensor when None).
        persistent: whether the module's :meth:`~gtensor.nn.Module.state_dict` holds it.

    Example:
        >>> import gtensor as gt
        >>> m = gt.nn.Module()
        >>> m.steps = gt.nn.Buffer(gt.zeros(()), persistent=False)
        >>> [name for name, _ in m.named_buffers()], list(m.state_dict())
        (['steps'], [])
    """

    def __init__(self, data: Tensor | None = None, *, persistent: bool = True) -> None:
        if data is None:
            data = empty(0)
        _share(self, data, "Buffer")
        if data.requires_grad:
            self.requires_grad_(True)
        self.persistent = persistent


class UninitializedTensorMixin:
    """What uninitialized parameters and buffers share: no data until :meth:`materialize`."""

    cls_to_become: type[Tensor] = Tensor

    def materialize(self, shape: Sequence[int], device: Any = None, dtype: Any = None) -> None:
        """Give the tensor uninitialized data of ``shape`` and make it its final class.

        Args:
            shape: the new shape.
            device: where (default: the device it was created for).
            dtype: its dtype (default: the dtype it was created with).
        """
        t: Tensor = self  # type: ignore[assignment]
        dev = t.device if device is None else device
        dt = t.dtype if dtype is None else dtype
        with no_grad():
            replace_data_(t, empty(*tuple(int(v) for v in shape), device=dev, dtype=dt))
        self.__class__ = self.cls_to_become  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (of a lazy module); becomes a
    :class:`Parameter` at :meth:`materialize`.

    Example:
        >>> p = gt.nn.UninitializedParameter()
        >>> p.materialize((2, 3))
        >>> type(p).__name__, p.shape
        ('Parameter', (2, 3))
    """

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(empty(0, device=device, dtype=dtype), requires_grad)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (of a lazy module); becomes a plain tensor at
    :meth:`materialize`.

    Example:
        >>> b = gt.nn.UninitializedBuffer()
        >>> b.materialize((4,))
        >>> b.shape
        (4,)
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        _share(self, empty(0, device=device, dtype=dtype), "UninitializedBuffer")
        if requires_grad:
            self.requires_grad_(True)


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
        >>> p = Parameter(gt.ones(2))
        >>> p.sum().backward()
        >>> zero_grads([p]); p.grad is None
        True
    """
    for p in params:
        if set_to_none:
            p.grad = None  # not read first: gt.compile would guard the value read
        elif p.grad is not None:
            with no_grad():
                p.grad.fill_(0)
