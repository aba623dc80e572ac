"""conv1d, conv2d, conv_transpose2d, conv2d_weight against NumPy and PyTorch; gradients; errors."""

from __future__ import annotations

import numpy as np
import pytest
from conv_reference import conv2d_ref, conv_transpose2d_ref

import gtensor as gt
from gtensor.autograd import gradcheck, gradgradcheck
from gtensor.errors import DeviceMismatchError, DTypeError, ShapeError
from gtensor.ops.conv import conv2d_weight

CONV_CASES = [
    # (N, C, H, W, O, K, stride, padding, dilation, groups)
    (2, 4, 7, 6, 6, 3, 1, 1, 1, 1),
    (2, 4, 9, 8, 6, 3, 2, 1, 1, 2),
    (1, 6, 9, 8, 6, 3, 3, 0, 2, 3),
    (2, 32, 6, 7, 16, 3, 1, 2, 2, 1),
    (1, 32, 5, 5, 8, 1, 1, 0, 1, 2),
    (1, 3, 5, 6, 2, (2, 3), (2, 1), (1, 0), (1, 2), 1),
]


def _t(a: np.ndarray, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(a, device=device, requires_grad=grad)


def _np(t: gt.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _two(v: object) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else tuple(v)  # type: ignore[return-value]


@pytest.mark.parametrize("case", CONV_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv2d_forward_matches_numpy(case: tuple, dtype: str, rng: np.random.Generator) -> None:
    n, c, h, w, o, k, s, p, d, g = case
    kh, kw = _two(k)
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    wt = rng.standard_normal((o, c // g, kh, kw)).astype(dtype)
    b = rng.standard_normal(o).astype(dtype)
    got = gt.conv2d(_t(x), _t(wt), _t(b), s, p, d, g)
    ph, pw = _two(p)
    want = conv2d_ref(x, wt, b, _two(s), (ph, ph, pw, pw), _two(d), g)
    tol = 1e-4 if dtype == "float32" else 1e-10
    assert got.dtype.name == dtype
    np.testing.assert_allclose(_np(got), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("padding", ["same", "valid"])
@pytest.mark.parametrize("dilation", [1, 2])
def test_conv2d_string_padding(padding: str, dilation: int, rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 2, 6, 5))
    w = rng.standard_normal((3, 2, 2, 3))
    got = gt.conv2d(_t(x), _t(w), padding=padding, dilation=dilation)
    if padding == "valid":
        pads = (0, 0, 0, 0)
    else:
        th, tw = dilation * 1, dilation * 2
        pads = (th // 2, th - th // 2, tw // 2, tw - tw // 2)
    want = conv2d_ref(x, w, None, (1, 1), pads, (dilation, dilation), 1)
    np.testing.assert_allclose(_np(got), want, rtol=1e-10, atol=1e-10)
    if padding == "same":
        assert got.shape[2:] == x.shape[2:]


def test_conv_against_torch(rng: np.random.Generator) -> None:
    torch = pytest.importorskip("torch")
    f = torch.nn.functional
    x = rng.standard_normal((2, 4, 9, 7))
    w = rng.standard_normal((6, 2, 3, 2))
    b = rng.standard_normal(6)
    got = gt.conv2d(_t(x), _t(w), _t(b), (2, 1), (1, 2), (1, 2), 2)
    want = f.conv2d(*(torch.from_numpy(a) for a in (x, w, b)), stride=(2, 1), padding=(1, 2),
                    dilation=(1, 2), groups=2)
    np.testing.assert_allclose(_np(got), want.numpy(), rtol=1e-10, atol=1e-10)
    wt = rng.standard_normal((4, 3, 3, 3))
    bt = rng.standard_normal(6)
    got = gt.conv_transpose2d(_t(x), _t(wt), _t(bt), 2, 1, (1, 0), 2, 1)
    want = f.conv_transpose2d(*(torch.from_numpy(a) for a in (x, wt, bt)), stride=2, padding=1,
                              output_padding=(1, 0), groups=2)
    np.testing.assert_allclose(_np(got), want.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("stride,padding,output_padding,dilation,groups", [
    (1, 0, 0, 1, 1), (2, 1, 1, 1, 2), (3, 2, (2, 0), 2, 1), ((2, 1), (0, 1), (1, 0), (1, 2), 2),
])
def test_conv_transpose2d_matches_numpy(stride: object, padding: object, output_padding: object,
                                        dilation: object, groups: int,
                                        rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 4, 4, 5))
    w = rng.standard_normal((4, 3, 3, 2))
    b = rng.standard_normal(3 * groups)
    got = gt.conv_transpose2d(_t(x), _t(w), _t(b), stride, padding, output_padding, groups,
                              dilation)
    want = conv_transpose2d_ref(x, w, b, _two(stride), _two(padding), _two(output_padding),
                                _two(dilation), groups)
    np.testing.assert_allclose(_np(got), want, rtol=1e-10, atol=1e-10)


def test_conv1d_matches_conv2d_reference(rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 4, 11))
    w = rng.standard_normal((6, 2, 3))
    b = rng.standard_normal(6)
    got = gt.conv1d(_t(x), _t(w), _t(b), stride=2, padding=2, dilation=2, groups=2)
    want = conv2d_ref(x[:, :, None], w[:, :, None], b, (1, 2), (0, 0, 2, 2), (1, 2), 2)[:, :, 0]
    np.testing.assert_allclose(_np(got), want, rtol=1e-10, atol=1e-10)
    same = gt.conv1d(_t(x[0]), _t(w[:, :1].repeat(4, axis=1)), padding="same")
    assert same.shape == (6, 11)


def test_unbatched_conv2d(rng: np.random.Generator) -> None:
    x = rng.standard_normal((3, 5, 5))
    w = rng.standard_normal((2, 3, 3, 3))
    got = gt.conv2d(_t(x), _t(w), padding=1)
    want = conv2d_ref(x[None], w, None, (1, 1), (1, 1, 1, 1), (1, 1), 1)[0]
    np.testing.assert_allclose(_np(got), want, rtol=1e-10, atol=1e-10)


def test_conv2d_on_device_matches_numpy(device: str, rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = rng.standard_normal((2, 1, 3, 3)).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    got = gt.conv2d(_t(x, device), _t(w, device), _t(b, device), 2, 1, 1, 2)
    assert got.device.type == device
    want = conv2d_ref(x, w, b, (2, 2), (1, 1, 1, 1), (1, 1), 2)
    np.testing.assert_allclose(_np(got), want, rtol=1e-5, atol=1e-5)


def _grads_match_cpu(fn: object, arrays: list[np.ndarray], device: str) -> None:
    """One backward on ``device`` gives the cpu gradients (gradcheck runs on cpu)."""
    results = []
    for dev in ("cpu", device):
        ts = [_t(a, dev, True) for a in arrays]
        out = fn(*ts)  # type: ignore[operator]
        out.backward(_t(np.linspace(-1.0, 1.0, out.numel()).reshape(out.shape), dev))
        results.append([_np(t.grad) for t in ts])
    for want, got in zip(*results, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_conv2d_gradients(device: str, rng: np.random.Generator) -> None:
    arrays = [rng.standard_normal(s) for s in ((1, 2, 4, 4), (2, 1, 2, 3), (2,))]

    def fn(a: gt.Tensor, k: gt.Tensor, c: gt.Tensor) -> gt.Tensor:
        return gt.conv2d(a, k, c, (2, 1), (1, 0), 1, 2)

    if device == "cpu":
        assert gradcheck(fn, [_t(a, grad=True) for a in arrays])
        more = [arrays[0], rng.standard_normal((3, 2, 2, 2)), rng.standard_normal(3)]
        assert gradgradcheck(lambda a, k, c: gt.conv2d(a, k, c, 1, 1, (2, 1), 1),
                             [_t(a, grad=True) for a in more])
    else:
        _grads_match_cpu(fn, arrays, device)


def test_conv2d_gradient_values_against_reference(rng: np.random.Generator) -> None:
    x, w = rng.standard_normal((2, 3, 5, 4)), rng.standard_normal((4, 3, 3, 3))
    tx, tw, tb = _t(x, grad=True), _t(w, grad=True), _t(np.zeros(4), grad=True)
    g = rng.standard_normal((2, 4, 3, 2))
    gt.conv2d(tx, tw, tb, stride=2, padding=1).backward(_t(g))
    np.testing.assert_allclose(_np(tb.grad), g.sum(axis=(0, 2, 3)), rtol=1e-10)
    eps = 1e-6
    probe = np.zeros_like(w)
    probe[1, 2, 0, 1] = eps

    def loss(wv: np.ndarray) -> float:
        return float((conv2d_ref(x, wv, None, (2, 2), (1, 1, 1, 1), (1, 1), 1) * g).sum())

    fd = (loss(w + probe) - loss(w - probe)) / (2 * eps)
    assert abs(_np(tw.grad)[1, 2, 0, 1] - fd) < 1e-5


def test_conv_transpose_and_weight_gradients(device: str, rng: np.random.Generator) -> None:
    arrays = [rng.standard_normal(s) for s in ((1, 2, 3, 3), (2, 1, 2, 2), (2,))]

    def transposed(a: gt.Tensor, k: gt.Tensor, c: gt.Tensor) -> gt.Tensor:
        return gt.conv_transpose2d(a, k, c, 2, 1, 1, 2)

    def weight(a: gt.Tensor, gg: gt.Tensor) -> gt.Tensor:
        return conv2d_weight(a, (2, 1, 2, 2), gg, 1, 0, 1, 2)

    pair = [arrays[0], rng.standard_normal((1, 2, 2, 2))]
    if device == "cpu":
        assert gradcheck(transposed, [_t(a, grad=True) for a in arrays])
        assert gradcheck(weight, [_t(a, grad=True) for a in pair])
    else:
        _grads_match_cpu(transposed, arrays, device)
        _grads_match_cpu(weight, pair, device)


def test_conv1d_gradients(rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((2, 2, 6)), grad=True)
    w = _t(rng.standard_normal((3, 2, 3)), grad=True)
    b = _t(rng.standard_normal(3), grad=True)
    assert gradcheck(lambda a, k, c: gt.conv1d(a, k, c, stride=2, padding=1), (x, w, b))
    assert gradgradcheck(lambda a, k: gt.conv_transpose2d(a, k, stride=2),
                         (_t(rng.standard_normal((1, 2, 2, 2)), grad=True),
                          _t(rng.standard_normal((2, 1, 2, 2)), grad=True)))


@pytest.mark.parametrize("call,exc,text", [
    (lambda x, w: gt.conv2d(x[0, 0], w), ShapeError,
     "[conv2d] expected 4-D input, got shape (5, 5)"),
    (lambda x, w: gt.conv2d(x, w[0]), ShapeError, "[conv2d] expected 4-D weight"),
    (lambda x, w: gt.conv2d(x, w, groups=2), ShapeError, "[conv2d] out_channels (3)"),
    (lambda x, w: gt.conv2d(x.reshape(1, 1, 10, 5), w), ShapeError,
     "[conv2d] expected input with 2 channels"),
    (lambda x, w: gt.conv2d(x, w, gt.zeros(4, dtype=gt.float64)), ShapeError,
     "[conv2d] expected bias of shape (3,)"),
    (lambda x, w: gt.conv2d(x, w, stride=0), ValueError, "[conv2d] stride must be >= 1"),
    (lambda x, w: gt.conv2d(x, w, padding=-1), ValueError, "[conv2d] padding must be >= 0"),
    (lambda x, w: gt.conv2d(x, w, padding="full"), ValueError, "[conv2d] padding must be"),
    (lambda x, w: gt.conv2d(x, w, stride=2, padding="same"), ValueError,
     "[conv2d] padding='same' is not supported"),
    (lambda x, w: gt.conv2d(x, w, dilation=(1, 2, 3)), TypeError, "[conv2d] dilation must be"),
    (lambda x, w: gt.conv2d(x, w, groups=0), ValueError, "[conv2d] groups must be"),
    (lambda x, w: gt.conv2d(x[:, :, :2, :2], w), ShapeError, "[conv2d] padded input"),
    (lambda x, w: gt.conv2d(x.to(gt.float32), w), DTypeError, "[conv2d] input, weight and bias"),
    (lambda x, w: gt.conv2d(x.to(gt.int64), w.to(gt.int64)), DTypeError,
     "[conv2d] expected float32"),
    (lambda x, w: gt.conv2d(x.numpy(), w), TypeError, "[conv2d] input and weight must be"),
    (lambda x, w: gt.conv1d(x, w), ShapeError, "[conv1d] expected 3-D input"),
    (lambda x, w: gt.conv1d(x[0], w[0], stride=(1, 2)), TypeError, "[conv1d] stride must be"),
    (lambda x, w: gt.conv_transpose2d(x, w), ShapeError,
     "[conv_transpose2d] expected input with 3 channels"),
    (lambda x, w: gt.conv_transpose2d(x, w.transpose(0, 1), output_padding=1), ValueError,
     "[conv_transpose2d] output_padding"),
    (lambda x, w: conv2d_weight(x, (3, 2, 3, 3), gt.zeros(1, 3, 2, 2, dtype=gt.float64)),
     ShapeError, "[conv2d_weight] expected grad_output of shape (1, 3, 3, 3)"),
])
def test_conv_errors(call: object, exc: type, text: str, rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((1, 2, 5, 5)))
    w = _t(rng.standard_normal((3, 2, 3, 3)))
    with pytest.raises(exc) as info:
        call(x, w)  # type: ignore[operator]
    assert str(info.value).startswith(text)


def test_conv_device_mismatch(rng: np.random.Generator) -> None:
    x = _t(rng.standard_normal((1, 1, 3, 3)))
    w = _t(rng.standard_normal((1, 1, 2, 2)), "cuda")
    with pytest.raises(DeviceMismatchError, match=r"^\[conv2d\]"):
        gt.conv2d(x, w)
