"""One time step of a recurrent cell, per hidden unit, written once for the CPU and CUDA.

Element ``k`` of a step is row ``k // hidden`` (a sequence of the batch) and
unit ``k % hidden``; every array is a flat, row-major buffer. The gate sums
``gi`` (input projection, with ``b_ih``) and ``hh`` (``h @ W_hh.T``, without
``b_hh``) have ``gates * hidden`` columns in PyTorch's gate order: LSTM
``i, f, g, o``, GRU ``r, z, n``. The forward step saves per row what the
backward step reads (``acts``): LSTM the four activated gates, GRU ``r, z, n``
and the hidden part of ``n`` (``hh_n + b_hn``); the Elman cells read their
output back instead.

Modes: ``LSTM`` 0, ``GRU`` 1, ``RNN_TANH`` 2, ``RNN_RELU`` 3. Float64
buffers take the C library's ``tanh`` and ``exp``; float32 ones the backend's
``exp`` (on the CPU one whose loops vectorize); see :func:`tanh`. The functions take
no flags that stay fixed through a loop (bias or not, precision): a branch
on one in the inner loop measured 2-2.5x slower on the CPU.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable

from .jit_build import build_functions

exp = math.exp
"""The ``exp`` of the fast paths; a backend binds its own (see :func:`build`)."""


def sigmoid(x, precise):  # noqa: ANN001, ANN201
    """``1 / (1 + exp(-x))``, with the backend's ``exp`` unless ``precise``."""
    if precise:
        return 1.0 / (1.0 + math.exp(-x))
    return 1.0 / (1.0 + exp(-x))


def tanh(x, precise):  # noqa: ANN001, ANN201
    """``tanh(x)``; unless ``precise``, as ``2 / (1 + exp(-2x)) - 1`` in float64.

    The C library's ``tanh`` measured 4-5x slower than ``exp`` in a Numba loop
    on the CPU. The ``exp`` form is within 1e-14 of ``tanh`` everywhere with
    the CPU's arithmetic ``exp`` (1e-16 with the C library's), so exact to
    float32 rounding but for results under about 1e-7 in magnitude: float32
    cells take it, float64 ones ``math.tanh``.
    """
    if precise:
        return math.tanh(x)
    return 2.0 / (1.0 + exp(-2.0 * x)) - 1.0


def cell_forward(row, j, hidden, mode, gi, hh, b, hprev, cprev, h, c, acts):  # noqa: ANN001, ANN201
    """Write unit ``j`` of ``row``: its new hidden (``h``) and cell (``c``, LSTM) state and
    its saved gates. ``b`` is ``b_hh`` (zeros without a bias)."""
    k = row * hidden + j
    precise = gi.itemsize == 8
    if mode == 0:
        base = row * 4 * hidden + j
        pre_i = gi[base] + hh[base] + b[j]
        pre_f = gi[base + hidden] + hh[base + hidden] + b[j + hidden]
        pre_g = gi[base + 2 * hidden] + hh[base + 2 * hidden] + b[j + 2 * hidden]
        pre_o = gi[base + 3 * hidden] + hh[base + 3 * hidden] + b[j + 3 * hidden]
        i = sigmoid(pre_i, precise)
        f = sigmoid(pre_f, precise)
        g = tanh(pre_g, precise)
        o = sigmoid(pre_o, precise)
        cell = f * cprev[k] + i * g
        c[k] = cell
        h[k] = o * tanh(cell, precise)
        acts[base] = i
        acts[base + hidden] = f
        acts[base + 2 * hidden] = g
        acts[base + 3 * hidden] = o
    elif mode == 1:
        base = row * 3 * hidden + j
        pre_r = gi[base] + hh[base] + b[j]
        pre_z = gi[base + hidden] + hh[base + hidden] + b[j + hidden]
        hn = hh[base + 2 * hidden] + b[j + 2 * hidden]
        r = sigmoid(pre_r, precise)
        z = sigmoid(pre_z, precise)
        n = tanh(gi[base + 2 * hidden] + r * hn, precise)
        h[k] = n + z * (hprev[k] - n)
        saved = row * 4 * hidden + j
        acts[saved] = r
        acts[saved + hidden] = z
        acts[saved + 2 * hidden] = n
        acts[saved + 3 * hidden] = hn
    else:
        pre = gi[k] + hh[k] + b[j]
        if mode == 2:
            h[k] = tanh(pre, precise)
        else:
            h[k] = pre if pre > 0.0 else 0.0 * pre


def cell_backward(row, j, hidden, mode, dy, dcarry, acts, c, cprev, hprev, h, dgi, dhh, dc,  # noqa: ANN001, ANN201
                  dskip):
    """Write unit ``j`` of ``row``: its gate-sum gradients and those of the previous step.

    ``dy`` is the gradient of the step's output and ``dcarry`` the one from
    the next step (zeros when there is none). LSTM reads and
    overwrites ``dc`` (the cell-state gradient, in place). GRU adds, and then
    overwrites in place, ``dskip``: the part of the previous hidden state's
    gradient that skips ``W_hh`` (``dh * z``), which the next step adds.
    ``dhh`` differs from ``dgi`` only for GRU (``n``'s hidden part is scaled
    by ``r``); the other cells pass the same buffer twice.
    """
    k = row * hidden + j
    precise = dy.itemsize == 8
    dh = dy[k] + dcarry[k]
    if mode == 0:
        base = row * 4 * hidden + j
        i = acts[base]
        f = acts[base + hidden]
        g = acts[base + 2 * hidden]
        o = acts[base + 3 * hidden]
        tc = tanh(c[k], precise)
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


DEVICE_FUNCTIONS = ("sigmoid", "tanh", "cell_forward", "cell_backward")


def build(jit: Callable[[Callable], Callable],
          exp: Callable | None = None) -> types.SimpleNamespace:
    """Compile the functions in ``DEVICE_FUNCTIONS`` with ``jit``, bound to each other.

    ``exp``: the compiled exponential the float32 cells use (default ``math.exp``).

    Example:
        >>> import numba
        >>> build(numba.njit).sigmoid(0.0, True)
        0.5
    """
    return build_functions(globals(), DEVICE_FUNCTIONS, jit,
                           None if exp is None else {"exp": exp})
