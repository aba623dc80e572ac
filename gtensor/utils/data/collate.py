"""``default_collate``: a list of samples into one batch, by PyTorch's rules."""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from typing import Any

import numpy as np

from ...dtypes import float64
from ...ops.creation import as_tensor, tensor
from ...ops.layout.copies import stack
from ...tensor import Tensor

_UNSUPPORTED = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or " \
    "lists; found {}"


def _numpy(batch: Sequence[Any], elem: Any) -> Tensor:
    if elem.dtype.kind in "SUOV":
        raise TypeError(_UNSUPPORTED.format(elem.dtype))
    if isinstance(elem, np.ndarray) and elem.ndim:
        return stack([as_tensor(b) for b in batch])
    return as_tensor(np.asarray(batch))


def _sequence(batch: Sequence[Any], elem: Sequence[Any]) -> Any:
    size = len(elem)
    if any(len(sample) != size for sample in batch):
        raise RuntimeError("[default_collate] each element in list of batch should be of equal "
                           "size")
    columns = [default_collate(col) for col in zip(*batch, strict=True)]
    if isinstance(elem, tuple):
        return columns  # PyTorch's choice: a list, whatever the tuple type
    if isinstance(elem, MutableSequence):
        out = copy.copy(elem)
        out[:] = columns
        return out
    try:
        return type(elem)(columns)  # type: ignore[call-arg]
    except TypeError:
        return columns


def default_collate(batch: Sequence[Any]) -> Any:
    """Stack a list of samples into a batch, recursing into dicts, tuples and lists.

    As ``torch.utils.data.default_collate``: tensors are stacked along a new
    first dim; NumPy arrays and scalars become tensors and are stacked;
    Python floats give a float64 tensor, ints an int64 one, bools a bool one;
    strings and bytes stay as given; a dict gives a dict of batches; a
    namedtuple a namedtuple of batches; a tuple or list of fields a list of
    batches (samples must have equal lengths).

    Raises:
        TypeError: a sample type it cannot batch (NumPy strings or objects too).
        RuntimeError: sequence samples of different lengths.

    Example:
        >>> import gtensor as gt
        >>> xb, yb = default_collate([(gt.zeros(2), 1), (gt.ones(2), 0)])
        >>> xb.shape, yb.tolist()
        ((2, 2), [1, 0])
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(list(batch))
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, (np.ndarray, np.generic)):
        return _numpy(batch, elem)
    if isinstance(elem, float):
        return tensor(list(batch), dtype=float64)
    if isinstance(elem, int):
        return tensor(list(batch))
    if isinstance(elem, Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, MutableMapping):
            out = copy.copy(elem)
            out.update(fields)
            return out
        try:
            return type(elem)(fields)  # type: ignore[call-arg]
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(col) for col in zip(*batch, strict=True)))
    if isinstance(elem, Sequence):
        return _sequence(batch, elem)
    raise TypeError(_UNSUPPORTED.format(type(elem)))
