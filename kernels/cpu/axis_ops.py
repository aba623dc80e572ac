"""CPU cumsum/cumprod and softmax/log_softmax along one axis.

Calling convention: ``kernel(x, out, axis, stream=None)``; ``x`` any strides,
``out`` of ``x``'s shape. Scans accumulate in float64 (floats) or int64
(integers and booleans) and cast on store, so ``out`` may be wider than ``x``
(``cumsum(int8) -> int64``). softmax computes the shifted exponentials in the
input dtype and sums them in float64. Lines run in parallel above
``PARALLEL_MIN`` elements. A contiguous float32/float64 softmax runs the
vectorized passes of ``softmax_rows`` instead (rows for the last axis,
column blocks for an inner one).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from numba import njit, prange

from ..common.codegen import HALF_SUFFIX, rebound
from ..common.dtype_groups import ALL, COMPLEX, FLOAT, HALF
from ..common.offsets import element_offset, line_offsets
from ..common.scalar_rows import scan_row, scan_start, softmax_row
from ..common.strided import axis_operands, host_flat
from ..registry import LazyKernel, register
from . import half as bits
from ._elementwise_build import _JIT, PARALLEL_MIN
from .softmax_rows import softmax_contiguous

_scan_row = njit(**_JIT)(scan_row)
line_offsets_cpu = njit(**_JIT)(line_offsets)
element_offset_cpu = njit(**_JIT)(element_offset)
_softmax_row = njit(**_JIT)(softmax_row)


def gtensor_scan(kshape, x, xo, kxs, out, oo, kos, length, sx, so,  # noqa: ANN001, ANN201
                 acc, is_prod):
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    for k in prange(total):
        px, po = line_offsets_cpu(k, kshape, xo, kxs, oo, kos)
        _scan_row(x, px, sx, out, po, so, length, acc, is_prod)


def gtensor_softmax(kshape, x, xo, kxs, out, oo, kos, length, sx, so,  # noqa: ANN001, ANN201
                    log):
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    for k in prange(total):
        px, po = line_offsets_cpu(k, kshape, xo, kxs, oo, kos)
        _softmax_row(x, px, sx, out, po, so, length, log)


_VARIANTS = {
    fn.__name__: (njit(**_JIT)(fn), njit(parallel=True, **_JIT)(fn))
    for fn in (gtensor_scan, gtensor_softmax)
}


def _half_loops(body: str, half: str) -> tuple[Any, Any]:
    """Serial and parallel ``body`` loops (scan or softmax) over ``half`` bits (float32 values
    in registers)."""
    suffix = HALF_SUFFIX[half]
    ld, st = bits.half_io(half)
    io = {"ld": ld, "st": st}
    if body == "gtensor_scan":
        row = njit(**_JIT)(rebound(scan_row, suffix, io))
        loop = rebound(gtensor_scan, suffix, {"_scan_row": row})
    else:
        row = njit(**_JIT)(rebound(softmax_row, suffix, io))
        loop = rebound(gtensor_softmax, suffix, {"_softmax_row": row})
    return njit(**_JIT)(loop), njit(parallel=True, **_JIT)(loop)


def _axis_kernel(op: str, body: str, extra: Any, half: str | None = None) -> Any:
    serial, parallel = _VARIANTS[body] if half is None else _half_loops(body, half)

    def kernel(x: np.ndarray, out: np.ndarray, axis: int, stream: Any = None) -> None:
        if out.size == 0:
            return
        if (body == "gtensor_softmax" and half is None
                and x.flags.c_contiguous and out.flags.c_contiguous):
            softmax_contiguous(x, out, axis, *extra(x))
            return
        kshape, kxs, kos, length, sx, so = axis_operands(x, out, axis)
        xb, xo = host_flat(x)
        ob, oo = host_flat(out)
        fn = parallel if out.size >= PARALLEL_MIN and out.size > length else serial
        fn(kshape, xb, xo, kxs, ob, oo, kos, length, sx, so, *extra(x))

    kernel.__name__ = f"gtensor_{op}_cpu"
    kernel.__doc__ = f"CPU ``{op}`` kernel: ``kernel(x, out, axis, stream=None)``."
    return kernel


register("cumsum", "cpu", (*ALL, *COMPLEX))(_axis_kernel("cumsum", "gtensor_scan",
                                            lambda x: scan_start(x, False)))
register("cumprod", "cpu", (*ALL, *COMPLEX))(_axis_kernel("cumprod", "gtensor_scan",
                                             lambda x: scan_start(x, True)))
register("softmax", "cpu", FLOAT)(_axis_kernel("softmax", "gtensor_softmax", lambda x: (False,)))
register("log_softmax", "cpu", FLOAT)(_axis_kernel("log_softmax", "gtensor_softmax",
                                                   lambda x: (True,)))
_HALF_EXTRAS = {"softmax": ("gtensor_softmax", lambda x: (False,)),
                "log_softmax": ("gtensor_softmax", lambda x: (True,)),
                "cumsum": ("gtensor_scan", lambda x: (0.0, False)),
                "cumprod": ("gtensor_scan", lambda x: (1.0, True))}
for _half in HALF:
    for _op, (_body, _extra) in _HALF_EXTRAS.items():
        register(_op, "cpu", [_half])(LazyKernel(
            partial(_axis_kernel, _op, _body, _extra, _half), f"gtensor_{_op}_{_half}"))
