"""Native arrays handed to kernels keep their storage alive (issue 12: use after free)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from conv_reference import conv2d_ref, conv_transpose2d_ref

import gtensor as gt


def _strided(a: np.ndarray, device: str) -> gt.Tensor:
    """A non-contiguous tensor equal to ``a`` (its last two dims stored transposed)."""
    t = gt.tensor(np.ascontiguousarray(np.swapaxes(a, -1, -2)), device=device).transpose(-1, -2)
    assert not t.is_contiguous()
    return t


def test_conv2d_of_two_transposed_operands(device):
    x = gt.tensor([[[[0.0, 1.0], [2.0, 3.0]]]], device=device).transpose(2, 3)
    w = gt.tensor([[[[1.0, 10.0], [100.0, 1000.0]]]], device=device).transpose(2, 3)
    assert gt.conv2d(x, w).tolist() == [[[[3210.0]]]]


def test_conv2d_non_contiguous_operands_match_numpy(device, rng):
    x = rng.standard_normal((1, 2, 4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    b6 = rng.standard_normal(6).astype(np.float32)
    b, bt = b6[::2], gt.tensor(b6, device=device)[::2]
    got = gt.conv2d(_strided(x, device), _strided(w, device), bt, padding=1)
    want = conv2d_ref(x, w, b, (1, 1), (1, 1, 1, 1), (1, 1), 1)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-5, atol=1e-5)


def test_conv1d_non_contiguous_operands_match_numpy(device, rng):
    x = rng.standard_normal((1, 2, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2)).astype(np.float32)
    xt = gt.tensor(np.ascontiguousarray(x.transpose(0, 2, 1)), device=device).transpose(1, 2)
    wt = gt.tensor(np.ascontiguousarray(w.transpose(0, 2, 1)), device=device).transpose(1, 2)
    assert not xt.is_contiguous() and not wt.is_contiguous()
    got = gt.conv1d(xt, wt)
    want = conv2d_ref(x[:, :, None], w[:, :, None], None, (1, 1), (0, 0, 0, 0), (1, 1), 1)[:, :, 0]
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-5, atol=1e-5)


def test_conv_transpose2d_non_contiguous_operands_match_numpy(device, rng):
    x = rng.standard_normal((1, 2, 3, 2)).astype(np.float32)
    w = rng.standard_normal((2, 3, 2, 2)).astype(np.float32)
    got = gt.conv_transpose2d(_strided(x, device), _strided(w, device), stride=2)
    want = conv_transpose2d_ref(x, w, None, (2, 2), (0, 0), (0, 0), (1, 1), 1)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-5, atol=1e-5)


def test_native_array_keeps_its_storage_alive(device):
    t = gt.arange(4.0, device=device) * 2
    native = t._native()
    ref = weakref.ref(t._storage)
    del t
    gc.collect()
    assert ref() is not None
    assert gt.arange(4.0, device=device).tolist() == [0.0, 1.0, 2.0, 3.0]  # may reuse freed memory
    host = native.copy_to_host() if hasattr(native, "copy_to_host") else np.asarray(native)
    np.testing.assert_array_equal(host, [0.0, 2.0, 4.0, 6.0])
    del native, host
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("method", ["_native", "numpy"])
def test_native_array_makes_no_reference_cycle(method):
    gc.collect()
    gc.disable()
    try:
        t = gt.arange(4.0)
        getattr(t, method)()
        ref = weakref.ref(t._storage)
        del t
        assert ref() is None  # freed by reference counting, not left to the cyclic collector
    finally:
        gc.enable()
