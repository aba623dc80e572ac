"""``interpolate`` on 3-D ``(N, C, L)`` input (modes nearest and linear) against PyTorch's rules."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck


def _linear_ref(a: np.ndarray, out_len: int, scale: float | None, align: bool) -> np.ndarray:
    n = a.shape[-1]
    if align:
        step = (n - 1) / (out_len - 1) if out_len > 1 else 0.0
        src = np.arange(out_len) * step
    else:
        step = 1.0 / scale if scale is not None else n / out_len
        src = np.maximum((np.arange(out_len) + 0.5) * step - 0.5, 0.0)
    lo = np.minimum(np.floor(src).astype(int), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    frac = src - lo
    return a[..., lo] * (1 - frac) + a[..., hi] * frac


@pytest.mark.parametrize(("kw", "out_len"), [
    ({"size": 7, "mode": "linear"}, 7),
    ({"scale_factor": 1.5, "mode": "linear"}, 7),
    ({"size": 3, "mode": "linear", "align_corners": True}, 3),
])
def test_interpolate_linear_3d(device, rng, kw, out_len):
    a = rng.standard_normal((2, 3, 5))
    got = gt.interpolate(gt.tensor(a, device=device), **kw)
    want = _linear_ref(a, out_len, kw.get("scale_factor"), bool(kw.get("align_corners")))
    assert got.shape == (2, 3, out_len)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-12)


@pytest.mark.parametrize(("kw", "index"), [
    ({"scale_factor": 2}, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]),
    ({"size": 3}, [0, 1, 3]),
    ({"size": (8,), "mode": "nearest"}, [0, 0, 1, 1, 2, 3, 3, 4]),
])
def test_interpolate_nearest_3d(device, rng, kw, index):
    a = rng.standard_normal((1, 2, 5))
    got = gt.interpolate(gt.tensor(a, device=device), **kw)
    np.testing.assert_array_equal(got.cpu().numpy(), a[..., index])


def test_interpolate_linear_3d_gradient(device, rng):
    x = gt.tensor(rng.standard_normal((1, 2, 4)), device=device, requires_grad=True)
    assert gradcheck(lambda t: gt.interpolate(t, size=6, mode="linear"), (x,))


def test_interpolate_mode_rank_errors(device):
    with pytest.raises(gt.ShapeError, match=r"^\[interpolate\] expected 4-D input for mode "
                       "'bilinear'"):
        gt.interpolate(gt.ones(1, 1, 4, device=device), scale_factor=2, mode="bilinear")
    with pytest.raises(gt.ShapeError, match=r"^\[interpolate\] expected 3-D input for mode "
                       "'linear'"):
        gt.interpolate(gt.ones(1, 1, 2, 2, device=device), scale_factor=2, mode="linear")
    with pytest.raises(ValueError, match=r"^\[interpolate\] size must be a number or a "
                       "sequence of 1"):
        gt.interpolate(gt.ones(1, 1, 4, device=device), size=(2, 2))
