"""Variable-length sequences for recurrent layers: PackedSequence and pad/pack helpers.

A packed sequence stores the steps of a batch of sequences sorted by
decreasing length as time-major rows: step ``t`` holds ``batch_sizes[t]``
rows, one per sequence still running. Packing and padding are computed as
one row index on the host (from the lengths, which live there) and applied
with a single ``index_select``, so they are differentiable and run on the
data's device. ``batch_sizes`` is an int64 cpu tensor, as in PyTorch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...dtypes import float32, float64, int64
from ...errors import check
from ...ops.creation import arange, full, tensor
from ...ops.layout.copies import cat
from ...tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of a 1-D index permutation (None stays None).

    Example:
        >>> invert_permutation(gt.tensor([2, 0, 1])).tolist()
        [1, 2, 0]
    """
    if permutation is None:
        return None
    positions = arange(permutation.shape[0], dtype=int64, device=permutation.device)
    return positions.scatter(0, permutation, positions)


class _PackedFields(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(_PackedFields):
    """A batch of sequences packed time-major; the input and output of packed RNN calls.

    Build it with :func:`pack_padded_sequence` or :func:`pack_sequence`.

    Attributes:
        data: ``(sum(batch_sizes), *)`` rows, step by step.
        batch_sizes: int64 cpu tensor, the number of sequences running at each step.
        sorted_indices: the batch order by decreasing length (None if the input was sorted).
        unsorted_indices: its inverse, to restore the original order.

    Example:
        >>> import gtensor as gt
        >>> p = gt.nn.utils.rnn.pack_sequence([gt.ones(3, 2), gt.ones(1, 2)])
        >>> p.batch_sizes.tolist()
        [2, 1, 1]
    """

    __slots__ = ()

    def __new__(cls, data: Any, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None) -> PackedSequence:
        if batch_sizes is None:
            data, batch_sizes = data
        check(batch_sizes.device.type == "cpu" and batch_sizes.ndim == 1,
              "PackedSequence", "batch_sizes should be a 1-D tensor on the cpu", RuntimeError)
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """Move or cast ``data`` (the indices follow its device; batch_sizes stays on the cpu)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        indices = (None if i is None else i.to(data.device)
                   for i in (self.sorted_indices, self.unsorted_indices))
        return type(self)(data, self.batch_sizes, *indices)

    def cpu(self) -> PackedSequence:
        """Move the data to the cpu."""
        return self.to("cpu")

    def cuda(self, device: int | str | None = None) -> PackedSequence:
        """Move the data to a CUDA device (the current one by default)."""
        return self.to(f"cuda:{device}" if isinstance(device, int) else (device or "cuda"))

    def float(self) -> PackedSequence:
        """Cast the data to float32."""
        return self.to(dtype=float32)

    def double(self) -> PackedSequence:
        """Cast the data to float64."""
        return self.to(dtype=float64)

    @property
    def is_cuda(self) -> bool:
        """Whether the data lives on a CUDA device."""
        return self.data.is_cuda


def _host_lengths(lengths: Any) -> np.ndarray:
    if isinstance(lengths, Tensor):
        return lengths.detach().cpu().numpy().astype(np.int64).reshape(-1)
    return np.asarray(lengths, dtype=np.int64).reshape(-1)


def _gather_rows(rows: Tensor, index: np.ndarray, shape: tuple[int, ...]) -> Tensor:
    """``rows[index]`` (rows of a 2-D-or-more tensor) reshaped to ``shape + rows' trailing``."""
    picked = rows.index_select(0, tensor(index.reshape(-1), dtype=int64, device=rows.device))
    return picked.reshape(*shape, *rows.shape[1:])


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` if batch_first) of given lengths.

    Args:
        input: the padded batch.
        lengths: each sequence's length (a list or a cpu tensor).
        batch_first: the batch is dimension 0.
        enforce_sorted: require lengths in decreasing order; when False the
            batch is sorted here and ``sorted_indices`` records the order.

    Example:
        >>> padded = gt.tensor([[1.0, 4.0], [2.0, 0.0], [3.0, 0.0]])  # (T, B): lengths 3 and 1
        >>> p = pack_padded_sequence(padded, [3, 1])
        >>> p.data, p.batch_sizes
        (tensor([1., 4., 2., 3.]), tensor([2, 1, 1]))
    """
    op = "pack_padded_sequence"
    lens = _host_lengths(lengths)
    steps, batch = (input.shape[1], input.shape[0]) if batch_first else input.shape[:2]
    check(len(lens) == batch, op, lambda: f"Expected `len(lengths)` to be equal to batch_size, "
          f"but got {len(lens)} (batch_size={batch})", RuntimeError)
    check(bool((lens > 0).all()), op, "Length of all samples has to be greater than 0, but "
          "found an element in 'lengths' that is <= 0", RuntimeError)
    check(int(lens.max()) <= steps, op, lambda: f"a length of {int(lens.max())} exceeds the "
          f"{steps} steps of the input", RuntimeError)
    if enforce_sorted:
        check(bool((lens[:-1] >= lens[1:]).all()), op,
              "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
              "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
              "pack_sequence to sidestep this requirement if you do not need ONNX "
              "exportability.", RuntimeError)
        order, sorted_indices = np.arange(batch), None
    else:
        order = np.argsort(-lens, kind="stable")
        sorted_indices = tensor(order, dtype=int64, device=input.device)
    running = lens[order][None, :] > np.arange(int(lens.max()))[:, None]
    t, j = np.nonzero(running)
    b = order[j]
    index = b * steps + t if batch_first else t * batch + b
    rows = input.reshape(steps * batch, *input.shape[2:])
    return PackedSequence(_gather_rows(rows, index, (len(index),)),
                          tensor(running.sum(axis=1), dtype=int64), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Unpack into a padded batch and the lengths (inverse of :func:`pack_padded_sequence`).

    Args:
        sequence: the packed batch.
        batch_first: return ``(B, T, *)`` instead of ``(T, B, *)``.
        padding_value: the value of the padded positions.
        total_length: pad to this many steps (at least the longest length).

    Returns:
        ``(padded, lengths)``, with lengths an int64 cpu tensor in the original batch order.

    Example:
        >>> packed = pack_sequence([gt.tensor([1.0, 2.0]), gt.tensor([3.0])])
        >>> pad_packed_sequence(packed, batch_first=True)
        (tensor([[1., 2.],
                [3., 0.]]), tensor([2, 1]))
    """
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = batch_sizes.numpy()
    steps, batch = len(sizes), int(sizes[0])
    if total_length is not None:
        check(total_length >= steps, "pad_packed_sequence",
              lambda: "Expected total_length to be at least the length of the longest sequence "
                      f"in input, but got total_length={total_length} and max sequence length "
                      f"being {steps}", ValueError)
        steps = total_length
    running = np.arange(batch)[None, :] < sizes[:, None]
    position = np.full((steps, batch), data.shape[0], dtype=np.int64)
    position[:len(sizes)][running] = np.arange(data.shape[0])
    lengths = running.sum(axis=0)
    if unsorted_indices is not None:
        unsort = unsorted_indices.cpu().numpy()
        position, lengths = position[:, unsort], lengths[unsort]
    if batch_first:
        position = position.T
    pad = full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    return (_gather_rows(cat([data, pad]), position, position.shape),
            tensor(lengths, dtype=int64))


def pad_sequence(sequences: Sequence[Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> Tensor:
    """Stack sequences of lengths ``L_i`` (shape ``(L_i, *)``) into one padded batch.

    Args:
        sequences: the sequences, trailing dimensions equal.
        batch_first: return ``(B, T, *)`` instead of ``(T, B, *)``.
        padding_value: the value of the padded positions.
        padding_side: pad after (``"right"``) or before (``"left"``) each sequence.

    Example:
        >>> pad_sequence([gt.tensor([1.0, 2.0, 3.0]), gt.tensor([4.0])], batch_first=True)
        tensor([[1., 2., 3.],
                [4., 0., 0.]])
    """
    op = "pad_sequence"
    check(padding_side in ("left", "right"), op, lambda: "Expected padding_side to be one of "
          f"left or right, but got {padding_side}.", RuntimeError)
    check(len(sequences) > 0, op, "received an empty list of sequences", RuntimeError)
    lengths = np.array([s.shape[0] for s in sequences], dtype=np.int64)
    steps, first = int(lengths.max()), sequences[0]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    shift = 0 if padding_side == "right" else steps - lengths
    t = np.arange(steps)[None, :] - np.asarray(shift).reshape(-1, 1)
    position = np.where((t >= 0) & (t < lengths[:, None]), starts[:, None] + t, lengths.sum())
    if not batch_first:
        position = position.T
    pad = full((1, *first.shape[1:]), padding_value, dtype=first.dtype, device=first.device)
    return _gather_rows(cat([*sequences, pad]), position, position.shape)


def unpad_sequence(padded_sequences: Tensor, lengths: Any,
                   batch_first: bool = False) -> list[Tensor]:
    """Split a padded batch back into its sequences (inverse of :func:`pad_sequence`).

    Example:
        >>> unpad_sequence(gt.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 0.0]]), [3, 1], batch_first=True)
        [tensor([1., 2., 3.]), tensor([4.])]
    """
    batch = padded_sequences if batch_first else padded_sequences.transpose(0, 1)
    return [batch[i, :int(n)] for i, n in enumerate(_host_lengths(lengths))]


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences ``(L_i, *)`` (sorted by decreasing length unless told not).

    Example:
        >>> pack_sequence([gt.tensor([1.0, 2.0, 3.0]), gt.tensor([4.0, 5.0])]).data  # step-major
        tensor([1., 4., 2., 5., 3.])
    """
    return pack_padded_sequence(pad_sequence(sequences), [s.shape[0] for s in sequences],
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Turn a packed batch back into its list of sequences, in the original order.

    Example:
        >>> packed = pack_sequence([gt.tensor([1.0]), gt.tensor([2.0, 3.0])], enforce_sorted=False)
        >>> unpack_sequence(packed)
        [tensor([1.]), tensor([2., 3.])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
