"""The array API's inspection API: ``__array_namespace_info__()`` and what it reports.

Devices are gtensor's (``cpu`` and each ``cuda:N`` this process has, the
simulated one included); the dtypes are those of :mod:`gtensor.dtypes` that
the standard names, the same on every device.
"""

from __future__ import annotations

from typing import Any

from ..device import CPU, cuda_device_count, cuda_is_available, device, resolve
from ..dtypes import dtype, get_default_dtype, int64
from ..errors import check
from .data_types import KINDS, STANDARD_NAMES, by_name


class Info:
    """What this namespace supports: capabilities, devices, default and available dtypes."""

    __slots__ = ()

    def capabilities(self) -> dict[str, Any]:
        """Boolean-mask indexing and data-dependent output shapes; no fixed limit on axes (None).

        Example:
            >>> Info().capabilities()["boolean indexing"]
            True
        """
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}

    def default_device(self) -> device:
        """Where arrays go when no ``device=`` is given: cpu."""
        return CPU

    def devices(self) -> list[device]:
        """Every device arrays can live on: cpu, then each CUDA device.

        Example:
            >>> Info().devices()[0]
            device(type='cpu')
        """
        count = cuda_device_count() if cuda_is_available() else 0
        return [CPU, *(device("cuda", i) for i in range(count))]

    def default_dtypes(self, *, device: Any = None) -> dict[str, dtype]:
        """The dtypes of arrays made from Python floats and ints, and of index arrays.

        ``"complex floating"`` is listed once gtensor has the complex dtype
        that pairs with the default float dtype.

        Example:
            >>> Info().default_dtypes()["integral"]
            gtensor.int64
        """
        self._check_device(device)
        found = {"real floating": get_default_dtype(), "integral": int64, "indexing": int64}
        complex_name = {"float32": "complex64", "float64": "complex128"}.get(
            get_default_dtype().name)
        if complex_name in by_name():
            found["complex floating"] = by_name()[complex_name]
        return found

    def dtypes(self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
               ) -> dict[str, dtype]:
        """The standard's dtypes gtensor has, by name, optionally of one ``kind`` (or several).

        Example:
            >>> list(Info().dtypes(kind="real floating"))
            ['float32', 'float64']
        """
        self._check_device(device)
        kinds = (kind,) if isinstance(kind, str) or kind is None else kind
        for k in kinds:
            check(k is None or k in KINDS, "dtypes", lambda: f"unknown dtype kind {k!r}; "
                  "expected one of " + ", ".join(KINDS), ValueError)
        have = by_name()
        return {name: have[name] for name in STANDARD_NAMES if name in have and any(
            k is None or KINDS[k](have[name]) for k in kinds)}

    @staticmethod
    def _check_device(dev: Any) -> None:
        """Raise unless ``dev`` is None or a device this process has."""
        if dev is not None:
            resolve(dev, "dtypes")


def __array_namespace_info__() -> Info:  # noqa: N807 - the standard's name
    """The namespace's inspection object (see :class:`Info`)."""
    return Info()
