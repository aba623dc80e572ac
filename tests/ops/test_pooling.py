"""max_pool2d, avg_pool2d and adaptive_avg_pool2d against NumPy (and PyTorch); gradients; errors."""

from __future__ import annotations

import numpy as np
import pytest
from conv_reference import adaptive_avg_ref, avg_pool_ref, max_pool_ref

import gtensor as gt
from gtensor.autograd import gradcheck, gradgradcheck
from gtensor.errors import DTypeError, ShapeError


def _t(a: np.ndarray, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(a, device=device, requires_grad=grad)


def _np(t: gt.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


@pytest.mark.parametrize("k,s,p,d,ceil", [
    (2, None, 0, 1, False), (3, 2, 1, 1, True), (2, 1, 1, 2, False), (3, 2, 0, 1, True),
])
def test_max_pool2d_matches_numpy(k: int, s: int | None, p: int, d: int, ceil: bool,
                                  rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 3, 7, 6))
    out, idx = gt.max_pool2d(_t(x), k, s, p, d, ceil, return_indices=True)
    want, want_idx = max_pool_ref(x, k, s or k, p, d, ceil)
    np.testing.assert_array_equal(_np(out), want)
    np.testing.assert_array_equal(_np(idx), want_idx)
    assert idx.dtype is gt.int64


def test_max_pool2d_nan_ties_and_unbatched() -> None:
    x = np.array([[[1.0, 1.0, np.nan], [0.0, 1.0, 2.0]]])
    out, idx = gt.max_pool2d(_t(x), (2, 2), 1, return_indices=True)
    assert _np(idx).tolist() == [[[0, 2]]]
    assert _np(out)[0, 0, 0] == 1.0 and np.isnan(_np(out)[0, 0, 1])


@pytest.mark.parametrize("ceil,include_pad,divisor", [
    (False, True, None), (True, False, None), (True, True, 2), (False, False, None),
])
def test_avg_pool2d_matches_numpy(ceil: bool, include_pad: bool, divisor: int | None,
                                  rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 2, 7, 6))
    got = gt.avg_pool2d(_t(x), 3, 2, 1, ceil, include_pad, divisor)
    np.testing.assert_allclose(_np(got), avg_pool_ref(x, 3, 2, 1, ceil, include_pad, divisor),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("size", [1, (3, 4), (None, 2), (7, 6)])
def test_adaptive_avg_pool2d_matches_numpy(size: object, rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 3, 7, 6))
    got = gt.adaptive_avg_pool2d(_t(x), size)
    sizes = (size, size) if isinstance(size, int) else size
    oh, ow = (7 if sizes[0] is None else sizes[0]), sizes[1]  # type: ignore[index]
    np.testing.assert_allclose(_np(got), adaptive_avg_ref(x, oh, ow), rtol=1e-12, atol=1e-12)


def test_pools_against_torch(rng: np.random.Generator) -> None:
    torch = pytest.importorskip("torch")
    f = torch.nn.functional
    x = rng.standard_normal((2, 3, 9, 8))
    t = torch.from_numpy(x)
    out, idx = gt.max_pool2d(_t(x), (3, 2), (2, 1), (1, 1), (1, 2), True, True)
    want, want_idx = f.max_pool2d(t, (3, 2), (2, 1), (1, 1), (1, 2), True, True)
    np.testing.assert_array_equal(_np(out), want.numpy())
    np.testing.assert_array_equal(_np(idx), want_idx.numpy())
    got = gt.avg_pool2d(_t(x), (3, 2), (2, 3), (1, 1), True, False)
    np.testing.assert_allclose(_np(got), f.avg_pool2d(t, (3, 2), (2, 3), (1, 1), True,
                                                      False).numpy(), rtol=1e-12)
    got = gt.adaptive_avg_pool2d(_t(x), (4, 3))
    np.testing.assert_allclose(_np(got), f.adaptive_avg_pool2d(t, (4, 3)).numpy(), rtol=1e-12)


def test_pools_on_device(device: str, rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    out, idx = gt.max_pool2d(_t(x, device), 3, 2, 1, return_indices=True)
    want, want_idx = max_pool_ref(x, 3, 2, 1, 1, False)
    np.testing.assert_array_equal(_np(out), want.astype(np.float32))
    np.testing.assert_array_equal(_np(idx), want_idx)
    got = gt.avg_pool2d(_t(x, device), 2, 2, 1, True, False)
    np.testing.assert_allclose(_np(got), avg_pool_ref(x, 2, 2, 1, True, False, None), rtol=1e-6)
    got = gt.adaptive_avg_pool2d(_t(x, device), 3)
    np.testing.assert_allclose(_np(got), adaptive_avg_ref(x, 3, 3), rtol=1e-6)


CASES = [
    lambda a: gt.max_pool2d(a, 3, 2, 1),
    lambda a: gt.max_pool2d(a, 2, 1, 0, 2, True),
    lambda a: gt.avg_pool2d(a, 3, 2, 1, True, False),
    lambda a: gt.avg_pool2d(a, 2, 1, 1, False, True, 3),
    lambda a: gt.adaptive_avg_pool2d(a, (2, 3)),
]


@pytest.mark.parametrize("fn", CASES)
def test_pool_gradients(fn: object, device: str, rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 2, 5, 5))
    if device == "cpu":
        assert gradcheck(fn, [_t(x, grad=True)])
        assert gradgradcheck(fn, [_t(x, grad=True)])
        return
    grads = []
    for dev in ("cpu", device):
        tx = _t(x, dev, True)
        out = fn(tx)  # type: ignore[operator]
        out.backward(_t(np.linspace(-1, 1, out.numel()).reshape(out.shape), dev))
        grads.append(_np(tx.grad))
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12, atol=1e-12)


def test_max_pool2d_gradient_routes_to_argmax(rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((1, 1, 4, 4)), grad=True)
    out, idx = gt.max_pool2d(x, 2, 1, return_indices=True)
    out.backward(gt.ones(out.shape, dtype=gt.float64))
    want = np.bincount(_np(idx).ravel(), minlength=16).reshape(1, 1, 4, 4)
    np.testing.assert_array_equal(_np(x.grad), want)


@pytest.mark.parametrize("call,exc,text", [
    (lambda x: gt.max_pool2d(x[0, 0], 2), ShapeError, "[max_pool2d] expected 3-D or 4-D input"),
    (lambda x: gt.max_pool2d(x, 0), ValueError, "[max_pool2d] kernel_size must be >= 1"),
    (lambda x: gt.max_pool2d(x, 2, 0), ValueError, "[max_pool2d] stride must be >= 1"),
    (lambda x: gt.max_pool2d(x, 2, 2, 2), ValueError, "[max_pool2d] padding (2, 2) should be"),
    (lambda x: gt.max_pool2d(x, 9), ShapeError, "[max_pool2d] input of spatial size"),
    (lambda x: gt.max_pool2d(x.to(gt.int64), 2), DTypeError, "[max_pool2d] expected a float32"),
    (lambda x: gt.max_pool2d(x.numpy(), 2), TypeError, "[max_pool2d] input must be a tensor"),
    (lambda x: gt.avg_pool2d(x, 2, divisor_override=0), ValueError,
     "[avg_pool2d] divisor_override must be"),
    (lambda x: gt.avg_pool2d(x, (2, 2, 2)), TypeError, "[avg_pool2d] kernel_size must be"),
    (lambda x: gt.adaptive_avg_pool2d(x, 0), ValueError, "[adaptive_avg_pool2d] output_size"),
    (lambda x: gt.adaptive_avg_pool2d(x, (1, 2, 3)), TypeError,
     "[adaptive_avg_pool2d] output_size must be"),
])
def test_pool_errors(call: object, exc: type, text: str, rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((1, 2, 5, 5)))
    with pytest.raises(exc) as info:
        call(x)  # type: ignore[operator]
    assert str(info.value).startswith(text)
