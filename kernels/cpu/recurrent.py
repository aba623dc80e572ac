"""Recurrent cell steps on the CPU: one loop over a step's rows and hidden units.

The loop is parallel above ``PARALLEL_MIN`` elements (each element reads and
writes only its own unit of each buffer), serial below, where a parallel
region costs more than it saves.
"""

from __future__ import annotations

from typing import Any

import numba

from ..common.dtype_groups import FLOAT
from ..common.rnn_math import cell_backward, cell_forward
from ..registry import register

PARALLEL_MIN = 1 << 14
_JIT = {"cache": True, "error_model": "numpy"}
_forward = numba.njit(inline="always", **_JIT)(cell_forward)
_backward = numba.njit(inline="always", **_JIT)(cell_backward)


def gtensor_rnn_cell_forward(size, hidden, mode, gi, hh, b, has_bias, hprev, cprev,  # noqa: ANN001, ANN201
                             h, c, acts):
    for k in numba.prange(size):
        _forward(k, hidden, mode, gi, hh, b, has_bias, hprev, cprev, h, c, acts)


def gtensor_rnn_cell_backward(size, hidden, mode, dy, dcarry, carry, acts, c, cprev,  # noqa: ANN001, ANN201
                              hprev, h, dgi, dhh, dc, dskip):
    for k in numba.prange(size):
        _backward(k, hidden, mode, dy, dcarry, carry, acts, c, cprev, hprev, h, dgi, dhh, dc,
                  dskip)


_forward_loops = (numba.njit(**_JIT)(gtensor_rnn_cell_forward),
                  numba.njit(parallel=True, **_JIT)(gtensor_rnn_cell_forward))
_backward_loops = (numba.njit(**_JIT)(gtensor_rnn_cell_backward),
                   numba.njit(parallel=True, **_JIT)(gtensor_rnn_cell_backward))


def _by_size(loops: tuple[Any, Any], op: str) -> Any:
    def run(size: int, hidden: int, mode: int, *buffers: Any, stream: Any = None) -> None:
        loops[size >= PARALLEL_MIN](size, hidden, mode, *buffers)

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


gtensor_rnn_cell_forward_cpu = _by_size(_forward_loops, "rnn_cell_forward")
gtensor_rnn_cell_backward_cpu = _by_size(_backward_loops, "rnn_cell_backward")
