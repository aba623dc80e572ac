"""Tensor: the public tensor class, the core plus the whole op API declared statically.

:class:`Tensor` is :class:`~gtensor.tensor_base.TensorBase` (storage, layout,
dtype, device, autograd fields) with one mixin per op family from
:mod:`gtensor.mixins`, and the conversions to Python and NumPy values that
need ops. This module registers it as the class of every tensor the core
creates.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .errors import GTensorError, check
from .mixins import (
    ArithmeticMethods,
    AutogradMethods,
    ComplexMethods,
    CopyMethods,
    IndexingMethods,
    MovementMethods,
    RandomMethods,
    ReductionMethods,
    UnaryMethods,
)
from .printing import tensor_repr
from .storage import host_view
from .tensor_base import TensorBase, register_tensor_class
from .trace_state import state as _tracing


class Tensor(TensorBase, AutogradMethods, CopyMethods, ArithmeticMethods, UnaryMethods,
             ReductionMethods, MovementMethods, IndexingMethods, RandomMethods, ComplexMethods):
    """An n-dimensional array on a device, with autograd metadata.

    Make tensors with :func:`gtensor.tensor`, :func:`gtensor.zeros` and friends.

    Example:
        >>> import gtensor as gt
        >>> x = gt.tensor([[1.0, 2.0]])
        >>> x.shape, x.dtype, x.device
        ((1, 2), gtensor.float32, device(type='cpu'))
    """

    __slots__ = ()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """Return a NumPy array sharing memory with this CPU tensor.

        Args:
            force: copy a CUDA tensor to the host (and detach) instead of raising.
        """
        if _tracing.trace is not None:
            _tracing.trace.refuse(self)
        if self.is_cuda:
            check(force, "numpy", lambda: f"can't convert a {self.device} tensor to NumPy; "
                  "use .cpu() first (or numpy(force=True))", TypeError)
            return self.detach().cpu().numpy()
        check(not self._requires_grad or force, "numpy",
              "can't call numpy() on a tensor that requires grad; use .detach().numpy()",
              GTensorError)
        return host_view(self._storage, self._dtype.numpy, self._shape, self._strides,
                         self._offset)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        arr = self.detach().cpu().numpy()
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        return arr.copy() if copy else arr

    def item(self) -> bool | int | float:
        """Return the value of a one-element tensor as a Python number."""
        check(self.numel() == 1, "item", lambda: "a Tensor with "
              f"{self.numel()} elements cannot be converted to Scalar", GTensorError)
        return self.detach().cpu().numpy().reshape(()).item()

    def tolist(self) -> Any:
        """Return the elements as (nested) Python lists."""
        return self.detach().cpu().numpy().tolist()

    def __iter__(self) -> Iterator[Tensor]:
        if not self._shape:
            raise TypeError("[iter] iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self) -> bool:
        check(self.numel() == 1, "bool", lambda: f"Boolean value of Tensor with {self.numel()} "
              "elements is ambiguous", GTensorError)
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        check(self._dtype.category < 2 and self.numel() == 1, "index",
              "only integer tensors of a single element can be converted to an index", TypeError)
        return int(self.item())

    def __repr__(self) -> str:
        return tensor_repr(self)


register_tensor_class(Tensor)
