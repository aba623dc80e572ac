"""Bad indices on a CUDA device: no host round trip, never out of bounds, raised at the next sync.

The same behaviour on a real GPU and on the simulator; the CPU raises at once.
"""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt

MESSAGE = r"^\[getitem\] index 5 is out of bounds for dimension 0 with size 3$"


def test_bad_index_is_raised_at_the_next_synchronize_and_only_once():
    x = gt.tensor([1.0, 2.0, 3.0], device="cuda")
    idx = gt.tensor([2, 5, 0], device="cuda")
    before = gt.transfer_count()
    y = x[idx]
    assert gt.transfer_count() == before  # the check made no host round trip
    with pytest.raises(IndexError, match=MESSAGE):
        gt.cuda.synchronize()
    gt.cuda.synchronize()  # taken: raised once
    np.testing.assert_array_equal(y.cpu().numpy(), [3.0, 0.0, 1.0])  # the bad row reads zero


@pytest.mark.parametrize("sync", [
    lambda t: t.cpu(), lambda t: t.sum().item(), lambda t: t.tolist(),
    lambda t: gt.cuda.current_stream().synchronize(),
], ids=["cpu", "item", "tolist", "stream"])
def test_every_synchronizing_call_raises_it(sync):
    x = gt.zeros(3, device="cuda")
    y = x[gt.tensor([5], device="cuda")]
    with pytest.raises(IndexError, match=MESSAGE):
        sync(y)


def test_a_bad_row_of_a_scatter_writes_nothing():
    x = gt.zeros(3, device="cuda")
    idx, values = gt.tensor([1, 7], device="cuda"), gt.tensor([4.0, 9.0], device="cuda")
    x[idx] = values
    with pytest.raises(IndexError, match=r"^\[setitem\] index 7 is out of bounds"):
        gt.cuda.synchronize()
    np.testing.assert_array_equal(x.cpu().numpy(), [0.0, 4.0, 0.0])


def test_the_first_error_wins_until_it_is_taken():
    x = gt.zeros(3, device="cuda")
    i, j = gt.tensor([9], device="cuda"), gt.tensor([4], device="cuda")
    x.gather(0, i)
    x.index_select(0, j)
    with pytest.raises(IndexError, match=r"^\[gather\] index 9"):
        gt.cuda.synchronize()
    gt.cuda.synchronize()


def test_cpu_raises_at_once():
    x = gt.zeros(3)
    with pytest.raises(IndexError, match=MESSAGE):
        x[gt.tensor([5])]


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_rows_of_a_view_with_negative_strides(device):
    x = gt.arange(5.0, device=device)[::-1]
    np.testing.assert_array_equal(x[gt.tensor([1, 2, -1], device=device)].cpu().numpy(),
                                  [3.0, 2.0, 0.0])
    y = gt.zeros(5, device=device)
    y[::-1][gt.tensor([1], device=device)] = 7.0
    np.testing.assert_array_equal(y.cpu().numpy(), [0.0, 0.0, 0.0, 7.0, 0.0])
