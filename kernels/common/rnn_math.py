"""One time step of a recurrent cell, per hidden unit, written once for the CPU and CUDA.

Element ``k`` of a step is row ``k // hidden`` (a sequence of the batch) and
unit ``k % hidden``; every array is a flat, row-major buffer. The gate sums
``gi`` (input projection, with ``b_ih``) and ``hh`` (``h @ W_hh.T``, without
``b_hh``) have ``gates * hidden`` columns in PyTorch's gate order: LSTM
``i, f, g, o``, GRU ``r, z, n``. The forward step saves per row what the
backward step reads (``acts``): LSTM the four activated gates, GRU ``r, z, n``
and the hidden part of ``n`` (``hh_n + b_hn``); the Elman cells read their
output back instead.

Modes: ``LSTM`` 0, ``GRU`` 1, ``RNN_TANH`` 2, ``RNN_RELU`` 3.
"""

from __future__ import annotations

import math

MODES = {"LSTM": 0, "GRU": 1, "RNN_TANH": 2, "RNN_RELU": 3}
GATES = (4, 3, 1, 1)
SAVED = (4, 4, 0, 0)  # saved activations per hidden unit, by mode


def cell_forward(k, hidden, mode, gi, hh, b, has_bias, hprev, cprev, h, c, acts):  # noqa: ANN001, ANN201
    """Write unit ``k``'s new hidden (``h``) and cell (``c``, LSTM) state and its saved gates."""
    row = k // hidden
    j = k - row * hidden
    if mode == 0:
        base = row * 4 * hidden + j
        pre_i = gi[base] + hh[base]
        pre_f = gi[base + hidden] + hh[base + hidden]
        pre_g = gi[base + 2 * hidden] + hh[base + 2 * hidden]
        pre_o = gi[base + 3 * hidden] + hh[base + 3 * hidden]
        if has_bias:
            pre_i += b[j]
            pre_f += b[j + hidden]
            pre_g += b[j + 2 * hidden]
            pre_o += b[j + 3 * hidden]
        i = 1.0 / (1.0 + math.exp(-pre_i))
        f = 1.0 / (1.0 + math.exp(-pre_f))
        g = math.tanh(pre_g)
        o = 1.0 / (1.0 + math.exp(-pre_o))
        cell = f * cprev[k] + i * g
        c[k] = cell
        h[k] = o * math.tanh(cell)
        acts[base] = i
        acts[base + hidden] = f
        acts[base + 2 * hidden] = g
        acts[base + 3 * hidden] = o
    elif mode == 1:
        base = row * 3 * hidden + j
        pre_r = gi[base] + hh[base]
        pre_z = gi[base + hidden] + hh[base + hidden]
        hn = hh[base + 2 * hidden]
        if has_bias:
            pre_r += b[j]
            pre_z += b[j + hidden]
            hn += b[j + 2 * hidden]
        r = 1.0 / (1.0 + math.exp(-pre_r))
        z = 1.0 / (1.0 + math.exp(-pre_z))
        n = math.tanh(gi[base + 2 * hidden] + r * hn)
        h[k] = n + z * (hprev[k] - n)
        saved = row * 4 * hidden + j
        acts[saved] = r
        acts[saved + hidden] = z
        acts[saved + 2 * hidden] = n
        acts[saved + 3 * hidden] = hn
    else:
        pre = gi[k] + hh[k]
        if has_bias:
            pre += b[j]
        if mode == 2:
            h[k] = math.tanh(pre)
        else:
            h[k] = pre if pre > 0.0 else 0.0 * pre


def cell_backward(k, hidden, mode, dy, dcarry, carry, acts, c, cprev, hprev, h,  # noqa: ANN001, ANN201
                  dgi, dhh, dc, dskip):
    """Write unit ``k``'s gate-sum gradients and the gradients that flow to the previous step.

    ``dy`` is the gradient of the step's output; with ``carry`` the gradient
    from the next step, ``dcarry``, is added to it. LSTM reads and
    overwrites ``dc`` (the cell-state gradient, in place). GRU adds, and then
    overwrites in place, ``dskip``: the part of the previous hidden state's
    gradient that skips ``W_hh`` (``dh * z``), which the next step adds.
    ``dhh`` differs from ``dgi`` only for GRU (``n``'s hidden part is scaled
    by ``r``); the other cells pass the same buffer twice.
    """
    dh = dy[k]
    if carry:
        dh += dcarry[k]
    row = k // hidden
    j = k - row * hidden
    if mode == 0:
        base = row * 4 * hidden + j
        i = acts[base]
        f = acts[base + hidden]
        g = acts[base + 2 * hidden]
        o = acts[base + 3 * hidden]
        tc = math.tanh(c[k])
        dcell = dc[k] + dh * o * (1.0 - tc * tc)
        dgi[base] = dcell * g * i * (1.0 - i)
        dgi[base + hidden] = dcell * cprev[k] * f * (1.0 - f)
        dgi[base + 2 * hidden] = dcell * i * (1.0 - g * g)
        dgi[base + 3 * hidden] = dh * tc * o * (1.0 - o)
        dc[k] = dcell * f
    elif mode == 1:
        dh += dskip[k]
        saved = row * 4 * hidden + j
        r = acts[saved]
        z = acts[saved + hidden]
        n = acts[saved + 2 * hidden]
        hn = acts[saved + 3 * hidden]
        dn = dh * (1.0 - z) * (1.0 - n * n)
        dr = dn * hn * r * (1.0 - r)
        dz = dh * (hprev[k] - n) * z * (1.0 - z)
        base = row * 3 * hidden + j
        dgi[base] = dr
        dgi[base + hidden] = dz
        dgi[base + 2 * hidden] = dn
        dhh[base] = dr
        dhh[base + hidden] = dz
        dhh[base + 2 * hidden] = dn * r
        dskip[k] = dh * z
    elif mode == 2:
        y = h[k]
        dgi[k] = dh * (1.0 - y * y)
    else:
        dgi[k] = dh if h[k] > 0.0 else 0.0
