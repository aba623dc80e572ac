"""interpolate (nearest, bilinear) against separable NumPy matrices and PyTorch; grads; errors."""

from __future__ import annotations

import numpy as np
import pytest
from conv_reference import resample_matrix

import gtensor as gt
from gtensor.autograd import gradcheck, gradgradcheck
from gtensor.errors import ShapeError


def _t(a: np.ndarray, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(a, device=device, requires_grad=grad)


def _np(t: gt.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _ref(x: np.ndarray, out_hw: tuple[int, int], mode: str, align: bool,
         factors: tuple[float, float] | None) -> np.ndarray:
    ah = resample_matrix(x.shape[2], out_hw[0], mode, align, factors and factors[0])
    aw = resample_matrix(x.shape[3], out_hw[1], mode, align, factors and factors[1])
    return np.einsum("oh,nchw,pw->ncop", ah, x, aw)


KW = [
    (dict(size=(5, 9), mode="nearest"), (5, 9), None),
    (dict(scale_factor=1.7, mode="nearest"), (11, 10), (1.7, 1.7)),
    (dict(scale_factor=2, mode="nearest"), (14, 12), (2.0, 2.0)),
    (dict(size=(11, 4), mode="bilinear", align_corners=False), (11, 4), None),
    (dict(size=(11, 1), mode="bilinear", align_corners=True), (11, 1), None),
    (dict(scale_factor=(0.6, 2.5), mode="bilinear"), (4, 15), (0.6, 2.5)),
    (dict(scale_factor=0.5, mode="bilinear", recompute_scale_factor=True), (3, 3), None),
]


@pytest.mark.parametrize("kw,out_hw,factors", KW)
def test_interpolate_matches_numpy(kw: dict, out_hw: tuple[int, int],
                                   factors: tuple[float, float] | None,
                                   rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 3, 7, 6))
    got = gt.interpolate(_t(x), **kw)
    want = _ref(x, out_hw, kw["mode"], bool(kw.get("align_corners")), factors)
    np.testing.assert_allclose(_np(got), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kw,out_hw,factors", KW)
def test_interpolate_against_torch(kw: dict, out_hw: tuple[int, int],
                                   factors: tuple[float, float] | None,
                                   rng: np.random.Generator) -> None:
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((1, 2, 7, 6))
    want = torch.nn.functional.interpolate(torch.from_numpy(x), **kw).numpy()
    np.testing.assert_allclose(_np(gt.interpolate(_t(x), **kw)), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode,align", [("nearest", None), ("bilinear", False),
                                        ("bilinear", True)])
def test_interpolate_gradients(mode: str, align: bool | None, device: str,
                               rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 1, 3, 4))

    def fn(a: gt.Tensor) -> gt.Tensor:
        return gt.interpolate(a, size=(5, 3), mode=mode, align_corners=align)

    if device == "cpu":
        assert gradcheck(fn, [_t(x, grad=True)])
        assert gradgradcheck(fn, [_t(x, grad=True)])
        return
    grads = []
    for dev in ("cpu", device):
        tx = _t(x, dev, True)
        out = fn(tx)
        out.backward(_t(np.linspace(-1, 1, out.numel()).reshape(out.shape), dev))
        grads.append(_np(tx.grad))
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12, atol=1e-12)


def test_interpolate_on_device(device: str, rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
    got = gt.interpolate(_t(x, device), scale_factor=1.5, mode="bilinear")
    want = _ref(x.astype(np.float64), (4, 6), "bilinear", False, (1.5, 1.5))
    np.testing.assert_allclose(_np(got), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [
    dict(size=(3, 4, 2), mode="trilinear", align_corners=False),
    dict(scale_factor=(1.5, 0.5, 2), mode="trilinear", align_corners=True),
    dict(scale_factor=1.7, mode="nearest"), dict(size=(1, 3, 3), mode="area")])
def test_interpolate_5d_against_torch(kw: dict, device: str, rng: np.random.Generator) -> None:
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((1, 2, 2, 3, 2))
    tx, mine = torch.tensor(x, requires_grad=True), _t(x, device, True)
    want, got = torch.nn.functional.interpolate(tx, **kw), gt.interpolate(mine, **kw)
    np.testing.assert_allclose(_np(got), want.detach().numpy(), rtol=1e-12, atol=1e-12)
    (got * _t(_np(got) ** 2, device)).sum().backward()
    (want * want.detach() ** 2).sum().backward()
    np.testing.assert_allclose(_np(mine.grad), tx.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call,exc,text", [
    (lambda x: gt.interpolate(x, size=4, mode="trilinear"), ShapeError,
     "[interpolate] expected 5-D input for mode 'trilinear'"),
    (lambda x: gt.interpolate(x[0, 0], size=4), ShapeError,
     "[interpolate] expected 3-D or 4-D or 5-D input"),
    (lambda x: gt.interpolate(x, size=4, antialias=True), ValueError,
     "[interpolate] antialias=True is not supported"),
    (lambda x: gt.interpolate(x, size=4, align_corners=True), ValueError,
     "[interpolate] align_corners can only be set"),
    (lambda x: gt.interpolate(x), ValueError, "[interpolate] exactly one of size"),
    (lambda x: gt.interpolate(x, size=4, scale_factor=2), ValueError,
     "[interpolate] exactly one of size"),
    (lambda x: gt.interpolate(x, scale_factor=-1.0), ValueError,
     "[interpolate] scale_factor must be positive"),
    (lambda x: gt.interpolate(x, size=(1, 2, 3)), ValueError, "[interpolate] size must be"),
    (lambda x: gt.interpolate(x, scale_factor=0.1), ValueError, "[interpolate] output size"),
])
def test_interpolate_errors(call: object, exc: type, text: str,
                            rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((1, 2, 5, 5)))
    with pytest.raises(exc) as info:
        call(x)  # type: ignore[operator]
    assert str(info.value).startswith(text)
