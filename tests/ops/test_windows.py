"""Window functions against torch: both flags of ``periodic``, lengths 0, 1 and more,
dtypes, devices and typed errors."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

NAMES = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


@pytest.mark.parametrize("name", NAMES)
def test_windows_match_torch(name):
    for periodic in (True, False):
        for n in (0, 1, 2, 7):
            got = getattr(gt, name)(n, periodic, dtype=gt.float64)
            want = getattr(torch, name)(n, periodic, dtype=torch.float64)
            assert got.shape == tuple(want.shape) and got.dtype is gt.float64
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-15)


def test_options_dtype_and_device(device):
    got = gt.hamming_window(6, alpha=0.5, beta=0.4, device=device)
    want = torch.hamming_window(6, True, 0.5, 0.4)
    assert got.dtype is gt.float32 and got.device.type == device
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    for beta in (0.0, 40.0) if device == "cpu" else (5.0,):  # the simulator runs each term
        np.testing.assert_allclose(
            gt.kaiser_window(9, False, beta, dtype=gt.float64, device=device).cpu().numpy(),
            torch.kaiser_window(9, False, beta, dtype=torch.float64).numpy(), rtol=1e-12,
            atol=1e-15)
    assert gt.hann_window(3, requires_grad=True).requires_grad


@pytest.mark.parametrize("name", NAMES)
def test_bad_input_names_the_op(name):
    with pytest.raises(ValueError, match=rf"^\[{name}\]"):
        getattr(gt, name)(-1)
    with pytest.raises(gt.DTypeError, match=rf"^\[{name}\]"):
        getattr(gt, name)(4, dtype=gt.int64)
