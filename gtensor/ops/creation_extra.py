"""More factories PyTorch has: ``logspace``, ``scalar_tensor``, ``frombuffer``, ``asarray``
(with ``copy=``), ``empty_permuted``, ``Tensor.new_empty_strided`` and ``unravel_index``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..device import DeviceLike, resolve
from ..dtypes import (
    as_dtype,
    complex128,
    default_complex_dtype,
    float64,
    get_default_dtype,
    int64,
)
from ..errors import DTypeError, ShapeError, check
from ..shape_rules import normalize_shape
from ..tensor_base import TensorBase, from_numpy
from . import elementwise as ew
from .creation import as_tensor, creation_args, empty, finish_creation, full, linspace
from .layout.strided import empty_strided

if TYPE_CHECKING:
    from ..tensor import Tensor


def logspace(start: float, end: float, steps: int, base: float = 10.0, *, dtype: Any = None,
             device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """``steps`` values ``base ** x`` for ``x`` evenly spaced from ``start`` to ``end``.

    Example:
        >>> gt.logspace(0, 2, 3).tolist()
        [1.0, 10.0, 100.0]
    """
    ends_complex = complex in (type(start), type(end))
    dt = as_dtype(dtype) if dtype is not None else (
        default_complex_dtype() if ends_complex else get_default_dtype())
    exponents = linspace(start, end, steps, dtype=complex128 if ends_complex else float64,
                         device=device)
    out = ew.pow(float(base), exponents)
    if not (dt.is_floating_point or dt.is_complex):
        out = out.trunc()  # type: ignore[attr-defined]
    return finish_creation(out.to(dt), requires_grad)  # type: ignore[attr-defined]


def scalar_tensor(s: Any, *, dtype: Any = None, device: DeviceLike | None = None,
                  requires_grad: bool = False) -> Tensor:
    """A 0-dim tensor holding ``s`` (in the default float dtype unless ``dtype`` is given).

    Example:
        >>> gt.scalar_tensor(3).item()
        3.0
    """
    return full((), s, dtype=get_default_dtype() if dtype is None else dtype, device=device,
                requires_grad=requires_grad)


def frombuffer(buffer: Any, *, dtype: Any, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    """A 1-D cpu tensor over the memory of a buffer-protocol object (no copy).

    A read-only buffer (``bytes``) gives a read-only tensor (see :func:`gtensor.from_numpy`).

    Example:
        >>> gt.frombuffer(bytearray(b"\\x01\\x02"), dtype=gt.uint8).tolist()
        [1, 2]
    """
    dt = as_dtype(dtype)
    size = memoryview(buffer).nbytes
    check(0 <= offset < size, "frombuffer", lambda: f"offset {offset} must be in [0, {size}) "
          "for a buffer of that many bytes", ValueError)
    check(count != 0 and (count > 0 or (size - offset) % dt.itemsize == 0), "frombuffer",
          lambda: f"buffer of {size - offset} bytes after offset is not a whole number of "
          f"{dt.name} elements" if count < 0 else "count must be positive or -1", ValueError)
    check(count < 0 or offset + count * dt.itemsize <= size, "frombuffer",
          lambda: f"{count} {dt.name} elements from offset {offset} exceed the buffer's "
          f"{size} bytes", ValueError)
    array = np.frombuffer(buffer, dtype=dt.numpy, count=count, offset=offset)
    return finish_creation(from_numpy(array), requires_grad)


def asarray(obj: Any, *, dtype: Any = None, device: DeviceLike | None = None,
            copy: bool | None = None, requires_grad: bool = False) -> Tensor:
    """Convert ``obj`` to a tensor, sharing its memory unless a copy is needed or asked for.

    Args:
        obj: a tensor, a NumPy array, a DLPack or CUDA-array-interface object, a
            sequence or a scalar.
        copy: True always copies; False refuses to copy (``ValueError``); None
            copies only when needed.

    Example:
        >>> import numpy as np
        >>> a = np.zeros(2, np.float32); t = gt.asarray(a); a[0] = 1; t.tolist()
        [1.0, 0.0]
    """
    shares = isinstance(obj, (TensorBase, np.ndarray)) or hasattr(
        obj, "__cuda_array_interface__") or hasattr(obj, "__dlpack__")
    check(copy is not False or shares, "asarray", lambda: f"copy=False, but a "
          f"{type(obj).__name__} must be copied to make a tensor", ValueError)
    if not shares and device is None and not isinstance(obj, TensorBase):
        device = resolve(None, "asarray")
    out = as_tensor(obj, dtype=dtype, device=device)
    if shares:
        source = obj if isinstance(obj, TensorBase) else as_tensor(obj)
        copied = out._storage is not source._storage
        check(copy is not False or not copied, "asarray", lambda: "copy=False, but "
              f"converting to {out.dtype.name} on {out.device} needs a copy", ValueError)
        if copy and not copied:
            out = out.clone()  # type: ignore[attr-defined]
    if requires_grad:
        out = out.detach()
        out.requires_grad_()
    return out


def empty_permuted(size: Sequence[int], physical_layout: Sequence[int], *, dtype: Any = None,
                   device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor of ``size`` whose dims lie in memory in ``physical_layout``'s
    order (outermost first): ``empty_permuted((2, 3), (1, 0))`` is column-major.

    Example:
        >>> gt.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
        (12, 1, 3)
    """
    dims, dt, dev = creation_args((tuple(size),), dtype, device, "empty_permuted")
    order = [int(p) for p in physical_layout]
    check(sorted(order) == list(range(len(dims))), "empty_permuted",
          lambda: f"physical_layout {tuple(order)} is not a permutation of the {len(dims)} dims",
          ShapeError)
    physical = empty(*[dims[p] for p in order], dtype=dt, device=dev)
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return finish_creation(physical.permute(*inverse), requires_grad)  # type: ignore[attr-defined]


def new_empty_strided(self: Tensor, size: Sequence[int], stride: Sequence[int], *,
                      dtype: Any = None, device: DeviceLike | None = None,
                      requires_grad: bool = False) -> Tensor:
    """:func:`gtensor.empty_strided` with ``self``'s dtype and device by default.

    Example:
        >>> gt.zeros(1).new_empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype,
                         device=self.device if device is None else device,
                         requires_grad=requires_grad)


def unravel_index(indices: Any, shape: Any) -> tuple[Tensor, ...]:
    """The coordinates in a tensor of ``shape`` of each flat (C-order) index in ``indices``.

    Indices wrap around the tensor's size as in PyTorch (``-1`` is the last element).

    Example:
        >>> [c.tolist() for c in gt.unravel_index(gt.tensor([4, 5]), (2, 3))]
        [[1, 1], [1, 2]]
    """
    idx = indices if isinstance(indices, TensorBase) else as_tensor(indices)
    check(not (idx.dtype.is_floating_point or idx.dtype.is_complex or idx.dtype.name == "bool"),
          "unravel_index", lambda: f"expected an integer tensor of indices, got {idx.dtype.name}",
          DTypeError)
    dims = normalize_shape((shape,) if isinstance(shape, (tuple, list)) else (shape,),
                           "unravel_index")
    check(all(d > 0 for d in dims) or not dims, "unravel_index",
          lambda: f"shape {dims} must have positive sizes", ValueError)
    flat = idx.to(int64)
    coords = []
    step = math.prod(dims)
    for d in dims:
        step //= d
        coords.append(ew.remainder(ew.floor_divide(flat, step), d))
    return tuple(coords)
