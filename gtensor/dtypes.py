"""Data types and their type-promotion rules.

Promotion table (``promote_types``), by category bool < integer < floating < complex:

* different categories: the higher category's dtype wins
  (``int64 + float16 -> float16``, ``bool + int8 -> int8``);
* two integers: the smallest signed or unsigned type that holds both
  (``uint8 + int8 -> int16``, ``uint8 + uint16 -> uint16``,
  ``uint32 + int32 -> int64``), the array API standard's table, of which
  PyTorch's is the part without uint16/uint32/uint64; ``uint64`` with a
  signed integer has no such type and raises :class:`DTypeError`;
* two floats: the wider one; ``bfloat16`` and ``float16`` (same width, different
  formats) promote to ``float32``;
* a complex dtype with a float: the complex dtype whose parts hold both
  (``complex64 + float64 -> complex128``, ``complex64 + float16 -> complex64``);
  two complex dtypes: the wider one.

``result_type`` adds PyTorch's rules for operands of different kinds: tensors
with at least one dimension decide the dtype; zero-dim tensors and then Python
scalars only raise the *category* (a Python float with an integer tensor gives
the default float dtype; a Python int with a ``uint8`` tensor stays ``uint8``;
a Python complex with a real tensor gives the default complex dtype, or the
complex dtype whose parts have the tensor's float dtype).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from .errors import DTypeError

_NUMPY = {"bfloat16": np.dtype(ml_dtypes.bfloat16)}


class dtype:  # noqa: N801 - PyTorch's spelling
    """A gtensor element type.

    Example:
        >>> float32.itemsize, float32.is_floating_point
        (4, True)
    """

    __slots__ = ("name", "numpy", "itemsize", "category", "is_signed", "is_half", "kernel",
                 "compute")

    def __init__(self, name: str, category: int) -> None:
        self.name = name
        self.numpy = _NUMPY.get(name) or np.dtype(name)
        self.itemsize = self.numpy.itemsize
        self.category = category  # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_signed = name != "bool" and not name.startswith("uint")
        self.is_half = name in ("float16", "bfloat16")
        # kernels see a half type's buffers as its bits (uint16) and compute in float32
        self.kernel = np.dtype(np.uint16) if self.is_half else self.numpy
        self.compute = np.dtype(np.float32) if self.is_half else self.numpy

    @property
    def is_floating_point(self) -> bool:
        """True for bfloat16, float16, float32 and float64."""
        return self.category == 2

    @property
    def is_complex(self) -> bool:
        """True for complex64 and complex128."""
        return self.category == 3

    @property
    def is_inexact(self) -> bool:
        """True for floating and complex dtypes: the ones that carry gradients."""
        return self.category >= 2

    @property
    def real_dtype(self) -> dtype:
        """The dtype of a complex dtype's parts (``complex64 -> float32``); else the dtype."""
        if self.category != 3:
            return self
        return float32 if self is complex64 else float64

    def __repr__(self) -> str:
        return f"gtensor.{self.name}"

    def __reduce__(self) -> str:
        return self.name


bool_ = dtype("bool", 0)
uint8 = dtype("uint8", 1)
uint16 = dtype("uint16", 1)
uint32 = dtype("uint32", 1)
uint64 = dtype("uint64", 1)
int8 = dtype("int8", 1)
int16 = dtype("int16", 1)
int32 = dtype("int32", 1)
int64 = dtype("int64", 1)
float16 = dtype("float16", 2)
bfloat16 = dtype("bfloat16", 2)
float32 = dtype("float32", 2)
float64 = dtype("float64", 2)
complex64 = dtype("complex64", 3)
complex128 = dtype("complex128", 3)

ALL_DTYPES = (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16, bfloat16,
              float32, float64, complex64, complex128)
COMPLEX_DTYPES = (complex64, complex128)
HALF_DTYPES = (float16, bfloat16)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_ALIASES = {"float": float32, "double": float64, "half": float16, "int": int32, "long": int64,
            "short": int16, "bool_": bool_, "cfloat": complex64, "cdouble": complex128}

_default_dtype = float32


def as_dtype(spec: Any) -> dtype:
    """Convert a gtensor dtype, a NumPy dtype, a name or a Python type into a ``dtype``.

    Example:
        >>> as_dtype("float64") is float64
        True
    """
    if isinstance(spec, dtype):
        return spec
    if spec is float:
        return float64
    if spec is int:
        return int64
    if spec is bool:
        return bool_
    if spec is complex:
        return complex128
    if isinstance(spec, str) and spec in _ALIASES:
        return _ALIASES[spec]
    try:
        name = np.dtype(spec).name
    except TypeError:
        raise TypeError(f"[dtype] cannot interpret {spec!r} as a gtensor dtype") from None
    if name not in _BY_NAME:
        raise TypeError(
            f"[dtype] {name} is not supported; gtensor has "
            + ", ".join(d.name for d in ALL_DTYPES)
        )
    return _BY_NAME[name]


def get_default_dtype() -> dtype:
    """Return the dtype of floating tensors made from Python floats (float32 at start)."""
    return _default_dtype


def default_complex_dtype() -> dtype:
    """The dtype of tensors made from Python complex numbers: complex128 when the default
    float dtype is float64, else complex64 (PyTorch's rule).

    Example:
        >>> default_complex_dtype()
        gtensor.complex64
    """
    return complex128 if _default_dtype is float64 else complex64


def complex_of(d: dtype) -> dtype:
    """The complex dtype holding ``d``'s values: complex128 for float64, else complex64.

    Example:
        >>> complex_of(float64), complex_of(float16)
        (gtensor.complex128, gtensor.complex64)
    """
    if d.category == 3:
        return d
    return complex128 if d is float64 else complex64


def set_default_dtype(d: Any) -> None:
    """Set the default floating dtype.

    Args:
        d: ``float16``, ``bfloat16``, ``float32`` or ``float64``.

    Example:
        >>> set_default_dtype(float64); set_default_dtype(float32)
    """
    global _default_dtype
    d = as_dtype(d)
    if not d.is_floating_point:
        raise TypeError(f"[set_default_dtype] only floating dtypes can be default, got {d.name}")
    _default_dtype = d


_INT_ORDER = (int8, int16, int32, int64)


def promote_types(a: Any, b: Any, op: str = "promote_types") -> dtype:
    """Return the smallest dtype to which both ``a`` and ``b`` convert (see module doc).

    Args:
        a, b: dtypes, or anything :func:`as_dtype` reads.
        op: the op named in the error for ``uint64`` with a signed integer.

    Raises:
        DTypeError: for ``uint64`` with a signed integer (no dtype holds both).

    Example:
        >>> promote_types(uint8, int8)
        gtensor.int16
    """
    a, b = as_dtype(a), as_dtype(b)
    if a is b:
        return a
    if a.category == 3 or b.category == 3:
        if a.category == b.category:
            return a if a.itemsize >= b.itemsize else b
        cplx, other = (a, b) if a.category == 3 else (b, a)
        return complex128 if cplx is complex128 or other is float64 else complex64
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == 2:
        if a.itemsize == b.itemsize:  # float16 and bfloat16
            return float32
        return a if a.itemsize >= b.itemsize else b
    if a.is_signed == b.is_signed:
        return a if a.itemsize >= b.itemsize else b
    unsigned, signed = (a, b) if not a.is_signed else (b, a)
    need = max(signed.itemsize, unsigned.itemsize * 2)
    for cand in _INT_ORDER:
        if cand.itemsize >= need:
            return cand
    raise DTypeError(f"[{op}] no integer dtype holds both {unsigned.name} and {signed.name}; "
                     "cast one of them first")


def _scalar_dtype(value: Any) -> dtype:
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    if isinstance(value, (float, np.floating)):
        return get_default_dtype()
    if isinstance(value, (complex, np.complexfloating)):
        return default_complex_dtype()
    raise TypeError(f"[result_type] unsupported operand type {type(value).__name__}")


def result_type(*operands: Any, op: str = "result_type") -> dtype:
    """Return the result dtype of an op over tensors, dtypes and Python scalars.

    Dimensioned tensors (and plain dtypes) rank first, then zero-dim tensors,
    then Python scalars; a lower rank changes the result only when its
    category is higher. ``op`` is named in a promotion error.

    Example:
        >>> result_type(int32, 2.5)
        gtensor.float32
    """
    tiers: list[dtype | None] = [None, None, None]
    for x in operands:
        if isinstance(x, dtype):
            tier, d = 0, x
        elif hasattr(x, "dtype") and hasattr(x, "ndim") and isinstance(x.dtype, dtype):
            tier, d = (0 if x.ndim > 0 else 1), x.dtype
        else:
            tier, d = 2, _scalar_dtype(x)
        tiers[tier] = d if tiers[tier] is None else promote_types(tiers[tier], d, op)
    result: dtype | None = None
    for d in tiers:
        if d is None:
            continue
        if result is None:
            result = d
        elif d.category > result.category:
            # a complex number or 0-d tensor keeps a float tensor's precision
            result = complex_of(result) if d.category == 3 and result.category == 2 else d
    if result is None:
        raise TypeError("[result_type] needs at least one operand")
    return result


class finfo:  # noqa: N801 - PyTorch's spelling
    """Machine limits of a floating dtype, as ``torch.finfo``.

    Args:
        type: a floating dtype (default: the default dtype).

    Example:
        >>> finfo(bfloat16).eps, finfo(float16).max
        (0.0078125, 65504.0)
    """

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type: Any = None) -> None:  # noqa: A002 - PyTorch's name
        d = get_default_dtype() if type is None else as_dtype(type)
        if d.category < 2:
            raise TypeError(f"[finfo] expected a floating dtype, got {d.name}")
        d = d.real_dtype
        info = ml_dtypes.finfo(d.numpy)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = d.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:  # noqa: N801 - PyTorch's spelling
    """Machine limits of an integer (or bool) dtype, as ``torch.iinfo``.

    Example:
        >>> iinfo(int8).min, iinfo(uint8).max
        (-128, 255)
    """

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type: Any) -> None:  # noqa: A002 - PyTorch's name
        d = as_dtype(type)
        if d.category >= 2:
            raise TypeError(f"[iinfo] expected an integer dtype, got {d.name}")
        info = np.iinfo(np.uint8 if d is bool_ else d.numpy)
        self.bits = 8 * d.itemsize
        self.max = 1 if d is bool_ else int(info.max)
        self.min = 0 if d is bool_ else int(info.min)
        self.dtype = d.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"
