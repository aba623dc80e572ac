"""The float functions of gtensor.ops.float_math against NumPy at IEEE edge values.

signbit, copysign, nextafter, hypot, logaddexp, asinh, acosh and atanh at
signed zeros, infinities, NaNs and subnormals, on cpu and cuda, and their
gradients.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -1.0, 2.5, 1e-40, 3e38])
def _same(got: np.ndarray, want: np.ndarray, nan_sign: bool = False) -> np.ndarray:
    """Equal values, NaN for NaN, the same sign on zeros (and on NaNs with ``nan_sign``)."""
    signed = (want == 0) | (np.isnan(want) & nan_sign)
    close = np.isclose(got, want, rtol=2e-6, atol=0) | (np.isnan(got) & np.isnan(want))
    return close & ((np.signbit(got) == np.signbit(want)) | ~signed)


@pytest.mark.filterwarnings("ignore:.*encountered in scalar:RuntimeWarning")  # simulator
def test_special_values_match_numpy(device: str) -> None:
    vals = SPECIAL.astype("float64" if device == "cpu" else "float32")  # both widths of bits
    x = gt.tensor(vals, device=device)
    a, b = np.meshgrid(vals, vals)
    xa, xb = gt.tensor(a, device=device), gt.tensor(b, device=device)
    with np.errstate(all="ignore"):
        for name, ref in (("signbit", np.signbit), ("asinh", np.arcsinh), ("acosh", np.arccosh),
                          ("atanh", np.arctanh)):
            got = getattr(gt, name)(x).cpu().numpy()
            assert _same(got, ref(vals)).all(), (name, vals, got)
        for name, ref in (("copysign", np.copysign), ("hypot", np.hypot),
                          ("logaddexp", np.logaddexp), ("nextafter", np.nextafter)):
            got, want = getattr(gt, name)(xa, xb).cpu().numpy(), ref(a, b)
            ok = _same(got, want, nan_sign=name == "copysign")
            assert ok.all(), (name, a[~ok], b[~ok], got[~ok])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_and_integer_inputs(dtype: str) -> None:
    half = gt.bfloat16 if dtype == "bfloat16" else gt.float16
    values = np.array([1.0, -1.0, 0.0, -0.0, 3.5], dtype=half.numpy)
    x = gt.tensor(values.astype(np.float32), dtype=half)
    up = gt.nextafter(x, gt.tensor(math.inf, dtype=half)).numpy()
    np.testing.assert_array_equal(up.view(np.uint16), np.nextafter(
        values, half.numpy.type(np.inf)).view(np.uint16))
    assert gt.signbit(x).tolist() == [False, True, False, True, False]
    assert gt.hypot(x, x).dtype is half and gt.asinh(x).dtype is half
    assert gt.hypot(gt.tensor([3]), gt.tensor([4])).tolist() == [5.0]
    assert gt.hypot(gt.tensor([3]), 4).dtype is gt.get_default_dtype()
    assert gt.signbit(gt.tensor([-2, 0, 3])).tolist() == [True, False, False]
    assert gt.copysign(2.0, gt.tensor([-0.0, 1.0])).tolist() == [-2.0, 2.0]


@pytest.mark.parametrize("name", ["copysign", "hypot", "logaddexp"])
def test_binary_float_functions_differentiate(name: str) -> None:
    rng = np.random.default_rng(5)
    a = gt.tensor(rng.uniform(0.5, 2.0, 4), dtype=gt.float64, requires_grad=True)
    b = gt.tensor(rng.uniform(-2.0, 2.0, 4), dtype=gt.float64, requires_grad=True)
    assert gradcheck(getattr(gt, name), (a, b))


def test_inverse_hyperbolics_differentiate() -> None:
    rng = np.random.default_rng(6)
    x = gt.tensor(rng.uniform(-0.8, 0.8, 4), dtype=gt.float64, requires_grad=True)
    y = gt.tensor(rng.uniform(1.5, 3.0, 4), dtype=gt.float64, requires_grad=True)
    assert gradcheck(lambda x, y: (gt.asinh(x), gt.atanh(x), gt.acosh(y)), (x, y))


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_logaddexp_infinities_dtypes_and_complex(name: str, device: str) -> None:
    f = getattr(gt, name)
    a = gt.tensor([math.inf, -math.inf, 1.0], device=device, requires_grad=True)
    b = gt.tensor([3.0, 0.0, 1.0], device=device, requires_grad=True)
    f(a, b).sum().backward()
    assert a.grad.tolist() == [1.0, 0.0, 0.5] and b.grad.tolist() == [0.0, 1.0, 0.5]
    half = gt.tensor([1.0], dtype=gt.float16, device=device)
    assert f(gt.tensor([2], device=device), half).dtype is gt.float16  # as torch promotes
    z = gt.tensor([1 + 1j], device=device)
    with pytest.raises(gt.DTypeError, match=rf"^\[{name}\]"):
        f(z, z)
