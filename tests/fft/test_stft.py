"""stft and istft against torch: frames, windows, centring, padding modes, normalisation,
one- and two-sided spectra, gradients, round trips and refusals naming the op."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SIGNAL = np.random.default_rng(0).standard_normal((2, 20))
CASES = [dict(n_fft=8),
         dict(n_fft=8, hop_length=3, win_length=6, hann=True),
         dict(n_fft=8, center=False, normalized=True),
         dict(n_fft=6, pad_mode="constant", onesided=False)]


def same(got, want, tol=1e-10):
    want = want.detach()
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), atol=tol, rtol=tol)


def windows(kw, device):
    if not kw.pop("hann", False):
        return None, None
    n = kw["win_length"]
    return (gt.hann_window(n, dtype=gt.float64, device=device),
            torch.hann_window(n, dtype=torch.float64))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_stft_istft_match_torch(case, device):
    kw = dict(CASES[case])
    gw, tw = windows(kw, device)
    x = gt.tensor(SIGNAL, device=device, requires_grad=True)
    tx = torch.tensor(SIGNAL, requires_grad=True)
    spec = gt.stft(x, window=gw, return_complex=True, **kw)
    tspec = torch.stft(tx, window=tw, return_complex=True, **kw)
    same(spec, tspec)
    (spec.abs() ** 2).sum().backward()
    (tspec.abs() ** 2).sum().backward()
    same(x.grad, tx.grad, 1e-9)
    same(x[0].detach().stft(window=gw, return_complex=True, **kw), tspec[0])
    ikw = {k: v for k, v in kw.items() if k != "pad_mode"}
    s = gt.tensor(tspec.detach().numpy(), device=device, requires_grad=True)
    ts = tspec.detach().clone().requires_grad_()
    back, tback = gt.istft(s, window=gw, length=20, **ikw), torch.istft(ts, window=tw,
                                                                        length=20, **ikw)
    same(back, tback)
    w = np.random.default_rng(1).standard_normal((2, 20))
    (back * gt.tensor(w, device=device)).sum().backward()
    (tback * torch.tensor(w)).sum().backward()
    same(s.grad, ts.grad)


def test_round_trip_and_real_output(device):
    x = gt.tensor(SIGNAL[0], device=device)
    w = gt.hann_window(8, dtype=gt.float64, device=device)
    spec = x.stft(8, 2, window=w, return_complex=True)
    same(gt.istft(spec, 8, 2, window=w, length=20), torch.tensor(SIGNAL[0]))
    z = SIGNAL[0] + 1j * SIGNAL[1]
    cs, tcs = gt.stft(gt.tensor(z, device=device), 8, 2), torch.stft(torch.tensor(z), 8, 2,
                                                                      return_complex=True)
    same(cs, tcs)
    same(gt.istft(cs, 8, 2, onesided=False, return_complex=True),
         torch.istft(tcs, 8, 2, onesided=False, return_complex=True))
    parts = gt.stft(x, 8, return_complex=False)
    same(parts, torch.stft(torch.tensor(SIGNAL[0]), 8, return_complex=False))


def test_refusals(device):
    x = gt.tensor(SIGNAL, device=device)
    with pytest.raises(ValueError, match=r"\[stft\] return_complex"):
        gt.stft(x, 8)
    with pytest.raises(gt.ShapeError, match=r"\[stft\]"):
        gt.stft(x.reshape(1, 2, 20), 8, return_complex=True)
    with pytest.raises(ValueError, match=r"\[stft\].*win_length"):
        gt.stft(x, 8, win_length=9, return_complex=True)
    with pytest.raises(gt.ShapeError, match=r"\[stft\] n_fft"):
        gt.stft(x, 32, center=False, return_complex=True)
    spec = gt.stft(x, 8, return_complex=True)
    with pytest.raises(gt.ShapeError, match=r"\[istft\].*frequencies"):
        gt.istft(spec, 10)
    with pytest.raises(ValueError, match=r"\[istft\] window overlap"):
        gt.istft(spec, 8, 8, window=gt.hann_window(8, dtype=gt.float64, device=device))
