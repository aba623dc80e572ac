"""Recurrent cell steps on the CPU: one loop over a step's rows and hidden units.

The loop is parallel above ``PARALLEL_MIN`` elements (each element reads and
writes only its own unit of each buffer), serial below, where a parallel
region costs more than it saves.

A serial float32 LSTM step runs by row blocks instead (``lstm_rows_*``):
``rnn_math`` computes one hidden unit at a time, every gate of the unit in one
loop body, and over eight buffers LLVM finds too many possible overlaps to
check and leaves the loop scalar. Per row, short loops over contiguous gate
slices that each touch few buffers, with :func:`kernels.cpu.fast_math.exp` in
the activations, all vectorize: a step of 32 rows by 256 units runs about 4x
faster. Results match the per-unit cell to float32 rounding (the gates are
rounded to float32 before the cell update reads them back).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ..common import rnn_math
from ..common.dtype_groups import FLOAT
from ..registry import register
from . import fast_math

# A parallel region between the step's BLAS calls measured 8-30x slower on 2 cores (the
# BLAS and Numba thread pools contend), so only very large steps take it.
PARALLEL_MIN = 1 << 18
_JIT = {"cache": True, "error_model": "numpy"}
_dev = rnn_math.build(numba.njit(inline="always", error_model="numpy"), exp=fast_math.exp)
_forward = _dev.cell_forward
_backward = _dev.cell_backward
_sigmoid = _dev.sigmoid
_tanh = _dev.tanh


def gtensor_rnn_cell_forward(size, hidden, mode, gi, hh, b, hprev, cprev, h, c, acts):  # noqa: ANN001, ANN201
    for row in numba.prange(size // hidden):
        # a literal mode per inner loop, so each compiles to the one cell it runs
        if mode == 0:
            for j in range(hidden):
                _forward(row, j, hidden, 0, gi, hh, b, hprev, cprev, h, c, acts)
        elif mode == 1:
            for j in range(hidden):
                _forward(row, j, hidden, 1, gi, hh, b, hprev, cprev, h, c, acts)
        else:
            for j in range(hidden):
                _forward(row, j, hidden, mode, gi, hh, b, hprev, cprev, h, c, acts)


def gtensor_rnn_cell_backward(size, hidden, mode, dy, dcarry, acts, c, cprev, hprev, h, dgi,  # noqa: ANN001, ANN201
                              dhh, dc, dskip):
    for row in numba.prange(size // hidden):
        if mode == 0:
            for j in range(hidden):
                _backward(row, j, hidden, 0, dy, dcarry, acts, c, cprev, hprev, h, dgi, dhh,
                          dc, dskip)
        elif mode == 1:
            for j in range(hidden):
                _backward(row, j, hidden, 1, dy, dcarry, acts, c, cprev, hprev, h, dgi, dhh,
                          dc, dskip)
        else:
            for j in range(hidden):
                _backward(row, j, hidden, mode, dy, dcarry, acts, c, cprev, hprev, h, dgi, dhh,
                          dc, dskip)


_forward_loops = (numba.njit(**_JIT)(gtensor_rnn_cell_forward),
                  numba.njit(parallel=True, **_JIT)(gtensor_rnn_cell_forward))
_backward_loops = (numba.njit(**_JIT)(gtensor_rnn_cell_backward),
                   numba.njit(parallel=True, **_JIT)(gtensor_rnn_cell_backward))


@numba.njit(**_JIT)
def lstm_rows_forward(size, hidden, gi, hh, b, hprev, cprev, h, c, acts):  # noqa: ANN001, ANN201
    """One LSTM step of ``size // hidden`` rows: ``rnn_math.cell_forward``'s buffers and results."""
    four = 4 * hidden
    for row in range(size // hidden):
        lo = row * four
        pre, mid, gates = gi[lo:lo + four], hh[lo:lo + four], acts[lo:lo + four]
        for j in range(four):
            x = pre[j] + mid[j] + b[j]
            gates[j] = _tanh(x, False) if 2 * hidden <= j < 3 * hidden else _sigmoid(x, False)
        k = row * hidden
        old, cell, out = cprev[k:k + hidden], c[k:k + hidden], h[k:k + hidden]
        for j in range(hidden):
            value = gates[hidden + j] * old[j] + gates[j] * gates[2 * hidden + j]
            cell[j] = value
            out[j] = gates[3 * hidden + j] * _tanh(value, False)


@numba.njit(**_JIT)
def lstm_rows_backward(size, hidden, dy, dcarry, acts, c, cprev, hprev, h, dgi, dhh, dc,  # noqa: ANN001, ANN201
                       dskip):
    """The LSTM step's gradients by rows: ``rnn_math.cell_backward``'s buffers and results."""
    four = 4 * hidden
    for row in range(size // hidden):
        lo, k = row * four, row * hidden
        gates, grads = acts[lo:lo + four], dgi[lo:lo + four]
        d_out, d_next, cell, dcell = (dy[k:k + hidden], dcarry[k:k + hidden], c[k:k + hidden],
                                      dc[k:k + hidden])
        d_o = grads[3 * hidden:]
        for j in range(hidden):  # the output's gradient, kept in the o gate's slot
            d_o[j] = d_out[j] + d_next[j]
        o = gates[3 * hidden:]
        for j in range(hidden):
            dh = d_o[j]
            tc = _tanh(cell[j], False)
            dcell[j] = dcell[j] + dh * o[j] * (1.0 - tc * tc)
            d_o[j] = dh * tc * o[j] * (1.0 - o[j])
        old = cprev[k:k + hidden]
        for j in range(hidden):
            i, f, g, d = gates[j], gates[hidden + j], gates[2 * hidden + j], dcell[j]
            grads[j] = d * g * i * (1.0 - i)
            grads[hidden + j] = d * old[j] * f * (1.0 - f)
            grads[2 * hidden + j] = d * i * (1.0 - g * g)
            dcell[j] = d * f


def _by_size(loops: tuple[Any, Any], op: str, lstm_rows: Any) -> Any:
    def run(size: int, hidden: int, mode: int, *buffers: Any, stream: Any = None) -> None:
        if size >= PARALLEL_MIN:
            loops[1](size, hidden, mode, *buffers)
        elif mode == 0 and buffers[0].dtype == np.float32:
            lstm_rows(size, hidden, *buffers)
        else:
            loops[0](size, hidden, mode, *buffers)

    run.__name__ = run.__qualname__ = f"gtensor_{op}_cpu"
    run.__doc__ = f"""{op.replace("_", " ").capitalize()}: ``size`` units (rows times hidden).

    Args:
        size: rows times hidden units of the step.
        hidden: hidden units per row.
        mode: the cell (``rnn_math.MODES``).
        *buffers: the flat arrays and flags of ``rnn_math.{op[4:]}``, in its order.
        stream: ignored on the CPU.
    """
    return register(op, "cpu", FLOAT)(run)


gtensor_rnn_cell_forward_cpu = _by_size(_forward_loops, "rnn_cell_forward", lstm_rows_forward)
gtensor_rnn_cell_backward_cpu = _by_size(_backward_loops, "rnn_cell_backward",
                                         lstm_rows_backward)
