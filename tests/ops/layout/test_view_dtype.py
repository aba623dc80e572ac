"""``Tensor.view(dtype)``: reinterpreting bytes with PyTorch's rules for other element sizes."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.errors import GTensorError


@pytest.mark.parametrize(("dt", "np_dt"), [(gt.int32, np.int32), (gt.int16, np.int16),
                                           (gt.float64, np.float64), (gt.uint8, np.uint8)])
def test_view_dtype_matches_numpy(device, rng, dt, np_dt):
    a = rng.standard_normal((2, 4)).astype(np.float32)
    x = gt.tensor(a, device=device)
    got = x.view(dt)
    want = a.view(np_dt)
    assert got.dtype is dt and got.shape == want.shape
    np.testing.assert_array_equal(got.cpu().numpy(), want)


def test_view_dtype_shares_memory_and_rescales_layout(device):
    x = gt.zeros(2, 4, device=device)
    small = x.view(gt.int16)
    assert small.shape == (2, 8) and small.stride() == (8, 1)
    small[0, 1] = 0x3F80  # the high half of float32 1.0
    assert x.tolist()[0][0] == 1.0
    big = x[:, 2:].view(gt.float64)
    assert big.shape == (2, 1) and big.stride() == (2, 1) and big.storage_offset() == 1
    w = gt.ones(2, device=device, requires_grad=True)
    assert not w.view(gt.int32).requires_grad


@pytest.mark.parametrize(("make", "text"), [
    (lambda x: x.t().view(gt.int16), r"self.stride\(-1\) must be 1 to view float32 as int16"),
    (lambda x: x[:, :3].view(gt.float64), r"self.size\(-1\) must be divisible by 2"),
    (lambda x: x[:, 1:3].view(gt.float64), r"self.storage_offset\(\) must be divisible by 2"),
    (lambda x: x[0, 0].view(gt.int16), r"self.dim\(\) cannot be 0"),
])
def test_view_dtype_errors(device, make, text):
    x = gt.zeros(2, 4, device=device)
    with pytest.raises(GTensorError, match=r"^\[view\] " + text):
        make(x)
