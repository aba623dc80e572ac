"""Recurrent cell steps on the CPU: one loop over a step's rows and hidden units.

The loop is parallel above ``PARALLEL_MIN`` elements (each element reads and
writes only its own unit of each buffer), serial below, where a parallel
region costs more than it saves.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ..common import rnn_math
from ..common.dtype_groups import FLOAT
from ..registry import register
from . import fast_math
from .lstm_rows import lstm_rows_backward, lstm_rows_forward

# A parallel region between the step's BLAS calls measured 8-30x slower on 2 cores (the
# BLAS and Numba thread pools contend), so only very large steps take it.
PARALLEL_MIN = 1 << 18
_JIT = {"cache": True, "error_model": "numpy"}
_dev = rnn_math.build(numba.njit(inline="always", error_model="numpy"), exp=fast_math.exp)
_forward = _dev.cell_forward
_backward = _dev.cell_backward


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
