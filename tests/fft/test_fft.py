"""gt.fft against torch.fft: values, dtypes and gradients (``torch.autograd``'s), on each device."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(3)
REAL = RNG.standard_normal((3, 4))
CPLX = REAL + 1j * RNG.standard_normal((3, 4))
WEIGHTS = RNG.standard_normal((8, 8, 2))  # a real loss: a weighted sum of the output's parts


def _fft(x):  # noqa: ANN001, ANN202 - the fft module of a tensor: gtensor's or torch's
    return torch.fft if isinstance(x, torch.Tensor) else gt.fft


# name -> (function, complex input?)
CASES = {
    "fft": (lambda x: _fft(x).fft(x), True),
    "fft_n_dim_ortho": (lambda x: _fft(x).fft(x, n=6, dim=0, norm="ortho"), True),
    "fft_of_real": (lambda x: _fft(x).fft(x, n=3), False),
    "ifft_forward": (lambda x: _fft(x).ifft(x, norm="forward"), True),
    "fft2_s": (lambda x: _fft(x).fft2(x, s=(2, 5)), True),
    "ifft2": (lambda x: _fft(x).ifft2(x), True),
    "fftn_ortho": (lambda x: _fft(x).fftn(x, norm="ortho"), True),
    "ifftn_dim": (lambda x: _fft(x).ifftn(x, s=(4,), dim=(0,)), True),
    "rfft": (lambda x: _fft(x).rfft(x), False),
    "rfft_n_forward": (lambda x: _fft(x).rfft(x, n=5, dim=0, norm="forward"), False),
    "irfft": (lambda x: _fft(x).irfft(x), True),
    "irfft_odd_ortho": (lambda x: _fft(x).irfft(x, n=5, norm="ortho"), True),
    "rfft2": (lambda x: _fft(x).rfft2(x), False),
    "irfft2_s": (lambda x: _fft(x).irfft2(x, s=(3, 6)), True),
    "rfftn_forward": (lambda x: _fft(x).rfftn(x, norm="forward"), False),
    "irfftn": (lambda x: _fft(x).irfftn(x), True),
    "hfft": (lambda x: _fft(x).hfft(x), True),
    "hfft_odd_ortho": (lambda x: _fft(x).hfft(x, n=7, norm="ortho"), True),
    "ihfft": (lambda x: _fft(x).ihfft(x), False),
    "ihfft_forward": (lambda x: _fft(x).ihfft(x, n=3, dim=0, norm="forward"), False),
    "hfft2_s": (lambda x: _fft(x).hfft2(x, s=(2, 5)), True),
    "hfftn_dim_ortho": (lambda x: _fft(x).hfftn(x, dim=(0,), norm="ortho"), True),
    "ihfft2": (lambda x: _fft(x).ihfft2(x), False),
    "ihfftn_s_forward": (lambda x: _fft(x).ihfftn(x, s=(2, 5), norm="forward"), False),
    "fftshift": (lambda x: _fft(x).fftshift(x), True),
    "ifftshift_dim": (lambda x: _fft(x).ifftshift(x, dim=1), False),
}


def _same(got: gt.Tensor, want: torch.Tensor, tol: float) -> None:
    assert got.dtype.name == str(want.dtype).removeprefix("torch."), (got.dtype, want.dtype)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().resolve_conj().numpy(),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_transforms_and_gradients_against_torch(device: str, dtype: str):
    real = "float32" if dtype == "complex64" else "float64"
    tol = 1e-4 if dtype == "complex64" else 1e-10
    for fn, complex_input in CASES.values():
        data = (CPLX if complex_input else REAL).astype(dtype if complex_input else real)
        x = gt.tensor(data, device=device, requires_grad=True)
        t = torch.tensor(data, requires_grad=True)
        got, want = fn(x), fn(t)
        _same(got, want, tol)
        w = WEIGHTS[tuple(slice(n) for n in got.shape)]
        w = w if got.dtype.is_complex else w[..., 0]
        (gt.view_as_real(got) if got.dtype.is_complex else got).mul(
            gt.tensor(w, device=device)).sum().backward()
        want = want.resolve_conj()
        (torch.view_as_real(want) if want.is_complex() else want).mul(torch.tensor(w)).sum(
            ).backward()
        _same(x.grad, t.grad, 10 * tol)


def test_dtypes_frequencies_and_errors():
    assert gt.fft.fft(gt.ones(4, dtype=gt.float16)).dtype is gt.complex64
    assert gt.fft.rfft(gt.arange(4)).dtype is gt.complex64
    assert gt.fft.irfft(gt.ones(3, dtype=gt.complex128)).dtype is gt.float64
    for n, d in ((5, 1.0), (4, 0.1), (0, 1.0)):
        _same(gt.fft.fftfreq(n, d), torch.fft.fftfreq(n, d), 1e-7)
        _same(gt.fft.rfftfreq(n, d, dtype=gt.float64), torch.fft.rfftfreq(n, d,
                                                                          dtype=torch.float64), 0)
    with pytest.raises(ValueError, match=r"^\[fft.fft\] invalid normalization mode 'twice'"):
        gt.fft.fft(gt.ones(4), norm="twice")
    with pytest.raises(gt.DTypeError, match=r"^\[fft.rfft\] expects a real input tensor"):
        gt.fft.rfft(gt.ones(4, dtype=gt.complex64))
    with pytest.raises(ValueError, match=r"^\[fft.fft\] invalid number of data points \(0\)"):
        gt.fft.fft(gt.ones(4), n=0)
    with pytest.raises(gt.ShapeError, match=r"^\[fft.fft\] expected a tensor with at least one"):
        gt.fft.fft(gt.tensor(1.0))
    out = gt.empty(2, 3, dtype=gt.complex64)
    assert gt.fft.ifft2(gt.ones(2, 3), out=out) is out and out[0, 0].item() == 1
    with pytest.raises(gt.ShapeError, match=r"^\[irfft\] out has shape \(3,\)"):
        gt.fft.irfft(gt.ones(3, dtype=gt.complex64), out=gt.empty(3))
