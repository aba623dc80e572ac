"""Methods that copy, cast or allocate like ``self``: ``clone``, ``to``, ``float()``, ``new_zeros``.

Also the export protocols: DLPack, the array API namespace, ``format()``, and
``copy.deepcopy`` and ``pickle``.
``detach`` copies nothing: it is :meth:`TensorBase.detach`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..device import DeviceLike
from ..dtypes import (
    ALL_DTYPES,
    as_dtype,
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ..errors import check
from ..ops import copy, creation, creation_extra, interop, object_copy, queries

if TYPE_CHECKING:
    from ..tensor import Tensor

_TYPE_NAMES = {float32: "Float", float64: "Double", float16: "Half", bfloat16: "BFloat16",
               int64: "Long", int32: "Int", int16: "Short", int8: "Char", uint8: "Byte",
               uint16: "UInt16", uint32: "UInt32", uint64: "UInt64", bool_: "Bool",
               complex64: "ComplexFloat", complex128: "ComplexDouble"}
_BY_TYPE_NAME = {f"{_TYPE_NAMES[d]}Tensor": d for d in ALL_DTYPES}


def tensor_type_name(t: Tensor) -> str:
    """PyTorch's legacy type string with gtensor's prefix: ``'gtensor.cuda.FloatTensor'``.

    Example:
        >>> import gtensor as gt
        >>> tensor_type_name(gt.zeros(2, dtype=gt.int64))
        'gtensor.LongTensor'
    """
    where = "cuda." if t.is_cuda else ""
    return f"gtensor.{where}{_TYPE_NAMES[t.dtype]}Tensor"


def parse_type_name(name: str) -> tuple[dtype, str]:
    """Split ``'gtensor.cuda.FloatTensor'`` (or ``'torch.…'``) into (dtype, device type).

    Raises:
        ValueError: ``[type] invalid type: 'float64'`` for any other string.

    Example:
        >>> parse_type_name("torch.cuda.LongTensor")
        (gtensor.int64, 'cuda')
    """
    prefix, _, cls = name.rpartition(".")
    kind = {"gtensor": "cpu", "torch": "cpu", "gtensor.cuda": "cuda", "torch.cuda": "cuda"}
    check(prefix in kind and cls in _BY_TYPE_NAME, "type", lambda: f"invalid type: {name!r}",
          ValueError)
    return _BY_TYPE_NAME[cls], kind[prefix]


def _cast(dt: dtype) -> Callable[[Tensor], Tensor]:
    """A cast method such as ``t.float()``: ``t.to(dt)``, ``t`` itself when already ``dt``."""
    def cast(self: Tensor) -> Tensor:
        return copy.to(self, dt)

    cast.__name__ = _TYPE_NAMES[dt].lower()  # Float -> float(), Long -> long()...
    cast.__qualname__ = f"CopyMethods.{cast.__name__}"
    cast.__doc__ = f"``self.to(gt.{dt.name})``."
    return cast


def _like(t: Tensor, dtype: Any, device: DeviceLike | None) -> dict[str, Any]:
    """``dtype=`` and ``device=`` for a new tensor: ``t``'s unless given."""
    return {"dtype": t.dtype if dtype is None else dtype,
            "device": t.device if device is None else device}


class CopyMethods:
    """Copies across dtypes and devices, casts, fresh tensors like ``self``, in-place fills."""

    __slots__ = ()

    copy_ = copy.copy_
    contiguous = copy.contiguous
    clone = copy.clone
    to = copy.to
    type_as = copy.type_as
    is_floating_point = copy.is_floating_point
    cpu = copy.cpu
    cuda = copy.cuda
    fill_ = creation.fill_
    zero_ = creation.zero_
    new_empty_strided = creation_extra.new_empty_strided
    is_signed = queries.is_signed
    is_nonzero = queries.is_nonzero
    is_same_size = queries.is_same_size
    is_cpu = property(queries.is_cpu)
    get_device = queries.get_device
    is_neg = queries.is_neg
    resolve_neg = queries.resolve_neg
    ndimension = queries.ndimension
    nelement = queries.nelement

    def new_empty(self, *size: Any, dtype: Any = None, device: DeviceLike | None = None,
                  requires_grad: bool = False) -> Tensor:
        """An uninitialised tensor of ``size`` with ``self``'s dtype and device unless given."""
        return creation.empty(*size, **_like(self, dtype, device), requires_grad=requires_grad)

    def new_zeros(self, *size: Any, dtype: Any = None, device: DeviceLike | None = None,
                  requires_grad: bool = False) -> Tensor:
        """Zeros of ``size`` with ``self``'s dtype and device unless given."""
        return creation.zeros(*size, **_like(self, dtype, device), requires_grad=requires_grad)

    def new_ones(self, *size: Any, dtype: Any = None, device: DeviceLike | None = None,
                 requires_grad: bool = False) -> Tensor:
        """Ones of ``size`` with ``self``'s dtype and device unless given."""
        return creation.ones(*size, **_like(self, dtype, device), requires_grad=requires_grad)

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None,
                 device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
        """``fill_value`` everywhere in ``size``, with ``self``'s dtype and device unless given."""
        return creation.full(size, fill_value, **_like(self, dtype, device),
                             requires_grad=requires_grad)

    def new_tensor(self, data: Any, *, dtype: Any = None, device: DeviceLike | None = None,
                   requires_grad: bool = False) -> Tensor:
        """A copy of ``data`` with ``self``'s dtype and device unless given (never shared)."""
        return creation.tensor(data, **_like(self, dtype, device), requires_grad=requires_grad)

    def __format__(self, format_spec: str) -> str:
        """Format a 0-d tensor as its Python number (``f"{loss:.3f}"``), as PyTorch does.

        Other tensors follow ``object.__format__``: ``str(t)`` for an empty
        spec, ``TypeError`` for any other.
        """
        if not self.shape:
            return format(self.item(), format_spec)
        return object.__format__(self, format_spec)

    def type(self, dtype: Any = None, non_blocking: bool = False) -> Any:
        """Return the type string (``'gtensor.FloatTensor'``) or, given a dtype or one, a cast.

        Args:
            dtype: a dtype, or a type string (``'gtensor.DoubleTensor'``,
                ``'gtensor.cuda.FloatTensor'``; ``'torch.…'`` spellings too),
                which also names the device type. None: return the string.
            non_blocking: accepted for PyTorch compatibility.

        Example:
            >>> import gtensor as gt
            >>> gt.ones(2).type(), gt.ones(2).type("gtensor.LongTensor").dtype
            ('gtensor.FloatTensor', gtensor.int64)
        """
        if dtype is None:
            return tensor_type_name(self)
        if not isinstance(dtype, str):
            return copy.to(self, as_dtype(dtype))
        dt, kind = parse_type_name(dtype)
        return copy.to(self, self.device if self.device.type == kind else kind, dt)

    float = _cast(float32)
    double = _cast(float64)
    half = _cast(float16)
    bfloat16 = _cast(bfloat16)
    int = _cast(int32)
    long = _cast(int64)
    short = _cast(int16)
    char = _cast(int8)
    byte = _cast(uint8)
    bool = _cast(bool_)
    cfloat = _cast(complex64)
    cdouble = _cast(complex128)

    __dlpack__ = interop.__dlpack__
    __dlpack_device__ = interop.__dlpack_device__
    __deepcopy__ = object_copy.deepcopy_tensor

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[Any, ...]]:
        """Pickle support: each storage's bytes once, the layout, class and ``requires_grad``."""
        return object_copy.reduce_tensor(self)

    def to_device(self, device: DeviceLike, /, *, stream: Any = None) -> Tensor:
        """This tensor on ``device`` (itself when already there): the array API's ``to(device)``.

        The copy is ordered on gtensor's current stream; ``stream`` is accepted
        for the standard's signature.
        """
        return copy.to(self, device)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        """The array API namespace of gtensor tensors: :mod:`gtensor.array_api` (2024.12).

        Raises:
            ValueError: for an ``api_version`` the namespace does not serve.

        Example:
            >>> import gtensor as gt
            >>> gt.ones(2).__array_namespace__().__name__
            'gtensor.array_api'
        """
        from .. import array_api  # the namespace sits above the Tensor class it serves

        array_api.check_version(api_version)
        return array_api
