"""CUDA backward of softmax/log_softmax: one kernel, a team of threads (up to a block) per line.

``kernel(y, g, out, axis, stream=None)`` as on the CPU (``kernels/cpu/softmax_rows.py``): all
three C-contiguous of one shape, ``y`` the forward's output. A team of lanes
(a power of two, about ``loss.ROW_ITEMS`` elements a lane, up to a whole
block of ``THREADS``) takes a line, the blocks striding over lines by the
grid: its lanes sum ``g * y`` (softmax) or ``g`` (log_softmax) over the line in
float64, merge the sums in a shared-memory tree (``loss._team_sum``), then write
``y * (g - sum)`` or ``g - exp(y) * sum``. Along the last axis adjacent
threads read adjacent elements; along an inner axis a line's elements are
``inner`` apart.
"""

from __future__ import annotations

import math
from typing import Any

from numba import cuda, float64

from ..common.dtype_groups import FLOAT
from ..registry import register
from ._elementwise_build import _JIT
from ._launch import MAX_BLOCKS, PlannedLaunch, remembered, stream_pointer
from ._reduce_layout import THREADS
from .loss import _blocks, _lanes, _team_sum

_plans: dict[Any, Any] = {}


@cuda.jit(**_JIT)
def gtensor_softmax_grad(y, g, out, lines, length, inner, log, per):  # noqa: ANN001, ANN201
    acc = cuda.shared.array(THREADS, float64)
    t = cuda.threadIdx.x
    team = t // per
    lane = t - team * per
    first = cuda.blockIdx.x * (THREADS // per)
    while first < lines:  # uniform across the block: every thread reaches each _team_sum
        line = first + team
        base = (line // inner) * length * inner + line % inner
        s = 0.0
        j = lane
        while line < lines and j < length:
            k = base + j * inner
            s += g[k] if log else float64(g[k]) * y[k]
            j += per
        s = _team_sum(acc, t, lane, per, s)
        j = lane
        while line < lines and j < length:
            k = base + j * inner
            out[k] = g[k] - math.exp(y[k]) * s if log else y[k] * (g[k] - s)
            j += per
        first += cuda.gridDim.x * (THREADS // per)


def _backward(log: bool, y: Any, g: Any, out: Any, axis: int, stream: Any) -> None:
    if out.size == 0:
        return
    axis %= out.ndim
    length = out.shape[axis]
    inner = math.prod(out.shape[axis + 1:])
    lines = out.size // length
    per = _lanes(length)
    blocks = _blocks(lines, per, MAX_BLOCKS)
    launch = remembered(_plans, (blocks, stream_pointer(stream), out.dtype.str), PlannedLaunch,
                        gtensor_softmax_grad, 0, stream, blocks, THREADS)
    launch(y.reshape(-1), g.reshape(-1), out.reshape(-1), lines, length, inner, log, per)


@register("softmax_backward", "cuda", FLOAT)
def softmax_backward(y: Any, g: Any, out: Any, axis: int, stream: Any = None) -> None:
    """``y * (g - sum(g * y, axis))`` into ``out`` (all C-contiguous, one shape).

    Example:
        >>> out = np.empty(2)
        >>> softmax_backward(np.array([0.5, 0.5]), np.array([1.0, 0.0]), out, 0); out.tolist()
        [0.25, -0.25]
    """
    _backward(False, y, g, out, axis, stream)


@register("log_softmax_backward", "cuda", FLOAT)
def log_softmax_backward(y: Any, g: Any, out: Any, axis: int, stream: Any = None) -> None:
    """``g - exp(y) * sum(g, axis)`` into ``out`` (all C-contiguous, one shape).

    Example:
        >>> out = np.empty(2)
        >>> log_softmax_backward(np.log([0.5, 0.5]), np.array([1.0, 0.0]), out, 0)
        >>> [round(v, 6) for v in out.tolist()]
        [0.5, -0.5]
    """
    _backward(True, y, g, out, axis, stream)
