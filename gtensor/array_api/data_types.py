"""The array API's data types and data-type functions over gtensor's own dtypes.

The dtype objects are gtensor's (``xp.float32 is gtensor.float32``): the
namespace offers every dtype :mod:`gtensor.dtypes` has, and its inspection API
lists those the standard names. ``astype``, ``can_cast``, ``finfo``, ``iinfo``,
``isdtype`` and ``result_type`` follow the standard.

Type promotion: between two dtypes the standard's table and gtensor's
(:func:`gtensor.promote_types`) agree wherever the standard defines a result
(``uint8 + int8 -> int16``, ``float32 + float64 -> float64``; ``uint64`` with
a signed integer, which it leaves undefined, raises ``DTypeError``); across
kinds (``int32 + float32``, ``bool + int8``) the standard leaves the result to
the library and gtensor's rule applies. They differ in how a 0-d array counts:
the standard promotes it as any array (``int8 array + 0-d int64 -> int64``),
PyTorch lets it raise only the kind (``-> int8``). The namespace's functions
promote as the standard does (:func:`promoted`); Tensor operators
(``x + y``) keep PyTorch's rule. Python scalars follow the standard in both:
they take the array's dtype within its kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np

from .. import dtypes as _dtypes
from ..device import DeviceLike
from ..dtypes import ALL_DTYPES, as_dtype, dtype, promote_types
from ..errors import DTypeError, check
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor

STANDARD_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "float32", "float64", "complex64", "complex128")
"""The dtypes the 2024.12 standard defines (those gtensor has are listed by ``dtypes()``)."""


def by_name() -> dict[str, dtype]:
    """Every gtensor dtype by its name (``"float32"``...), as :mod:`gtensor.dtypes` lists them."""
    return {d.name: d for d in ALL_DTYPES}


KINDS: dict[str, Callable[[dtype], bool]] = {
    "bool": lambda d: d.category == 0,
    "signed integer": lambda d: d.category == 1 and d.is_signed,
    "unsigned integer": lambda d: d.category == 1 and not d.is_signed,
    "integral": lambda d: d.category == 1,
    "real floating": lambda d: d.category == 2,
    "complex floating": lambda d: d.category == 3,
    "numeric": lambda d: d.category > 0,
}
"""The standard's dtype kinds, as tests on a gtensor dtype."""


def _dtype_of(x: Any, op: str) -> dtype:
    if isinstance(x, TensorBase):
        return x.dtype
    check(isinstance(x, dtype), op, lambda: f"expected a dtype or an array, got {x!r}",
          TypeError)
    return x


def isdtype(dtype: dtype, kind: Any) -> bool:
    """True when ``dtype`` is ``kind``: a dtype, a kind name (``"integral"``...) or a tuple of them.

    Example:
        >>> isdtype(gt.int8, ("bool", "signed integer"))
        True
    """
    check(isinstance(dtype, _dtypes.dtype), "isdtype", lambda: "expected a dtype, got "
          f"{type(dtype).__name__}", TypeError)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        check(kind in KINDS, "isdtype", lambda: f"unknown dtype kind {kind!r}; expected one of "
              + ", ".join(KINDS), ValueError)
        return KINDS[kind](dtype)
    check(isinstance(kind, _dtypes.dtype), "isdtype", lambda: "kind must be a dtype, a kind "
          f"name or a tuple of them, got {type(kind).__name__}", TypeError)
    return dtype is kind


def result_type(*arrays_and_dtypes: Any) -> dtype:
    """The dtype of an op over these arrays, dtypes and Python scalars, by the standard's rules.

    Arrays of any rank (0-d ones too) and dtypes promote through the table;
    Python scalars then only raise the kind (a float scalar with integer
    arrays gives the default float dtype).

    Example:
        >>> result_type(gt.zeros(3, dtype=gt.int8), gt.tensor(1))
        gtensor.int64
    """
    found: list[dtype] = []
    scalars: list[Any] = []
    for a in arrays_and_dtypes:
        if isinstance(a, (TensorBase, _dtypes.dtype)):
            found.append(_dtype_of(a, "result_type"))
        else:
            check(isinstance(a, (bool, int, float, complex)), "result_type",
                  lambda: f"expected arrays, dtypes or Python scalars, got {type(a).__name__}",
                  TypeError)
            scalars.append(a)
    check(bool(found), "result_type", "needs at least one array or dtype", ValueError)
    out = found[0]
    for d in found[1:]:
        out = promote_types(out, d, "result_type")
    return _dtypes.result_type(out, *scalars) if scalars else out


def promoted(*operands: Any) -> list[Any]:
    """``operands`` with the tensors cast to the standard's common dtype where gtensor's differs.

    Only a 0-d tensor next to a tensor with dimensions can make the two rules
    differ (see the module doc); Python scalars pass through.

    Example:
        >>> a, b = promoted(gt.zeros(2, dtype=gt.int8), gt.tensor(300))
        >>> a.dtype, b.dtype
        (gtensor.int64, gtensor.int64)
    """
    tensors = [t for t in operands if isinstance(t, TensorBase)]
    if len({t.ndim == 0 for t in tensors}) < 2 or len({t.dtype for t in tensors}) < 2:
        return list(operands)
    want = result_type(*tensors)
    if want is _dtypes.result_type(*tensors):
        return list(operands)
    return [t.to(want) if isinstance(t, TensorBase) and t.dtype is not want else t
            for t in operands]


def can_cast(from_: Any, to: dtype, /) -> bool:
    """True when ``from_`` (a dtype or an array's) promotes to ``to``: a cast that loses no kind.

    False where the two have no common dtype (``uint64`` and a signed integer).

    Example:
        >>> can_cast(gt.int8, gt.int16), can_cast(gt.float32, gt.int64)
        (True, False)
    """
    src = _dtype_of(from_, "can_cast")
    check(isinstance(to, _dtypes.dtype), "can_cast", lambda: f"expected a dtype, got {to!r}",
          TypeError)
    try:
        return promote_types(src, to) is to
    except DTypeError:
        return False


def astype(x: Tensor, dtype: Any, /, *, copy: bool = True, device: DeviceLike | None = None
           ) -> Tensor:
    """``x`` converted to ``dtype`` and moved to ``device``.

    A new tensor, unless ``copy=False`` and nothing changes (then ``x`` itself).

    Example:
        >>> astype(gt.tensor([1.7, -1.7]), gt.int32).tolist()
        [1, -1]
    """
    check(isinstance(x, TensorBase), "astype", lambda: f"expected an array, got "
          f"{type(x).__name__}", TypeError)
    return x.to(device=x.device if device is None else device, dtype=as_dtype(dtype),
                copy=bool(copy))


@dataclass(frozen=True)
class finfo_object:  # noqa: N801 - the standard's name
    """Machine limits of a floating dtype: bits, eps, max, min, smallest_normal."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: dtype


@dataclass(frozen=True)
class iinfo_object:  # noqa: N801 - the standard's name
    """Machine limits of an integer dtype (``bits``, ``max``, ``min``)."""

    bits: int
    max: int
    min: int
    dtype: dtype


def finfo(type: Any, /) -> finfo_object:  # noqa: A002 - the standard's name
    """Machine limits of a floating dtype (or of an array's dtype); a complex dtype's are those
    of its parts (``finfo(complex64).dtype`` is float32), as the standard says.

    Example:
        >>> finfo(gt.float32).bits
        32
    """
    d = _dtype_of(type, "finfo")
    check(d.category >= 2, "finfo", lambda: f"expected a floating dtype, got {d.name}",
          TypeError)
    d = d.real_dtype
    info = ml_dtypes.finfo(d.numpy)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), d)


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002 - the standard's name
    """Machine limits of an integer dtype (or of an array's dtype).

    Example:
        >>> iinfo(gt.int8).min
        -128
    """
    d = _dtype_of(type, "iinfo")
    check(d.category == 1, "iinfo", lambda: f"expected an integer dtype, got {d.name}",
          TypeError)
    info = np.iinfo(d.numpy)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), d)
