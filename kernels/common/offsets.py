"""Index-to-offset helpers compiled into the strided kernels of both backends.

Operands are flat buffers addressed by an element offset plus per-dim element
strides; these turn a row-major index into that offset.
"""

from __future__ import annotations


def element_offset(j, shape, strides, base):  # noqa: ANN001, ANN201 - compiled per target
    """Offset of row-major index ``j`` over ``shape``.

    Example:
        >>> element_offset(5, (2, 3), (1, 2), 10)
        15
    """
    rem = j + 0
    off = base
    for d in range(len(shape) - 1, -1, -1):
        idx = rem % shape[d]
        rem = rem // shape[d]
        off += idx * strides[d]
    return off


def line_offsets(k, kshape, xo, kxs, oo, kos):  # noqa: ANN001, ANN201
    """Offsets of line ``k`` over the kept dims in the input and in the output.

    Example:
        >>> line_offsets(1, (2,), 0, (5,), 0, (1,))
        (5, 1)
    """
    rem = k + 0
    px = xo
    po = oo
    for d in range(len(kshape) - 1, -1, -1):
        idx = rem % kshape[d]
        rem = rem // kshape[d]
        px += idx * kxs[d]
        po += idx * kos[d]
    return px, po
