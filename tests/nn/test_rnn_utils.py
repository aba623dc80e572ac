"""PackedSequence and the pad/pack helpers of nn.utils.rnn against torch.nn.utils.rnn."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.nn.utils import rnn as R

torch = pytest.importorskip("torch")
T = torch.nn.utils.rnn


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths,enforce_sorted", [([4, 3, 1], True), ([2, 4, 3], False)])
def test_pack_pad_round_trip_matches_torch(lengths, enforce_sorted, batch_first, rng) -> None:
    shape = (3, 4, 2) if batch_first else (4, 3, 2)
    x = rng.standard_normal(shape, dtype=np.float32)
    tp = T.pack_padded_sequence(torch.tensor(x), lengths, batch_first, enforce_sorted)
    gx = gt.tensor(x, requires_grad=True)
    gp = R.pack_padded_sequence(gx, gt.tensor(lengths), batch_first, enforce_sorted)
    np.testing.assert_array_equal(_np(gp.data), _np(tp.data))
    assert gp.batch_sizes.dtype == gt.int64 and gp.batch_sizes.device.type == "cpu"
    assert gp.batch_sizes.tolist() == tp.batch_sizes.tolist()
    for mine, theirs in [(gp.sorted_indices, tp.sorted_indices),
                         (gp.unsorted_indices, tp.unsorted_indices)]:
        assert (None if mine is None else mine.tolist()) == \
            (None if theirs is None else theirs.tolist())
    want, want_lengths = T.pad_packed_sequence(tp, batch_first, -1.0, total_length=5)
    got, got_lengths = R.pad_packed_sequence(gp, batch_first, -1.0, total_length=5)
    np.testing.assert_array_equal(_np(got), _np(want))
    assert got_lengths.tolist() == want_lengths.tolist() == lengths
    got.sum().backward()
    running = (np.arange(4)[:, None] < np.array(lengths)[None, :]).astype(np.float32)
    running = running.T if batch_first else running
    np.testing.assert_array_equal(_np(gx.grad), np.broadcast_to(running[..., None], shape))


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_matches_torch(side, batch_first, rng) -> None:
    seqs = [rng.standard_normal((n, 2), dtype=np.float32) for n in (2, 4, 1)]
    want = T.pad_sequence([torch.tensor(s) for s in seqs], batch_first, 7.0, side)
    got = R.pad_sequence([gt.tensor(s) for s in seqs], batch_first, 7.0, side)
    np.testing.assert_array_equal(_np(got), _np(want))
    if side == "right":
        for s, back in zip(seqs, R.unpad_sequence(got, [2, 4, 1], batch_first), strict=True):
            np.testing.assert_array_equal(_np(back), s)


def test_pack_sequence_unpack_and_to(rng) -> None:
    seqs = [rng.standard_normal(n, dtype=np.float32) for n in (2, 5, 3)]
    tp = T.pack_sequence([torch.tensor(s) for s in seqs], enforce_sorted=False)
    gp = R.pack_sequence([gt.tensor(s) for s in seqs], enforce_sorted=False)
    np.testing.assert_array_equal(_np(gp.data), _np(tp.data))
    for s, u in zip(seqs, R.unpack_sequence(gp), strict=True):
        np.testing.assert_array_equal(_np(u), s)
    wide = gp.to(gt.float64)
    assert wide.data.dtype == gt.float64 and wide.batch_sizes is gp.batch_sizes
    assert wide.sorted_indices.tolist() == [1, 2, 0] and gp.to(gt.float32) is gp
    rebuilt = R.PackedSequence((gp.data, gp.batch_sizes), sorted_indices=gp.sorted_indices)
    assert rebuilt.unsorted_indices.tolist() == tp.unsorted_indices.tolist() == [2, 0, 1]


@pytest.mark.parametrize("make,exc,match", [
    (lambda: R.pack_padded_sequence(gt.zeros(3, 2), [1, 2]), RuntimeError,
     r"\[pack_padded_sequence\] `lengths` array must be sorted in decreasing order"),
    (lambda: R.pack_padded_sequence(gt.zeros(3, 2), [2, 0]), RuntimeError,
     r"\[pack_padded_sequence\] Length of all samples has to be greater than 0"),
    (lambda: R.pack_padded_sequence(gt.zeros(3, 2), [3, 2, 1]), RuntimeError,
     r"Expected `len\(lengths\)` to be equal to batch_size, but got 3 \(batch_size=2\)"),
    (lambda: R.pack_padded_sequence(gt.zeros(3, 2), [4, 2]), RuntimeError,
     "a length of 4 exceeds the 3 steps of the input"),
    (lambda: R.pad_packed_sequence(R.pack_sequence([gt.zeros(3)]), total_length=2), ValueError,
     r"\[pad_packed_sequence\] Expected total_length to be at least"),
    (lambda: R.pad_sequence([gt.zeros(2)], padding_side="mid"), RuntimeError,
     "Expected padding_side to be one of left or right, but got mid."),
])
def test_errors(make, exc, match) -> None:
    with pytest.raises(exc, match=match):
        make()
