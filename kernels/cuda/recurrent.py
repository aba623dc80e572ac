"""Recurrent cell steps on CUDA: one grid-stride kernel per step.

Thread ``k`` handles one hidden unit of one row (``k // hidden``,
``k % hidden``): it reads that unit's gate sums (``gates`` loads, coalesced
across a warp since neighbouring threads read neighbouring units) and writes
the unit's state and saved gates. The step's matmul (``h @ W_hh.T``) runs
before it through cuBLAS; the grid covers ``rows * hidden`` threads.
"""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common import rnn_math
from ..common.dtype_groups import FLOAT
from ..registry import register
from ._launch import on

_dev = rnn_math.build(cuda.jit(device=True))
_forward = _dev.cell_forward
_backward = _dev.cell_backward


@cuda.jit
def gtensor_rnn_cell_forward(size, hidden, mode, gi, hh, b, hprev, cprev, h, c, acts):  # noqa: ANN001
    k = cuda.grid(1)
    step = cuda.gridsize(1)
    while k < size:
        row = k // hidden
        _forward(row, k - row * hidden, hidden, mode, gi, hh, b, hprev, cprev, h, c, acts)
        k += step


@cuda.jit
def gtensor_rnn_cell_backward(size, hidden, mode, dy, dcarry, acts, c, cprev, hprev, h, dgi,  # noqa: ANN001
                              dhh, dc, dskip):
    k = cuda.grid(1)
    step = cuda.gridsize(1)
    while k < size:
        row = k // hidden
        _backward(row, k - row * hidden, hidden, mode, dy, dcarry, acts, c, cprev, hprev, h,
                  dgi, dhh, dc, dskip)
        k += step


@register("rnn_cell_forward", "cuda", FLOAT)
def gtensor_rnn_cell_forward_cuda(size: int, hidden: int, mode: int, *buffers: Any,
                                  stream: Any = None) -> None:
    """One forward step (see the CPU kernel for the arguments).

    Example:
        >>> gi, hh, h = np.array([1.0, -2.0]), np.full(2, 0.5), np.empty(2)
        >>> z = [np.zeros(2) for _ in range(5)]  # b, hprev, cprev, c, acts
        >>> gtensor_rnn_cell_forward_cuda(2, 2, 3, gi, hh, *z[:3], h, *z[3:])
        >>> h.tolist() == [1.5, 0.0]
        True
    """
    on(gtensor_rnn_cell_forward, size, stream)(size, hidden, mode, *buffers)


@register("rnn_cell_backward", "cuda", FLOAT)
def gtensor_rnn_cell_backward_cuda(size: int, hidden: int, mode: int, *buffers: Any,
                                   stream: Any = None) -> None:
    """One backward step (see the CPU kernel for the arguments).

    Example:
        >>> h, dgi, z = np.array([1.5, 0.0]), np.empty(2), [np.zeros(2) for _ in range(8)]
        >>> gtensor_rnn_cell_backward_cuda(2, 2, 3, np.ones(2), *z[:5], h, dgi, *z[5:])
        >>> dgi.tolist()
        [1.0, 0.0]
    """
    on(gtensor_rnn_cell_backward, size, stream)(size, hidden, mode, *buffers)
