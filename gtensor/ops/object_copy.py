"""``copy.deepcopy`` and ``pickle`` of tensors, as PyTorch's tensors support them.

A deep copy gives each storage one new storage on its device (tensors that
shared one before share the copy), keeps the class (a ``Parameter`` stays one),
``requires_grad``, a deep copy of ``.grad`` and the user's attributes; only
graph leaves can be deep-copied, as in PyTorch. A pickle holds each storage's
bytes once and each tensor's layout, class and ``requires_grad``; loading puts
the bytes back on the device they came from.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..dtypes import dtype
from ..errors import check
from ..storage import Storage
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor

# autograd state kept in a tensor's ``__dict__`` when set: never copied with it
_AUTOGRAD_FIELDS = frozenset(("_retains_grad", "_post_acc_hooks", "_backward_hooks",
                              "_grad_accumulator"))


def _rebuilt(cls: type, storage: Storage, shape: tuple[int, ...], strides: tuple[int, ...],
             offset: int, dt: dtype, requires_grad: bool, attributes: dict[str, Any]) -> Tensor:
    """A new leaf tensor of class ``cls`` over ``storage`` with this layout."""
    out = object.__new__(cls)
    TensorBase.__init__(out, storage, shape, strides, offset, dt)
    if requires_grad:
        out.requires_grad_(True)
    out.__dict__.update(attributes)
    return out


def _attributes(t: Tensor) -> dict[str, Any]:
    return {k: v for k, v in t.__dict__.items() if k not in _AUTOGRAD_FIELDS}


def deepcopy_tensor(t: Tensor, memo: dict[int, Any]) -> Tensor:
    """``copy.deepcopy(t)``: its data on a new storage of its device (shared within ``memo``).

    Example:
        >>> import copy, gtensor as gt
        >>> x = gt.ones(2, requires_grad=True)
        >>> y = copy.deepcopy(x)
        >>> y.requires_grad, y.data_ptr() != x.data_ptr()
        (True, True)
    """
    check(t.grad_fn is None, "deepcopy", "only tensors created explicitly by the user (graph "
          "leaves) support the deepcopy protocol; detach() first", RuntimeError)
    storage = copy.deepcopy(t._storage, memo)
    out = _rebuilt(type(t), storage, t._shape, t._strides, t._offset, t._dtype,
                   t._requires_grad, copy.deepcopy(_attributes(t), memo))
    if t._grad is not None:
        out.grad = copy.deepcopy(t._grad, memo)
    return out


def reduce_tensor(t: Tensor) -> tuple[Any, tuple[Any, ...]]:
    """What ``pickle`` stores for ``t``: its storage (pickled once), layout, class, flag.

    Example:
        >>> import pickle, gtensor as gt
        >>> pickle.loads(pickle.dumps(gt.arange(3))).tolist()
        [0, 1, 2]
    """
    return _rebuilt, (type(t), t._storage, t._shape, t._strides, t._offset, t._dtype,
                      t._requires_grad, _attributes(t))
