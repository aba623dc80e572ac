"""A recurrent layer's time loop as one op: fused cell kernels between BLAS/cuBLAS matmuls.

``rnn_scan`` runs one layer and direction of an RNN, LSTM or GRU over a
sequence stored as time-major rows (step ``t`` owns ``batch_sizes[t]`` rows,
a non-increasing prefix of the batch, so padded and packed batches take one
path). Each step is one matmul (``h @ W_hh.T``) and one cell kernel that adds
the gate sums and the bias, applies the gates and writes the new state and
what the backward step needs. The backward pass runs the steps in reverse:
one cell-backward kernel and one matmul (``dgates @ W_hh``) per step, then
``W_hh``'s gradient as a single matmul over all steps. Under ``gt.compile``
the two loops are library calls of the traced graph.

Only float32 and float64 run here; other dtypes, and a backward pass that is
itself recorded (``create_graph=True``), go through the cell written in
gtensor ops that the caller supplies.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import float32, float64
from ..graph.grad_mode import enable_grad, is_grad_enabled, no_grad
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from .dispatch import launch
from .elementwise import add
from .layout.copies import cat
from .tracing import library_calls

if TYPE_CHECKING:
    from ..tensor import Tensor

MODES = {"LSTM": 0, "GRU": 1, "RNN_TANH": 2, "RNN_RELU": 3}
GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
SAVED = {"LSTM": 4, "GRU": 4, "RNN_TANH": 0, "RNN_RELU": 0}

State = tuple["Tensor", ...]
Composed = Callable[..., tuple[Any, ...]]


def fused(gi: Tensor, weights: Sequence[Tensor | None]) -> bool:
    """True when :func:`rnn_scan` runs these operands (float32/float64, one device)."""
    dt = gi.dtype
    if dt is not float32 and dt is not float64:
        return False
    return all(w is None or (w.dtype is dt and w.device == gi.device) for w in weights)


def _offsets(batch_sizes: Sequence[int]) -> list[int]:
    offsets = [0]
    for n in batch_sizes:
        offsets.append(offsets[-1] + n)
    return offsets


class _Buffers:
    """The native arrays of a step loop's tensors, made once per loop.

    A cell argument its mode does not use is ``dummy``, never another
    argument's buffer: the CUDA simulator copies every array argument back
    after a launch, so an alias would overwrite what the kernel wrote.
    """

    def __init__(self, **tensors: Tensor | None) -> None:
        for name, t in tensors.items():
            setattr(self, name, None if t is None else t._native())


def _flat(a: Any, start: int, stop: int) -> Any:
    """Rows ``start:stop`` of the 2-D native ``a`` as a flat array."""
    return a[start:stop].reshape(-1)


def _prev_rows(state: Any, rows: Any, offsets: list[int], batch_sizes: Sequence[int],
               t: int, first: bool, reverse: bool, join: Any, copy: tuple[Any, ...]) -> Any:
    """The state step ``t`` starts from (native, ``batch_sizes[t]`` rows).

    It is the initial state at the first step, else the previous step's rows
    (going backward in time, the rows of sequences that start at ``t`` come
    from the initial state, assembled in ``join`` by two ``copy`` launches).
    """
    n = batch_sizes[t]
    if first:
        return state[:n]
    src = t + 1 if reverse else t - 1
    have = batch_sizes[src]
    block = rows[offsets[src]:offsets[src] + min(n, have)]
    if n <= have:
        return block
    launch(*copy, block, join[:have])
    launch(*copy, state[have:n], join[have:n])
    return join[:n]


def _forward(gi: Tensor, h0: Tensor, c0: Tensor, w_hh: Tensor, b_hh: Tensor | None,
             w_hr: Tensor | None, mode: str, batch_sizes: tuple[int, ...],
             reverse: bool) -> tuple[Tensor, ...]:
    """The forward loop: ``(out, h_n, c_n, acts, cs, rs)``, new tensors, nothing recorded."""
    dev, dt = gi.device, gi.dtype
    rows, hidden, width = gi.shape[0], w_hh.shape[0] // GATES[mode], w_hh.shape[1]
    batch = batch_sizes[0]
    new = functools.partial(TensorBase.empty, dt=dt, dev=dev)
    lstm = mode == "LSTM"
    t_out = new((rows, width))
    t_acts = new((rows, SAVED[mode] * hidden if SAVED[mode] else 1))
    t_cs = new((rows, hidden)) if lstm else t_out
    t_rs = new((rows, hidden)) if w_hr is not None else t_out
    h_n, c_n = new((batch, width)), new((batch, hidden)) if lstm else h0
    a = _Buffers(gi=gi, h0=h0, c0=c0, out=t_out, acts=t_acts, cs=t_cs, rs=t_rs, h_n=h_n,
                 c_n=c_n, hh=new((batch, GATES[mode] * hidden)), w_hh_t=w_hh.mT,
                 w_hr_t=None if w_hr is None else w_hr.mT,
                 b=b_hh if b_hh is not None else new((GATES[mode] * hidden,)),
                 hjoin=new((batch, width)), cjoin=new((batch, hidden)), dummy=new((1,)))
    if b_hh is None:
        launch("fill", dev, (dt,), a.b, 0)
    offsets = _offsets(batch_sizes)
    steps = len(batch_sizes)
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    mm, cell = ("matmul", dev, (dt, dt)), ("rnn_cell_forward", dev, (dt,))
    copy = ("copy", dev, (dt, dt))
    for i, t in enumerate(order):
        n, lo, hi = batch_sizes[t], offsets[t], offsets[t + 1]
        first = i == 0
        hprev = _prev_rows(a.h0, a.out, offsets, batch_sizes, t, first, reverse, a.hjoin, copy)
        cprev = _prev_rows(a.c0, a.cs, offsets, batch_sizes, t, first, reverse, a.cjoin, copy) \
            if lstm else hprev
        launch(*mm, hprev, a.w_hh_t, a.hh[:n])
        h_rows = a.rs[lo:hi] if w_hr is not None else a.out[lo:hi]
        launch(*cell, n * hidden, hidden, MODES[mode], _flat(a.gi, lo, hi), a.hh[:n].reshape(-1),
               a.b.reshape(-1), hprev.reshape(-1),
               cprev.reshape(-1) if lstm else a.dummy, h_rows.reshape(-1),
               _flat(a.cs, lo, hi) if lstm else a.dummy, _flat(a.acts, lo, hi))
        if w_hr is not None:
            launch(*mm, h_rows, a.w_hr_t, a.out[lo:hi])
    _finals(a.out, a.h_n, offsets, batch_sizes, reverse, dev, dt)
    if lstm:
        _finals(a.cs, a.c_n, offsets, batch_sizes, reverse, dev, dt)
    return t_out, h_n, c_n, t_acts, t_cs, t_rs


def _finals(rows: Any, final: Any, offsets: list[int], batch_sizes: Sequence[int],
            reverse: bool, dev: Any, dt: Any) -> None:
    """Copy each sequence's last state into ``final``: going forward, a sequence ends at its
    last step (the rows a step has beyond the next one's); backward, every one ends at 0."""
    copy = ("copy", dev, (dt, dt))
    if reverse:
        launch(*copy, rows[:batch_sizes[0]], final)
        return
    steps = len(batch_sizes)
    for t in range(steps):
        n, after = batch_sizes[t], batch_sizes[t + 1] if t + 1 < steps else 0
        if n > after:
            launch(*copy, rows[offsets[t] + after:offsets[t] + n], final[after:n])


def _backward(dout: Tensor, dh_n: Tensor, dc_n: Tensor, acts: Tensor, cs: Tensor,
              out: Tensor, rs: Tensor, h0: Tensor, c0: Tensor, w_hh: Tensor,
              w_hr: Tensor | None, mode: str, batch_sizes: tuple[int, ...],
              reverse: bool) -> tuple[Tensor, ...]:
    """The backward loop: ``(dgi, dhh, dh0, dc0, dh_all, skip)``, new tensors, not recorded.

    ``dhh`` is the gradient of the step matmuls' outputs (``dgi`` itself but
    for GRU); ``dh_all`` the total gradient of each step's projected output
    (with ``W_hr``, for its gradient; else ``dout``). GRU's ``dh0`` is
    ``dh0 + skip`` (the part of the gradient that skips ``W_hh``).
    """
    dev, dt = dout.device, dout.dtype
    rows, hidden, width = dout.shape[0], w_hh.shape[0] // GATES[mode], w_hh.shape[1]
    batch = batch_sizes[0]
    new = functools.partial(TensorBase.empty, dt=dt, dev=dev)
    lstm, gru = mode == "LSTM", mode == "GRU"
    t_dgi = new((rows, GATES[mode] * hidden))
    t_dhh = new((rows, GATES[mode] * hidden)) if gru else t_dgi
    dh0, dc0 = new((batch, width)), new((batch, hidden)) if lstm else dh_n
    t_dh_all = new((rows, width)) if w_hr is not None else dout
    skip = new((batch, width)) if gru else dh0
    copy = ("copy", dev, (dt, dt))
    a = _Buffers(dout=dout, acts=acts, cs=cs, out=out, rs=rs, h0=h0, c0=c0, w_hh=w_hh,
                 w_hr=w_hr, dgi=t_dgi, dhh=t_dhh, dh=dh0, dc=dc0, dh_all=t_dh_all, skip=skip,
                 dr=new((batch, hidden)) if w_hr is not None else None,
                 no_carry=new((batch, hidden)) if w_hr is not None else None,
                 hjoin=new((batch, width)), cjoin=new((batch, hidden)), dummy=new((1,)))
    launch(*copy, dh_n._native(), a.dh)
    if lstm:
        launch(*copy, dc_n._native(), a.dc)
    for zeroed in (a.skip if gru else None, a.no_carry):
        if zeroed is not None:
            launch("fill", dev, (dt,), zeroed, 0)
    offsets = _offsets(batch_sizes)
    steps = len(batch_sizes)
    order = list(range(steps) if reverse else range(steps - 1, -1, -1))
    first_step = order[-1]
    mm, cell = ("matmul", dev, (dt, dt)), ("rnn_cell_backward", dev, (dt,))
    for t in order:
        n, lo, hi = batch_sizes[t], offsets[t], offsets[t + 1]
        first = t == first_step
        hprev = _prev_rows(a.h0, a.out, offsets, batch_sizes, t, first, reverse, a.hjoin, copy)
        cprev = _prev_rows(a.c0, a.cs, offsets, batch_sizes, t, first, reverse, a.cjoin, copy) \
            if lstm else hprev
        if w_hr is not None:
            add(dout[lo:hi], dh0[:n], out=t_dh_all[lo:hi])
            launch(*mm, a.dh_all[lo:hi], a.w_hr, a.dr[:n])
            dy, dcarry = a.dr[:n].reshape(-1), a.no_carry[:n].reshape(-1)
        else:
            dy, dcarry = _flat(a.dout, lo, hi), a.dh[:n].reshape(-1)
        c_args = (_flat(a.cs, lo, hi), cprev.reshape(-1)) if lstm else (a.dummy, a.dummy)
        launch(*cell, n * hidden, hidden, MODES[mode], dy, dcarry,
               _flat(a.acts, lo, hi), *c_args, hprev.reshape(-1), _flat(a.out, lo, hi),
               _flat(a.dgi, lo, hi), _flat(a.dhh, lo, hi) if gru else a.dummy,
               a.dc[:n].reshape(-1) if lstm else a.dummy,
               a.skip[:n].reshape(-1) if gru else a.dummy)
        launch(*mm, a.dhh[lo:hi], a.w_hh, a.dh[:n])
    return t_dgi, t_dhh, dh0, dc0, t_dh_all, skip


def _prevs(out: Tensor, h0: Tensor, batch_sizes: Sequence[int], reverse: bool) -> Tensor:
    """The state each step started from, as rows aligned with ``out`` (for ``W_hh``'s grad)."""
    offsets = _offsets(batch_sizes)
    steps = len(batch_sizes)
    if all(n == batch_sizes[0] for n in batch_sizes):
        n = batch_sizes[0]
        return cat([out[n:], h0]) if reverse else cat([h0, out[:offsets[-1] - n]])
    parts = []
    for t in range(steps):
        n = batch_sizes[t]
        src = t + 1 if reverse else t - 1
        if not 0 <= src < steps:
            parts.append(h0[:n])
            continue
        have = min(n, batch_sizes[src])
        parts.append(out[offsets[src]:offsets[src] + have])
        if n > have:
            parts.append(h0[have:n])
    return cat(parts)


def _rnn_scan_vjp(ctx: Node, g_out: Tensor, g_hn: Tensor,
                  g_cn: Tensor | None = None) -> tuple[Any, ...]:
    gi, h0, c0, w_hh, b_hh, w_hr, out, acts, cs, rs = ctx.saved_tensors
    mode, batch_sizes, reverse = ctx.mode, ctx.batch_sizes, ctx.reverse
    lstm = mode == "LSTM"
    if is_grad_enabled():  # create_graph: differentiate the composed cell instead
        return _composed_grads(ctx, (g_out, g_hn, g_cn) if lstm else (g_out, g_hn))
    if g_cn is None:
        g_cn = g_hn
    shapes = [(gi.shape[0], gi.shape[1]), (gi.shape[0], gi.shape[1]), h0.shape,
              c0.shape if lstm else h0.shape, out.shape, h0.shape]
    dgi, dhh, dh0, dc0, dh_all, skip = library_calls(
        "rnn_scan_backward",
        functools.partial(_backward, mode=mode, batch_sizes=batch_sizes, reverse=reverse),
        (g_out.contiguous(), g_hn.contiguous(), g_cn.contiguous(), acts, cs, out, rs, h0, c0,
         w_hh, w_hr), [(s, gi.dtype) for s in shapes])
    if mode == "GRU":
        dh0 = dh0 + skip
    need = ctx.needs_input_grad
    d_whh = dhh.mT @ _prevs(out, h0, batch_sizes, reverse) if need[3] else None
    d_bhh = dhh.sum(0) if b_hh is not None and need[4] else None
    d_whr = dh_all.mT @ rs if w_hr is not None and need[5] else None
    return dgi, dh0, dc0 if lstm else None, d_whh, d_bhh, d_whr


def _composed_grads(ctx: Node, grads: tuple[Tensor, ...]) -> tuple[Any, ...]:
    """The gradients through the caller's composed loop, recorded (for ``create_graph``)."""
    gi, h0, c0, w_hh, b_hh, w_hr = ctx.saved_tensors[:6]
    state = (h0, c0) if ctx.mode == "LSTM" else (h0,)
    with enable_grad():
        found = ctx.composed(gi, state, w_hh, b_hh, w_hr, list(ctx.batch_sizes), ctx.reverse,
                             grads)
    gi_g, state_g, w_hh_g, b_hh_g, w_hr_g = found
    return (gi_g, state_g[0], state_g[1] if len(state_g) > 1 else None, w_hh_g, b_hh_g,
            w_hr_g)


def rnn_scan(mode: str, gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
             w_hr: Tensor | None, batch_sizes: Sequence[int], reverse: bool,
             composed: Composed) -> tuple[Tensor, State]:
    """Run one recurrent layer and direction over time-major rows.

    Args:
        mode: ``"LSTM"``, ``"GRU"``, ``"RNN_TANH"`` or ``"RNN_RELU"``.
        gi: the input projection of every step, ``(rows, gates * hidden)``, with ``b_ih``.
        state: the initial ``(h0,)`` or ``(h0, c0)``, ``batch_sizes[0]`` rows each.
        w_hh: ``(gates * hidden, width)``; ``width`` is the projection size with ``w_hr``.
        b_hh: ``(gates * hidden,)`` or None.
        w_hr: the LSTM projection ``(width, hidden)`` or None.
        batch_sizes: rows of each step, non-increasing.
        reverse: run from the last step to the first.
        composed: ``composed(gi, state, w_hh, b_hh, w_hr, batch_sizes, reverse, grads)``
            returns the gradients ``(gi, state, w_hh, b_hh, w_hr)`` of the same loop
            written in gtensor ops, recorded: the backward pass for ``create_graph``.

    Returns:
        The output rows ``(rows, width)`` and the final state, each sequence's
        taken at its own last step.

    Example:
        >>> gi, h0, w_hh = gt.tensor([[1.0], [1.0]]), gt.zeros(1, 1), gt.tensor([[2.0]])
        >>> out, (h,) = rnn_scan("RNN_RELU", gi, (h0,), w_hh, None, None, [1, 1], False, None)
        >>> out.tolist(), h.tolist()
        ([[1.0], [3.0]], [[3.0]])
    """
    lstm = mode == "LSTM"
    h0 = state[0].contiguous()
    c0 = state[1].contiguous() if lstm else h0
    sizes = tuple(batch_sizes)
    gi = gi.contiguous()
    rows, hidden, width = gi.shape[0], w_hh.shape[0] // GATES[mode], w_hh.shape[1]
    shapes = [(rows, width), (sizes[0], width), (sizes[0], hidden) if lstm else h0.shape,
              (rows, SAVED[mode] * hidden if SAVED[mode] else 1),
              (rows, hidden) if lstm else (rows, width),
              (rows, hidden) if w_hr is not None else (rows, width)]
    with no_grad():
        out, h_n, c_n, acts, cs, rs = library_calls(
            mode.lower(),
            functools.partial(_forward, mode=mode, batch_sizes=sizes, reverse=reverse),
            (gi, h0, c0, w_hh, b_hh, w_hr), [(s, gi.dtype) for s in shapes])
    record(mode.lower(), (out, h_n, c_n) if lstm else (out, h_n),
           (gi, h0, c0 if lstm else None, w_hh, b_hh, w_hr),
           _rnn_scan_vjp, save=[gi, h0, c0, w_hh, b_hh, w_hr, out, acts, cs, rs], mode=mode,
           batch_sizes=sizes, reverse=reverse, composed=composed)
    return out, ((h_n, c_n) if lstm else (h_n,))
