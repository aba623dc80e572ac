"""CUDA cumsum/cumprod and softmax/log_softmax along one axis.

Same calling convention and accumulation as the CPU (``kernels.cpu.axis_ops``):
``kernel(x, out, axis, stream=None)``. One thread handles one line along the
axis, threads grid-stride over the lines; adjacent threads read adjacent
elements when the axis is not the innermost dim.
"""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common.dtype_groups import ALL, FLOAT
from ..common.offsets import element_offset, line_offsets
from ..common.scalar_rows import scan_row, scan_start, softmax_row
from ..common.strided import axis_operands
from ..registry import register
from ._elementwise_build import _JIT
from ._launch import flat_operand, on

_scan_row = cuda.jit(device=True)(scan_row)
_softmax_row = cuda.jit(device=True)(softmax_row)
_line = cuda.jit(device=True)(line_offsets)
_eoff = cuda.jit(device=True)(element_offset)


@cuda.jit(**_JIT)
def gtensor_scan(total, kshape, x, xo, kxs, out, oo, kos, length, sx, so,  # noqa: ANN001, ANN201
                 acc, is_prod):
    k = cuda.grid(1)
    while k < total:
        px, po = _line(k, kshape, xo, kxs, oo, kos)
        _scan_row(x, px, sx, out, po, so, length, acc, is_prod)
        k += cuda.gridsize(1)


@cuda.jit(**_JIT)
def gtensor_softmax(total, kshape, x, xo, kxs, out, oo, kos, length, sx,  # noqa: ANN001, ANN201
                    so, log):
    k = cuda.grid(1)
    while k < total:
        px, po = _line(k, kshape, xo, kxs, oo, kos)
        _softmax_row(x, px, sx, out, po, so, length, log)
        k += cuda.gridsize(1)


def _axis_kernel(op: str, fn: Any, extra: Any) -> Any:
    def kernel(x: Any, out: Any, axis: int, stream: Any = None) -> None:
        if out.size == 0:
            return
        kshape, kxs, kos, length, sx, so = axis_operands(x, out, axis)
        total = out.size // max(length, 1)
        xb, xo, _ = flat_operand(x)
        ob, oo, _ = flat_operand(out)
        on(fn, total, stream)(total, kshape, xb, xo, kxs, ob, oo, kos, length, sx, so,
                                  *extra(x))

    kernel.__name__ = f"gtensor_{op}_cuda"
    kernel.__doc__ = f"CUDA ``{op}`` kernel: ``kernel(x, out, axis, stream=None)``."
    return kernel


register("cumsum", "cuda", ALL)(_axis_kernel("cumsum", gtensor_scan,
                                             lambda x: scan_start(x, False)))
register("cumprod", "cuda", ALL)(_axis_kernel("cumprod", gtensor_scan,
                                              lambda x: scan_start(x, True)))
register("softmax", "cuda", FLOAT)(_axis_kernel("softmax", gtensor_softmax, lambda x: (False,)))
register("log_softmax", "cuda", FLOAT)(_axis_kernel("log_softmax", gtensor_softmax,
                                                    lambda x: (True,)))
