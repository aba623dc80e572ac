"""Multi-layer recurrent layers: RNN, LSTM and GRU, in PyTorch's shape.

Each layer and direction projects its whole input with one matmul
(``x @ W_ih.T + b_ih`` over every time step), then runs the recurrent part
with :func:`.rnn_cells.recurrence` (fused per-step kernels). The sequence is
kept as time-major rows ``(sum of batch sizes, features)``: a padded batch is
the case where every step has the full batch, and a packed sequence runs each
step on the prefix of the batch still active, so both take one path.
"""

from __future__ import annotations

import warnings
from typing import Any

from ...errors import check
from ...ops.creation import empty, zeros
from ...ops.layout.copies import cat, stack
from ...tensor import Tensor
from .. import functional as F
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module
from .rnn_cells import GATES, State, recurrence, reset_uniform, rnn_mode

_WEIGHTS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")


class RNNBase(Module):
    """Parameters, checks and the layer loop shared by RNN, LSTM and GRU.

    Parameters are registered per layer and direction in PyTorch's order
    (``weight_ih_l{k}[_reverse]``, ``weight_hh``, ``bias_ih``, ``bias_hh``,
    ``weight_hr``), so ``state_dict()`` keys and shapes equal PyTorch's.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        name = type(self).__name__
        check(isinstance(dropout, (int, float)) and not isinstance(dropout, bool)
              and 0 <= dropout <= 1, name,
              "dropout should be a number in range [0, 1] representing the probability of an "
              "element being zeroed", ValueError)
        check(isinstance(hidden_size, int) and hidden_size > 0, name,
              "hidden_size must be greater than zero", ValueError)
        check(num_layers > 0, name, "num_layers must be greater than zero", ValueError)
        check(proj_size >= 0, name,
              "proj_size should be a positive integer or zero to disable projections",
              ValueError)
        check(proj_size < hidden_size, name, "proj_size has to be smaller than hidden_size",
              ValueError)
        check(mode == "LSTM" or proj_size == 0, name,
              "proj_size argument is only supported for LSTM, not RNN or GRU", ValueError)
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        out_size = proj_size or hidden_size
        rows = GATES[mode] * hidden_size
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else out_size * directions
            for direction in range(directions):
                shapes = {"weight_ih": (rows, layer_input), "weight_hh": (rows, out_size)}
                if bias:
                    shapes.update(bias_ih=(rows,), bias_hh=(rows,))
                if proj_size:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                names = []
                for base, shape in shapes.items():
                    setattr(self, base + suffix,
                            Parameter(empty(*shape, device=device, dtype=dtype)))
                    names.append(base + suffix)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every parameter from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""
        reset_uniform(self, self.hidden_size)

    def flatten_parameters(self) -> None:
        """Do nothing: the weights are used where they are (PyTorch's cpu behaviour)."""

    @property
    def _flat_weights_names(self) -> list[str]:
        return [n for names in self._all_weights for n in names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction, in registration order."""
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _weights(self, index: int) -> tuple[Tensor | None, ...]:
        """``(weight_ih, weight_hh, bias_ih, bias_hh, weight_hr)`` of one layer and direction."""
        suffix = self._all_weights[index][0][len("weight_ih"):]
        return tuple(self._parameters.get(base + suffix) for base in _WEIGHTS)

    def _state_shapes(self, batch: int) -> list[tuple[int, ...]]:
        count = self.num_layers * (2 if self.bidirectional else 1)
        shapes = [(count, batch, self.proj_size or self.hidden_size)]
        if self.mode == "LSTM":
            shapes.append((count, batch, self.hidden_size))
        return shapes

    def _check_state(self, hx: State, batch: int) -> None:
        for i, (h, shape) in enumerate(zip(hx, self._state_shapes(batch), strict=True)):
            label = f"hidden[{i}]" if self.mode == "LSTM" else "hidden"
            check(tuple(h.shape) == shape, type(self).__name__,
                  lambda h=h, shape=shape, label=label:
                  f"Expected {label} size {shape}, got {list(h.shape)}", RuntimeError)

    def _check_features(self, input: Tensor) -> None:
        check(input.shape[-1] == self.input_size, type(self).__name__,
              lambda: f"input.size(-1) must be equal to input_size. Expected "
                      f"{self.input_size}, got {input.shape[-1]}", RuntimeError)

    def _run(self, input: Tensor | PackedSequence,
             hx: State | None) -> tuple[Tensor | PackedSequence, State]:
        """Run every layer; return the output and the final states, PyTorch's shapes."""
        if isinstance(input, PackedSequence):
            return self._run_packed(input, hx)
        name = type(self).__name__
        check(input.ndim in (2, 3), name,
              lambda: f"Expected input to be 2D or 3D, got {input.ndim}D instead", ValueError)
        self._check_features(input)
        batched = input.ndim == 3
        if hx is not None:
            for h in hx:
                check(h.ndim == input.ndim, name,
                      lambda h=h: f"For {'batched 3' if batched else 'unbatched 2'}-D input, "
                                  f"hx should also be {input.ndim}-D but got {h.ndim}-D tensor",
                      RuntimeError)
        x = input if batched else input.unsqueeze(1)
        if hx is not None and not batched:
            hx = tuple(h.unsqueeze(1) for h in hx)
        if self.batch_first and batched:
            x = x.transpose(0, 1)
        steps, batch = x.shape[0], x.shape[1]
        out, hn = self._layers(x.reshape(steps * batch, x.shape[2]), [batch] * steps, hx)
        out = out.reshape(steps, batch, out.shape[-1])
        if not batched:
            return out.squeeze(1), tuple(h.squeeze(1) for h in hn)
        return (out.transpose(0, 1) if self.batch_first else out), hn

    def _run_packed(self, input: PackedSequence,
                    hx: State | None) -> tuple[PackedSequence, State]:
        """Run on a packed batch; ``hx`` and the final states are in the caller's batch order."""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        self._check_features(data)
        if hx is not None and sorted_indices is not None:
            hx = tuple(h.index_select(1, sorted_indices) for h in hx)
        out, hn = self._layers(data, batch_sizes.tolist(), hx)
        if unsorted_indices is not None:
            hn = tuple(h.index_select(1, unsorted_indices) for h in hn)
        return PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices), hn

    def _layers(self, rows: Tensor, batch_sizes: list[int],
                hx: State | None) -> tuple[Tensor, State]:
        """Run the stack on time-major rows; ``batch_sizes[0]`` is the batch."""
        batch = batch_sizes[0]
        if hx is None:
            hx = tuple(zeros(*shape, dtype=rows.dtype, device=rows.device)
                       for shape in self._state_shapes(batch))
        else:
            self._check_state(hx, batch)
        directions = 2 if self.bidirectional else 1
        finals: list[State] = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(index)
                out, last = recurrence(self.mode, F.linear(rows, w_ih, b_ih),
                                       tuple(h[index] for h in hx), (w_hh, b_hh, w_hr),
                                       batch_sizes, direction == 1)
                outputs.append(out)
                finals.append(last)
            rows = outputs[0] if directions == 1 else cat(outputs, dim=-1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                rows = F.dropout(rows, self.dropout, True)
        return rows, tuple(stack(list(parts)) for parts in zip(*finals, strict=True))


class RNN(RNNBase):
    """A multi-layer Elman RNN: ``h_t = act(x_t @ W_ih.T + b_ih + h_(t-1) @ W_hh.T + b_hh)``.

    Args:
        input_size: features of the input.
        hidden_size: features of the hidden state.
        num_layers: stacked layers.
        nonlinearity: ``"tanh"`` or ``"relu"``.
        bias: learn ``b_ih`` and ``b_hh``.
        batch_first: inputs and outputs are ``(N, L, *)`` (else ``(L, N, *)``).
        dropout: dropout on each layer's output but the last, in training.
        bidirectional: run a second pass backward in time and concatenate.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> out, h_n = gt.nn.RNN(4, 3, num_layers=2)(gt.randn(5, 2, 4))
        >>> out.shape, h_n.shape
        ((5, 2, 3), (2, 2, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(rnn_mode(nonlinearity), input_size, hidden_size, num_layers, bias,
                         batch_first, dropout, bidirectional, 0, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor | PackedSequence,
                hx: Tensor | None = None) -> tuple[Tensor | PackedSequence, Tensor]:
        """Return ``(output, h_n)``; ``hx`` is ``(layers * directions, N, hidden)`` or None."""
        out, (h,) = self._run(input, None if hx is None else (hx,))
        return out, h


class LSTM(RNNBase):
    """A multi-layer long short-term memory network (gates ``i, f, g, o``).

    Args:
        input_size: features of the input.
        hidden_size: features of the cell state (and of ``h`` without projection).
        num_layers: stacked layers.
        bias: learn ``b_ih`` and ``b_hh``.
        batch_first: inputs and outputs are ``(N, L, *)`` (else ``(L, N, *)``).
        dropout: dropout on each layer's output but the last, in training.
        bidirectional: run a second pass backward in time and concatenate.
        proj_size: project ``h`` to this size with ``weight_hr`` (0: no projection).
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> out, (h_n, c_n) = gt.nn.LSTM(4, 3)(gt.randn(5, 2, 4))
        >>> out.shape, c_n.shape
        ((5, 2, 3), (1, 2, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def forward(self, input: Tensor | PackedSequence, hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor | PackedSequence, tuple[Tensor, Tensor]]:
        """Return ``(output, (h_n, c_n))``; ``hx`` is ``(h_0, c_0)`` or None (zeros)."""
        out, (h, c) = self._run(input, hx)
        return out, (h, c)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit network (gates ``r, z, n``).

    Args:
        input_size: features of the input.
        hidden_size: features of the hidden state.
        num_layers: stacked layers.
        bias: learn ``b_ih`` and ``b_hh``.
        batch_first: inputs and outputs are ``(N, L, *)`` (else ``(L, N, *)``).
        dropout: dropout on each layer's output but the last, in training.
        bidirectional: run a second pass backward in time and concatenate.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> import gtensor as gt
        >>> out, h_n = gt.nn.GRU(4, 3, bidirectional=True)(gt.randn(5, 2, 4))
        >>> out.shape, h_n.shape
        ((5, 2, 6), (2, 2, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)

    def forward(self, input: Tensor | PackedSequence,
                hx: Tensor | None = None) -> tuple[Tensor | PackedSequence, Tensor]:
        """Return ``(output, h_n)``; ``hx`` is ``(layers * directions, N, hidden)`` or None."""
        out, (h,) = self._run(input, None if hx is None else (hx,))
        return out, h
