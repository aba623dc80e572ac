"""CUDA negative log-likelihood over class-index targets: the loss and its gradient, one kernel
each.

Same calling conventions as ``kernels/cpu/loss.py``. Layout: blocks of
``THREADS`` threads cut into teams of ``per`` lanes (a power of two), one team
per row, a block holding ``THREADS // per`` rows and striding over the rows
by the grid.

- **Loss** (``gtensor_nll_loss``): without smoothing a row reads one element,
  so a team is one thread; with smoothing the lanes stride over the row
  summing ``w[k] * lp[i, k]`` and merge in a shared-memory tree. Each team's
  first lane checks the target and writes the row's loss (``NONE``) or adds
  it and its weight to the thread's float64 sums, which a block tree merges
  into one pair per block in a per-stream scratch buffer. The last block to
  finish (a ticket counted with an atomic after a fence) merges the blocks'
  pairs, writes the sum or weighted mean and the total weight, and reports
  the first bad target into the host-mapped record of ``device_errors``,
  raised at the next synchronizing call. One launch, no host wait.
- **Gradient** (``gtensor_nll_loss_backward``): the lanes of a team write
  their row's classes (adjacent lanes adjacent classes); ignored rows and bad
  targets get zeros.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda, float64, int64

from ..common.nll_math import MEAN, NONE, grad_value, row_loss
from ..registry import register
from ._launch import MAX_BLOCKS, SIMULATED, PlannedLaunch, flat_operand, remembered, stream_pointer
from ._reduce_layout import THREADS, target_blocks
from .device_errors import DIM, FLAG, KIND, KIND_INDEX, OP, SIZE, VALUE, fence, op_code, record

ROW_ITEMS = 2 if SIMULATED else 4  # classes a lane reads before its team gets wider
NO_ERROR = 2**63 - 1
_row_loss = cuda.jit(device=True)(row_loss)
_grad_value = cuda.jit(device=True)(grad_value)


@cuda.jit(device=True)
def _class_weight(w, wo, ws, weighted, k):  # noqa: ANN001, ANN202
    return w[wo + k * ws] if weighted else 1.0


@cuda.jit(device=True)
def _team_sum(sa, t, lane, per, a):  # noqa: ANN001, ANN202
    """Sum ``a`` over a team's ``per`` lanes (threads ``t - lane ...``; the whole block for
    ``per = THREADS``); every lane gets it."""
    sa[t] = a
    cuda.syncthreads()
    h = per // 2
    while h > 0:
        if lane < h:
            sa[t] += sa[t + h]
        cuda.syncthreads()
        h //= 2
    a = sa[t - lane]
    cuda.syncthreads()
    return a


@cuda.jit
def gtensor_nll_reset(state):  # noqa: ANN001
    state[0] = 0
    state[1] = NO_ERROR


@cuda.jit
def gtensor_nll_loss(lp, lpo, ls0, ls1, n, c, tg, tgo, tgs, w, wo, ws, weighted,  # noqa: ANN001
                     out, oo, os, total, partials, state, rec, opcode, ignore, eps, reduction,
                     per):
    sa = cuda.shared.array(THREADS, float64)
    last = cuda.shared.array(1, int64)
    t = cuda.threadIdx.x
    team = t // per
    lane = t - team * per
    rows = THREADS // per
    s = 0.0
    wsum = 0.0
    base = cuda.blockIdx.x * rows
    while base < n:  # the same trips for every thread of the block: the trees synchronize
        i = base + team
        target = ignore
        acc = 0.0
        if i < n:
            target = int64(tg[tgo + i * tgs])
            if eps != 0.0 and target != ignore:
                k = lane
                while k < c:
                    acc += _class_weight(w, wo, ws, weighted, k) * lp[lpo + i * ls0 + k * ls1]
                    k += per
        if eps != 0.0 and per > 1:
            acc = _team_sum(sa, t, lane, per, acc)
        if i < n and lane == 0:
            v = 0.0
            wt = 0.0
            if target != ignore:
                if target < 0 or target >= c:
                    cuda.atomic.min(state, 1, i)
                else:
                    wt = _class_weight(w, wo, ws, weighted, target)
                    v = _row_loss(lp[lpo + i * ls0 + target * ls1], wt, acc, eps, c)
            if reduction == NONE:
                out[oo + i * os] = v
            s += v
            wsum += wt
        base += cuda.gridDim.x * rows
    if reduction != NONE:
        s = _team_sum(sa, t, t, THREADS, s)
        wsum = _team_sum(sa, t, t, THREADS, wsum)
        if t == 0:
            partials[2 * cuda.blockIdx.x] = s
            partials[2 * cuda.blockIdx.x + 1] = wsum
    if t == 0:
        cuda.threadfence()  # this block's partials reach memory before its ticket
        last[0] = 1 if cuda.atomic.add(state, 0, 1) == cuda.gridDim.x - 1 else 0
    cuda.syncthreads()
    if last[0] == 0:
        return
    if reduction != NONE:
        s = 0.0
        wsum = 0.0
        b = t
        while b < cuda.gridDim.x:
            s += partials[2 * b]
            wsum += partials[2 * b + 1]
            b += THREADS
        s = _team_sum(sa, t, t, THREADS, s)
        wsum = _team_sum(sa, t, t, THREADS, wsum)
    if t == 0:
        if reduction != NONE:
            total[0] = wsum
            if reduction == MEAN:
                s = s / wsum if wsum != 0.0 else math.nan
            out[oo] = s
        state[0] = 0
        bad = state[1]
        if bad != NO_ERROR:
            state[1] = NO_ERROR
            if rec[FLAG] == 0:
                rec[OP] = opcode
                rec[VALUE] = int64(tg[tgo + bad * tgs])
                rec[DIM] = 1
                rec[SIZE] = c
                rec[KIND] = KIND_INDEX
                fence()
                rec[FLAG] = 1


@cuda.jit
def gtensor_nll_loss_backward(g, go, gs, n, c, tg, tgo, tgs, w, wo, ws, weighted,  # noqa: ANN001
                              total, out, oo, os0, os1, ignore, eps, reduction, per):
    t = cuda.threadIdx.x
    team = t // per
    lane = t - team * per
    rows = THREADS // per
    scale = 1.0
    if reduction == MEAN and total[0] != 0.0:
        scale = 1.0 / total[0]
    i = cuda.blockIdx.x * rows + team
    while i < n:
        target = int64(tg[tgo + i * tgs])
        kept = target != ignore and target >= 0 and target < c
        gi = 0.0
        wt = 0.0
        if kept:
            gi = g[go + i * gs] * scale
            wt = _class_weight(w, wo, ws, weighted, target)
        po = oo + i * os0
        k = lane
        while k < c:
            v = 0.0
            if kept:
                v = _grad_value(k, target, wt, _class_weight(w, wo, ws, weighted, k), gi, eps, c)
            out[po + k * os1] = v
            k += per
        i += cuda.gridDim.x * rows


def _lanes(classes: int) -> int:
    """Lanes per row: about ``ROW_ITEMS`` classes a lane, at most a block."""
    want = max(1, -(-classes // ROW_ITEMS))
    return min(THREADS, 1 << (want - 1).bit_length())


def _blocks(rows: int, per: int, limit: int) -> int:
    """Blocks for ``rows`` rows at ``THREADS // per`` a block, a power of two up to ``limit``
    (few distinct grids, so Numba's launch-configuration cache is not churned)."""
    need = max(1, -(-rows // (THREADS // per)))
    return min(limit, 1 << (need - 1).bit_length())


_state: dict[tuple[int, int], tuple[Any, Any]] = {}
_plans: dict[Any, PlannedLaunch] = {}
_NO_WEIGHT: dict[tuple[int, np.dtype], Any] = {}


def _device_id() -> int:
    return 0 if SIMULATED else cuda.get_current_device().id


def _stream_state(stream: Any) -> tuple[Any, Any]:
    """The per-(device, stream) ticket counter and first bad row, and the blocks' partial sums."""
    key = (_device_id(), stream_pointer(stream))
    found = _state.get(key)
    if found is None:
        s = 0 if stream is None else stream
        counter = cuda.device_array(2, np.int64, stream=s)
        (gtensor_nll_reset[1, 1] if stream is None else gtensor_nll_reset[1, 1, stream])(counter)
        found = _state[key] = (counter, cuda.device_array(2 * target_blocks(), np.float64,
                                                          stream=s))
    return found


def _weight(weight: Any, dtype: np.dtype) -> tuple[Any, int, int, bool]:
    if weight is not None:
        wb, wo, (ws,) = flat_operand(weight)
        return wb, wo, ws, True
    key = (_device_id(), dtype)
    dummy = _NO_WEIGHT.get(key)
    if dummy is None:  # never read: stands in for the weight buffer
        dummy = _NO_WEIGHT[key] = cuda.device_array(1, dtype)
    return dummy, 0, 0, False


def _launch(kernel: Any, blocks: int, stream: Any, *key: Any) -> PlannedLaunch:
    return remembered(_plans, (kernel.__name__, blocks, stream_pointer(stream), *key),
                      PlannedLaunch, kernel, 0, stream, blocks, THREADS)


_SIGNATURES = [(f, t) for f in ("float32", "float64") for t in ("int64", "uint8")]


@register("nll_loss", "cuda", _SIGNATURES)
def nll_loss(lp: Any, target: Any, weight: Any, out: Any, total: Any, ignore_index: int,
             eps: float, reduction: int, opname: str, stream: Any = None) -> None:
    """The loss of log-probabilities ``lp`` ``(N, C)`` at class indices ``target`` ``(N,)``.

    A target outside ``[0, C)`` other than ``ignore_index`` is recorded on the
    device and raised as ``IndexError`` (named ``opname``) at the next
    synchronizing call; its row counts as ignored.

    Example:
        >>> out, total = np.empty(1), np.empty(1)
        >>> nll_loss(np.log([[0.5, 0.5]]), np.array([1]), None, out, total, -100, 0.0, 2, "nll")
        >>> round(float(out[0]), 4), total.tolist()
        (0.6931, [1.0])
    """
    n, c = lp.shape
    per = _lanes(c) if eps != 0.0 else 1
    blocks = _blocks(n, per, target_blocks())
    lb, lo, (ls0, ls1) = flat_operand(lp)
    tb, to, (ts,) = flat_operand(target)
    wb, wo, ws, weighted = _weight(weight, np.dtype(lp.dtype))
    ob, oo, ostr = flat_operand(out)
    counter, partials = _stream_state(stream)
    launch = _launch(gtensor_nll_loss, blocks, stream, lp.dtype, target.dtype)
    launch(lb, lo, ls0, ls1, n, c, tb, to, ts, wb, wo, ws, weighted, ob, oo,
           ostr[0] if ostr else 0, total, partials, counter, record(), op_code(opname),
           int(ignore_index), float(eps), int(reduction), per)


@register("nll_loss_backward", "cuda", _SIGNATURES)
def nll_loss_backward(g: Any, target: Any, weight: Any, total: Any, out: Any, ignore_index: int,
                      eps: float, reduction: int, stream: Any = None) -> None:
    """The gradient ``(N, C)`` of :func:`nll_loss` for incoming gradient ``g``, into ``out``.

    Example:
        >>> out = np.empty((1, 2))
        >>> nll_loss_backward(np.ones(1), np.array([1]), None, np.ones(1), out, -100, 0.0, 2)
        >>> out.tolist()
        [[0.0, -1.0]]
    """
    n, c = out.shape
    if n * c == 0:
        return
    per = _lanes(c)
    blocks = _blocks(n, per, MAX_BLOCKS)
    gb, go, gstr = flat_operand(g)
    tb, to, (ts,) = flat_operand(target)
    wb, wo, ws, weighted = _weight(weight, np.dtype(out.dtype))
    ob, oo, (os0, os1) = flat_operand(out)
    launch = _launch(gtensor_nll_loss_backward, blocks, stream, out.dtype, target.dtype)
    launch(gb, go, gstr[0] if gstr else 0, n, c, tb, to, ts, wb, wo, ws, weighted, total, ob,
           oo, os0, os1, int(ignore_index), float(eps), int(reduction), per)
