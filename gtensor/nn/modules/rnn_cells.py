"""Recurrent cells (RNNCell, LSTMCell, GRUCell) and the time loop the layers share.

A step takes the input projection ``gi = x @ W_ih.T + b_ih`` already
computed, so a layer can project a whole sequence with one matmul and loop
over time only for the recurrent part. In float32 and float64 the loop is
the fused op :func:`gtensor.ops.recurrent.rnn_scan` (a matmul and one cell
kernel per step, forward and backward); otherwise, and for a recorded
backward pass, it is :func:`scan` over the steps below, written in gtensor
ops. Gate order is PyTorch's: LSTM ``i, f, g, o``; GRU ``r, z, n`` with
``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from ...autograd import grad as autograd_grad
from ...errors import check
from ...graph.autocast_mode import autocast_inputs
from ...ops.creation import empty, zeros
from ...ops.layout.copies import cat
from ...ops.recurrent import fused, rnn_scan
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

State = tuple[Tensor, ...]
Step = Callable[[Tensor, State, Tensor, Tensor | None, Tensor | None], State]


def _rnn_tanh_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
                   w_hr: Tensor | None) -> State:
    return (F.tanh(gi + F.linear(state[0], w_hh, b_hh)),)


def _rnn_relu_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
                   w_hr: Tensor | None) -> State:
    return (F.relu(gi + F.linear(state[0], w_hh, b_hh)),)


def scan(step: Step, gi: Tensor, state: State, weights: tuple[Tensor | None, ...],
         batch_sizes: list[int], reverse: bool) -> tuple[Tensor, State]:
    """Run ``step`` over time on time-major rows ``gi``; return the outputs and final state.

    Step ``t`` owns ``batch_sizes[t]`` rows of ``gi``, a non-increasing
    prefix of the batch. Going forward, rows that stop are set aside as
    their sequence's final state; going backward, rows join from ``state``
    when their sequence starts. This is the loop in gtensor ops, for dtypes
    the fused loop (:func:`recurrence`) does not run and for its
    ``create_graph`` backward pass.
    """
    pieces = gi.split(batch_sizes)
    outputs: list[Tensor] = list(pieces)
    if reverse:
        full = state
        state = tuple(s[:batch_sizes[-1]] for s in full)
        for t in reversed(range(len(batch_sizes))):
            n, have = batch_sizes[t], state[0].shape[0]
            if n > have:
                state = tuple(cat([s, f[have:n]]) for s, f in zip(state, full, strict=True))
            state = step(pieces[t], state, *weights)
            outputs[t] = state[0]
        return cat(outputs), state
    finished: list[State] = []
    for t, n in enumerate(batch_sizes):
        if n < state[0].shape[0]:
            finished.append(tuple(s[n:] for s in state))
            state = tuple(s[:n] for s in state)
        state = step(pieces[t], state, *weights)
        outputs[t] = state[0]
    if finished:
        state = tuple(cat([s, *reversed(rest)]) for s, *rest in zip(state, *finished, strict=True))
    return cat(outputs), state


def _scan_grads(mode: str, gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
                w_hr: Tensor | None, batch_sizes: list[int], reverse: bool,
                grads: tuple[Tensor, ...]) -> tuple[Any, ...]:
    """The gradients of :func:`scan` for ``grads``, recorded (the fused loop's double backward)."""
    out, last = scan(STEPS[mode], gi, state, (w_hh, b_hh, w_hr), batch_sizes, reverse)
    inputs = [gi, *state, w_hh, b_hh, w_hr]
    live = [i for i, x in enumerate(inputs) if x is not None and x.requires_grad]
    found = autograd_grad([out, *last], [inputs[i] for i in live], list(grads),
                          create_graph=True, allow_unused=True)
    result: list[Any] = [None] * len(inputs)
    for i, g in zip(live, found, strict=True):
        result[i] = g
    k = len(state)
    return result[0], tuple(result[1:1 + k]), result[1 + k], result[2 + k], result[3 + k]


def recurrence(mode: str, gi: Tensor, state: State, weights: tuple[Tensor | None, ...],
               batch_sizes: list[int], reverse: bool) -> tuple[Tensor, State]:
    """One layer and direction over time-major rows: the fused loop where it runs, else
    :func:`scan`. ``weights`` is ``(w_hh, b_hh, w_hr)``."""
    gi, state, weights = autocast_inputs("recurrence", gi, state, weights)
    if fused(gi, (*state, *weights)):
        return rnn_scan(mode, gi, state, *weights, batch_sizes, reverse,
                        functools.partial(_scan_grads, mode))
    return scan(STEPS[mode], gi, state, weights, batch_sizes, reverse)


def _lstm_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
               w_hr: Tensor | None) -> State:
    h, c = state
    i, f, g, o = (gi + F.linear(h, w_hh, b_hh)).chunk(4, dim=-1)
    c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    h = F.sigmoid(o) * F.tanh(c)
    return (h if w_hr is None else F.linear(h, w_hr), c)


def _gru_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
              w_hr: Tensor | None) -> State:
    h = state[0]
    i_r, i_z, i_n = gi.chunk(3, dim=-1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, dim=-1)
    r = F.sigmoid(i_r + h_r)
    z = F.sigmoid(i_z + h_z)
    n = F.tanh(i_n + r * h_n)
    return (n + z * (h - n),)


STEPS: dict[str, Step] = {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step,
                          "LSTM": _lstm_step, "GRU": _gru_step}
GATES: dict[str, int] = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def rnn_mode(nonlinearity: str) -> str:
    """The step name of an Elman RNN with ``nonlinearity`` ("tanh" or "relu")."""
    check(nonlinearity in ("tanh", "relu"), "RNN",
          lambda: f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.",
          ValueError)
    return f"RNN_{nonlinearity.upper()}"


def reset_uniform(module: Module, hidden_size: int) -> None:
    """Draw every parameter of ``module`` from ``U(-1/sqrt(hidden), 1/sqrt(hidden))``."""
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0.0
    for p in module.parameters():
        init.uniform_(p, -bound, bound)


class RNNCellBase(Module):
    """Parameters and input checks shared by the three cells."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, mode: str,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self._mode = mode
        rows = GATES[mode] * hidden_size
        self.weight_ih = Parameter(empty(rows, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(empty(rows, hidden_size, device=device, dtype=dtype))
        for name in ("bias_ih", "bias_hh"):
            self.register_parameter(name, Parameter(empty(rows, device=device, dtype=dtype))
                                    if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every parameter from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""
        reset_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _run(self, input: Tensor, hx: State | None) -> State:
        """One step on ``input`` (1-D or 2-D) from state ``hx`` (zeros when None)."""
        name = type(self).__name__
        check(input.ndim in (1, 2), name,
              lambda: f"Expected input to be 1D or 2D, got {input.ndim}D instead", ValueError)
        check(input.shape[-1] == self.input_size, name,
              lambda: f"input has inconsistent input_size: got {input.shape[-1]} expected "
                      f"{self.input_size}", RuntimeError)
        batched = input.ndim == 2
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            hx = tuple(zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
                       for _ in range(2 if self._mode == "LSTM" else 1))
        else:
            for h in hx:
                check(h.ndim == input.ndim, name,
                      lambda h=h: f"Expected hidden to be {input.ndim}D, got {h.ndim}D "
                                  "instead", ValueError)
            hx = hx if batched else tuple(h.unsqueeze(0) for h in hx)
            for i, h in enumerate(hx):
                check(h.shape[0] == x.shape[0], name,
                      lambda h=h, i=i: f"Input batch size {x.shape[0]} doesn't match "
                                       f"hidden{i} batch size {h.shape[0]}", RuntimeError)
                check(h.shape[1] == self.hidden_size, name,
                      lambda h=h, i=i: f"hidden{i} has inconsistent hidden_size: got "
                                       f"{h.shape[1]}, expected {self.hidden_size}",
                      RuntimeError)
        gi = F.linear(x, self.weight_ih, self.bias_ih)
        _, out = recurrence(self._mode, gi, hx, (self.weight_hh, self.bias_hh, None),
                            [x.shape[0]], False)
        return out if batched else tuple(h.squeeze(0) for h in out)


class RNNCell(RNNCellBase):
    """An Elman cell: ``h' = act(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)``.

    Args:
        input_size: features of ``x``.
        hidden_size: features of ``h``.
        bias: learn ``b_ih`` and ``b_hh``.
        nonlinearity: ``"tanh"`` or ``"relu"``.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> cell = gt.nn.RNNCell(4, 3)
        >>> cell(gt.randn(2, 4)).shape
        (2, 3)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, rnn_mode(nonlinearity), device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """Return the next hidden state, ``(N, hidden)`` or ``(hidden,)`` unbatched."""
        return self._run(input, None if hx is None else (hx,))[0]


class LSTMCell(RNNCellBase):
    """A long short-term memory cell with gates ``i, f, g, o`` (PyTorch's order).

    Args:
        input_size: features of ``x``.
        hidden_size: features of ``h`` and ``c``.
        bias: learn ``b_ih`` and ``b_hh``.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> h, c = gt.nn.LSTMCell(4, 3)(gt.randn(2, 4))
        >>> h.shape, c.shape
        ((2, 3), (2, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, "LSTM", device, dtype)

    def forward(self, input: Tensor,
                hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        """Return the next ``(h, c)``; ``hx`` defaults to zeros."""
        h, c = self._run(input, hx)
        return h, c


class GRUCell(RNNCellBase):
    """A gated recurrent unit with gates ``r, z, n`` (PyTorch's order and formula).

    Args:
        input_size: features of ``x``.
        hidden_size: features of ``h``.
        bias: learn ``b_ih`` and ``b_hh``.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> gt.nn.GRUCell(4, 3)(gt.randn(4)).shape
        (3,)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, "GRU", device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """Return the next hidden state, ``(N, hidden)`` or ``(hidden,)`` unbatched."""
        return self._run(input, None if hx is None else (hx,))[0]
