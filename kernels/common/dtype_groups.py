"""Named dtype groups used when registering kernels."""

from __future__ import annotations

FLOAT = ("float32", "float64")
HALF = ("float16", "bfloat16")
COMPLEX = ("complex64", "complex128")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INT = (*UNSIGNED, *SIGNED)
NUMERIC = (*INT, *FLOAT)
ALL = ("bool", *NUMERIC)
WITH_COMPLEX = (*NUMERIC, *COMPLEX)
"""Numeric dtypes and the complex ones: what ``add``, ``mul``, ``neg``... take."""
BOOL_INT = ("bool", *INT)
SORTABLE = ("bool", *INT, "float16", *FLOAT)
"""What the sort and search kernels take (the frontend sorts half types as float32)."""


def same(dtypes: tuple[str, ...], arity: int) -> list[tuple[str, ...]]:
    """Return the signatures where all ``arity`` inputs share one dtype.

    Example:
        >>> same(("float32",), 2)
        [('float32', 'float32')]
    """
    return [(d,) * arity for d in dtypes]
