"""Allocator settings read from ``GTENSOR_ALLOC_CONF`` and ``GTENSOR_CUDA_SIM_MEMORY``.

``GTENSOR_ALLOC_CONF`` is a comma-separated list of ``key:value`` pairs, as
PyTorch's ``PYTORCH_CUDA_ALLOC_CONF``::

    GTENSOR_ALLOC_CONF=max_split_size_mb:128,garbage_collection_threshold:0.8

``GTENSOR_CUDA_SIM_MEMORY`` is the simulated CUDA device's capacity: bytes, or
a number with a binary unit (``512MB``, ``2GiB``, ``1.5G``; K, M, G and T with
or without ``B`` or ``iB`` all mean powers of 1024).

Unknown keys and bad values raise :class:`AllocatorConfigError` the first time
an allocator that uses them is made: ``GTENSOR_CUDA_SIM_MEMORY`` only when the
simulated ``cuda`` device is first used, so it never breaks the ``cpu`` device.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from ..errors import GTensorError
from .policy import LARGE_BUFFER, NO_SPLIT_LIMIT, MiB

ALLOC_CONF_ENV = "GTENSOR_ALLOC_CONF"
SIM_MEMORY_ENV = "GTENSOR_CUDA_SIM_MEMORY"
DEFAULT_SIM_MEMORY = 1024 * MiB


class AllocatorConfigError(GTensorError, ValueError):
    """``GTENSOR_ALLOC_CONF`` or ``GTENSOR_CUDA_SIM_MEMORY`` holds an unknown key or a bad value."""


@dataclass(frozen=True)
class AllocatorConfig:
    """How the caching allocator behaves.

    Attributes:
        max_split_size: blocks of this many bytes or more are never split
            (``max_split_size_mb``); unlimited by default.
        caching: ``False`` hands every request straight to the device's raw
            alloc/free (``caching:0``), for debugging with memory sanitizers.
        garbage_collection_threshold: fraction of the device limit above which
            cached free segments are released before a new one is reserved;
            ``0`` turns this off.
        roundup_power2_divisions: when ``> 1``, requests round up to this many
            steps between powers of two instead of to a multiple of 512.

    Example:
        >>> AllocatorConfig().caching
        True
    """

    max_split_size: int = NO_SPLIT_LIMIT
    caching: bool = True
    garbage_collection_threshold: float = 0.0
    roundup_power2_divisions: int = 0


def _error(text: str) -> AllocatorConfigError:
    return AllocatorConfigError(f"[{ALLOC_CONF_ENV}] {text}")


def _int(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise _error(f"{key} expects an integer, got {value!r}") from None


def _max_split_size_mb(value: str) -> dict[str, object]:
    mb = _int("max_split_size_mb", value)
    floor = LARGE_BUFFER // MiB
    if mb <= floor:
        raise _error(f"max_split_size_mb must be greater than {floor}, got {mb}")
    return {"max_split_size": mb * MiB}


def _caching(value: str) -> dict[str, object]:
    if value not in ("0", "1"):
        raise _error(f"caching expects 0 or 1, got {value!r}")
    return {"caching": value == "1"}


def _garbage_collection_threshold(value: str) -> dict[str, object]:
    try:
        threshold = float(value)
    except ValueError:
        raise _error(f"garbage_collection_threshold expects a number, got {value!r}") from None
    if not 0.0 < threshold < 1.0:
        raise _error(f"garbage_collection_threshold must be in (0, 1), got {threshold}")
    return {"garbage_collection_threshold": threshold}


def _roundup_power2_divisions(value: str) -> dict[str, object]:
    divisions = _int("roundup_power2_divisions", value)
    if divisions < 0 or divisions & (divisions - 1):
        raise _error(f"roundup_power2_divisions must be 0 or a power of 2, got {divisions}")
    return {"roundup_power2_divisions": divisions}


_OPTIONS = {
    "max_split_size_mb": _max_split_size_mb,
    "caching": _caching,
    "garbage_collection_threshold": _garbage_collection_threshold,
    "roundup_power2_divisions": _roundup_power2_divisions,
}


def parse_alloc_conf(text: str, base: AllocatorConfig | None = None) -> AllocatorConfig:
    """Parse a ``GTENSOR_ALLOC_CONF`` string.

    Args:
        text: ``key:value`` pairs separated by commas; blank means defaults.
        base: the settings that keys not in ``text`` keep (the defaults if ``None``).

    Returns:
        The parsed :class:`AllocatorConfig`.

    Raises:
        AllocatorConfigError: on an unknown key, a repeated key or a bad value.

    Example:
        >>> parse_alloc_conf("max_split_size_mb:64,caching:1").max_split_size
        67108864
    """
    fields: dict[str, object] = {}
    seen: set[str] = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, value = item.partition(":")
        key, value = key.strip(), value.strip()
        if key not in _OPTIONS:
            known = ", ".join(sorted(_OPTIONS))
            raise _error(f"unknown option {key!r}; known options: {known}")
        if not sep or not value:
            raise _error(f"option {key!r} needs a value, as in {key}:<value>")
        if key in seen:
            raise _error(f"option {key!r} is given twice")
        seen.add(key)
        fields.update(_OPTIONS[key](value))
    return replace(base or AllocatorConfig(), **fields)  # type: ignore[arg-type]


_SIZE = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+))\s*([a-z]*)", re.IGNORECASE)
_MAX_SIM_MEMORY = 2**63 - 1
_UNITS = {"": 1, "b": 1}
for _power, _letter in enumerate("kmgt", start=1):
    for _suffix in ("", "b", "ib"):
        _UNITS[_letter + _suffix] = 1024**_power


def parse_sim_memory(text: str | None) -> int:
    """Parse ``GTENSOR_CUDA_SIM_MEMORY``: the simulated CUDA device's capacity in bytes.

    Args:
        text: the variable's value (bytes, or a number with a unit such as
            ``512MB``, ``2GiB`` or ``1.5G``; units are powers of 1024), or
            ``None`` when unset (1 GiB).

    Returns:
        The capacity in bytes (fractions of a byte are dropped).

    Raises:
        AllocatorConfigError: the value is not a size or is negative.

    Example:
        >>> parse_sim_memory("4096"), parse_sim_memory("1.5K"), parse_sim_memory("2GiB")
        (4096, 1536, 2147483648)
        >>> parse_sim_memory(None) == DEFAULT_SIM_MEMORY
        True
    """
    if text is None or not text.strip():
        return DEFAULT_SIM_MEMORY
    match = _SIZE.fullmatch(text.strip())
    unit = _UNITS.get(match.group(2).lower()) if match else None
    try:
        number = Fraction(match.group(1)) if match else None
    except ValueError:  # more digits than Python converts
        number = None
    if number is None or unit is None:
        raise AllocatorConfigError(
            f"[{SIM_MEMORY_ENV}] expects a size in bytes or with a unit (such as 4096, 512MB, "
            f"2GiB or 1.5G), got {text!r:.80}"
        )
    capacity = int(number * unit)
    if not 0 <= capacity <= _MAX_SIM_MEMORY:
        raise AllocatorConfigError(
            f"[{SIM_MEMORY_ENV}] must be >= 0 and < 2**63 bytes, got {text!r:.80}"
        )
    return capacity
