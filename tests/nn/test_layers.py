"""Layers: forward against NumPy references, gradcheck on small float64 shapes, modes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor import nn
from gtensor.autograd import gradcheck


def _t(a, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(np.asarray(a), device=device, requires_grad=grad)


def _np(t: gt.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _params_np(m: nn.Module) -> dict[str, np.ndarray]:
    return {k: _np(v) for k, v in m.state_dict().items()}


def test_linear(device, rng) -> None:
    gt.manual_seed(0)
    m = nn.Linear(3, 2).to(device, gt.float64)
    x = rng.standard_normal((4, 3))
    p = _params_np(m)
    np.testing.assert_allclose(_np(m(_t(x, device))), x @ p["weight"].T + p["bias"], rtol=1e-12)
    bound = 1 / math.sqrt(3)
    assert np.abs(p["weight"]).max() <= bound and np.abs(p["bias"]).max() <= bound
    assert repr(m) == "Linear(in_features=3, out_features=2, bias=True)"
    assert nn.Linear(3, 2, bias=False).bias is None


def test_linear_gradcheck(rng) -> None:
    x, w, b = (_t(rng.standard_normal(s), grad=True) for s in ((2, 3), (4, 3), (4,)))
    assert gradcheck(F.linear, (x, w, b))
    x3 = _t(rng.standard_normal((2, 2, 3)), grad=True)
    assert gradcheck(lambda x: F.linear(x, w), (x3,))


def test_bilinear(rng) -> None:
    x1, x2 = rng.standard_normal((4, 3)), rng.standard_normal((4, 5))
    w, b = rng.standard_normal((2, 3, 5)), rng.standard_normal(2)
    want = np.einsum("ni,kij,nj->nk", x1, w, x2) + b
    np.testing.assert_allclose(_np(F.bilinear(_t(x1), _t(x2), _t(w), _t(b))), want, rtol=1e-12)
    m = nn.Bilinear(3, 5, 2).double()
    assert m(_t(x1), _t(x2)).shape == (4, 2)
    args = tuple(_t(rng.standard_normal(s), grad=True) for s in ((2, 3), (2, 2), (2, 3, 2)))
    assert gradcheck(F.bilinear, args)


ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
    (nn.GELU("tanh"),
     lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))),
    (nn.SiLU(), lambda x: x / (1 + np.exp(-x))),
    (nn.Tanh(), np.tanh),
    (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    (nn.Softmax(dim=1), lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True)),
    (nn.LogSoftmax(dim=0), lambda x: x - np.log(np.exp(x).sum(0, keepdims=True))),
]


@pytest.mark.parametrize("layer, ref", ACTIVATIONS, ids=lambda v: repr(v)[:20])
def test_activations(layer, ref, device, rng) -> None:
    x = rng.standard_normal((3, 4)) * 2
    np.testing.assert_allclose(_np(layer(_t(x, device))), ref(x), rtol=1e-9, atol=1e-12)
    if device == "cpu":
        assert gradcheck(layer, (_t(rng.standard_normal((2, 3)), grad=True),))


def test_flatten_identity() -> None:
    x = gt.zeros(2, 3, 4, 5)
    assert nn.Flatten()(x).shape == (2, 60) and nn.Flatten(0, 1)(x).shape == (6, 4, 5)
    assert nn.Identity(7, foo=1)(x) is x


def test_layer_norm(device, rng) -> None:
    x = rng.standard_normal((2, 3, 4))
    m = nn.LayerNorm((3, 4)).to(device, gt.float64)
    w, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    m.load_state_dict({"weight": _t(w), "bias": _t(b)})
    mu = x.mean((1, 2), keepdims=True)
    var = x.var((1, 2), keepdims=True)
    np.testing.assert_allclose(_np(m(_t(x, device))), (x - mu) / np.sqrt(var + 1e-5) * w + b,
                               rtol=1e-10)
    args = (_t(rng.standard_normal((2, 3)), grad=True), _t(rng.standard_normal(3), grad=True),
            _t(rng.standard_normal(3), grad=True))
    assert gradcheck(lambda x, w, b: F.layer_norm(x, 3, w, b), args)


def test_group_norm(device, rng) -> None:
    x = rng.standard_normal((2, 4, 3))
    m = nn.GroupNorm(2, 4).to(device, gt.float64)
    w, b = rng.standard_normal(4), rng.standard_normal(4)
    m.load_state_dict({"weight": _t(w), "bias": _t(b)})
    g = x.reshape(2, 2, 6)
    y = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    np.testing.assert_allclose(_np(m(_t(x, device))), y * w[:, None] + b[:, None], rtol=1e-10)
    args = (_t(rng.standard_normal((2, 4, 2)), grad=True), _t(rng.standard_normal(4), grad=True),
            _t(rng.standard_normal(4), grad=True))
    assert gradcheck(lambda x, w, b: F.group_norm(x, 2, w, b), args)
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(3, 4)


def test_batch_norm_running_stats(device, rng) -> None:
    m = nn.BatchNorm2d(3, momentum=0.2).to(device, gt.float64)
    x1, x2 = rng.standard_normal((4, 3, 2, 2)), rng.standard_normal((4, 3, 2, 2)) + 1
    rm, rv = np.zeros(3), np.ones(3)
    for x in (x1, x2):
        y = _np(m(_t(x, device)))
        mu, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
        want = (x - mu[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)
        np.testing.assert_allclose(y, want, rtol=1e-9, atol=1e-12)
        rm = 0.8 * rm + 0.2 * mu
        rv = 0.8 * rv + 0.2 * x.var((0, 2, 3), ddof=1)
    np.testing.assert_allclose(_np(m.running_mean), rm, rtol=1e-10)
    np.testing.assert_allclose(_np(m.running_var), rv, rtol=1e-10)
    assert m.num_batches_tracked.item() == 2
    m.eval()
    x = rng.standard_normal((2, 3, 2, 2))
    want = (x - rm[:, None, None]) / np.sqrt(rv[:, None, None] + 1e-5)
    np.testing.assert_allclose(_np(m(_t(x, device))), want, rtol=1e-10)
    np.testing.assert_allclose(_np(m.running_mean), rm, rtol=1e-10)
    assert set(m.state_dict()) == {"weight", "bias", "running_mean", "running_var",
                                   "num_batches_tracked"}


def test_batch_norm_1d_cumulative_and_gradcheck(rng) -> None:
    m = nn.BatchNorm1d(2, momentum=None).double()
    xs = [rng.standard_normal((5, 2)) for _ in range(3)]
    for x in xs:
        m(_t(x))
    np.testing.assert_allclose(_np(m.running_mean), np.mean([x.mean(0) for x in xs], 0),
                               rtol=1e-10)
    with pytest.raises(gt.ShapeError, match="expected 2 channels"):
        m(gt.zeros(4, 3, dtype=gt.float64))
    with pytest.raises(ValueError, match="more than 1 value"):
        m(gt.zeros(1, 2, dtype=gt.float64))
    args = (_t(rng.standard_normal((3, 2, 2)), grad=True), _t(rng.standard_normal(2), grad=True),
            _t(rng.standard_normal(2), grad=True))
    assert gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), args)
    m.eval()
    assert gradcheck(m, (_t(rng.standard_normal((3, 2)), grad=True),))


@pytest.mark.parametrize("make", [
    lambda: nn.BatchNorm2d(3, bias=False), lambda: nn.InstanceNorm1d(3, affine=True, bias=False),
    lambda: nn.GroupNorm(1, 3, bias=False), lambda: nn.LazyBatchNorm1d(bias=False)])
def test_norm_layers_without_bias(make) -> None:
    m = make()
    x = gt.ones(2, 3, 2, 2) if isinstance(m, nn.BatchNorm2d) else gt.ones(2, 3, 2)
    assert m(x).shape == x.shape
    assert m.bias is None and "bias=False" in repr(m)
    assert [k for k in m.state_dict() if k in ("weight", "bias")] == ["weight"]


def test_dropout(device) -> None:
    gt.manual_seed(0)
    n = 4000 if device == "cpu" else 64
    x = gt.ones(n, device=device)
    layer = nn.Dropout(0.25)
    y = _np(layer(x))
    assert np.isin(y, np.float32([0.0, 1 / 0.75])).all()
    if device == "cpu":
        assert abs((y == 0).mean() - 0.25) < 0.03
    layer.eval()
    assert layer(x) is x
    assert F.dropout(x, 0.0) is x and _np(F.dropout(x, 1.0)).sum() == 0
    xg = gt.ones(6, dtype=gt.float64, requires_grad=True)
    gt.manual_seed(1)
    out = F.dropout(xg, 0.5)
    out.sum().backward()
    np.testing.assert_array_equal(_np(xg.grad), _np(out))


def test_embedding(device, rng) -> None:
    gt.manual_seed(0)
    m = nn.Embedding(5, 3, padding_idx=1).to(device, gt.float64)
    w = _np(m.weight)
    assert (w[1] == 0).all()
    idx = np.array([[0, 1], [4, 4]])
    np.testing.assert_array_equal(_np(m(_t(idx, device))), w[idx])
    m(_t(idx, device)).sum().backward()
    g = _np(m.weight.grad)
    np.testing.assert_array_equal(g[:, 0], [1, 0, 0, 0, 2])
    weight = _t(rng.standard_normal((4, 2)), grad=True)
    assert gradcheck(lambda w: F.embedding(_t(np.array([3, 0, 3])), w), (weight,))


def _mha_ref(x, w_in, b_in, w_out, b_out, heads, mask=None):
    n, l, e = x.shape
    d = e // heads
    q, k, v = (x @ w.T + b for w, b in zip(np.split(w_in, 3), np.split(b_in, 3), strict=True))
    q, k, v = (t.reshape(n, l, heads, d).transpose(0, 2, 1, 3) for t in (q, k, v))
    s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    out = (a @ v).transpose(0, 2, 1, 3).reshape(n, l, e)
    return out @ w_out.T + b_out, a.mean(1)


def test_embedding_from_pretrained_and_scale_grad_by_freq(device) -> None:
    table = gt.arange(10.0, device=device).reshape(5, 2)
    emb = nn.Embedding.from_pretrained(table, freeze=False, scale_grad_by_freq=True)
    assert emb.weight.requires_grad and not nn.Embedding.from_pretrained(table).weight.requires_grad
    out = emb(gt.tensor([[1, 1, 3], [3, 3, 0]], device=device))
    (out * gt.arange(12.0, device=device).reshape(2, 3, 2)).sum().backward()
    # rows picked k times get the sum of their gradients divided by k (torch's rule)
    assert emb.weight.grad.tolist() == [[10, 11], [1, 2], [0, 0], [6, 7], [0, 0]]
    bag = nn.EmbeddingBag.from_pretrained(table, mode="sum")
    assert bag(gt.tensor([[0, 1]], device=device)).tolist() == [[2.0, 4.0]]


def test_multihead_attention(device, rng) -> None:
    gt.manual_seed(0)
    m = nn.MultiheadAttention(4, 2, batch_first=True).to(device, gt.float64)
    sd = {k: rng.standard_normal(v.shape) for k, v in m.state_dict().items()}
    m.load_state_dict({k: _t(v) for k, v in sd.items()})
    x = rng.standard_normal((2, 3, 4))
    out, w = m(_t(x, device), _t(x, device), _t(x, device))
    ref_out, ref_w = _mha_ref(x, sd["in_proj_weight"], sd["in_proj_bias"],
                              sd["out_proj.weight"], sd["out_proj.bias"], 2)
    np.testing.assert_allclose(_np(out), ref_out, rtol=1e-9)
    np.testing.assert_allclose(_np(w), ref_w, rtol=1e-9)
    causal = np.triu(np.ones((3, 3), bool), 1)
    out, _ = m(_t(x, device), _t(x, device), _t(x, device), is_causal=True)
    np.testing.assert_allclose(_np(out), _mha_ref(x, sd["in_proj_weight"], sd["in_proj_bias"],
                                                  sd["out_proj.weight"], sd["out_proj.bias"], 2,
                                                  causal)[0], rtol=1e-9)
    seq_first = nn.MultiheadAttention(4, 2).double()
    seq_first.load_state_dict(m.state_dict())
    xs = _t(x.transpose(1, 0, 2))
    out_s, _ = seq_first(xs, xs, xs, need_weights=False)
    np.testing.assert_allclose(_np(out_s).transpose(1, 0, 2), ref_out, rtol=1e-9)


def test_multihead_attention_matches_torch(rng) -> None:
    torch = pytest.importorskip("torch")
    tm = torch.nn.MultiheadAttention(4, 2, batch_first=True).double()
    m = nn.MultiheadAttention(4, 2, batch_first=True).double()
    m.load_state_dict({k: _t(v.detach().numpy()) for k, v in tm.state_dict().items()})
    x = rng.standard_normal((2, 3, 4))
    pad = np.array([[False, False, True], [False, False, False]])
    want, want_w = tm(*(torch.tensor(x),) * 3, key_padding_mask=torch.tensor(pad))
    got, got_w = m(*(_t(x),) * 3, key_padding_mask=_t(pad))
    np.testing.assert_allclose(_np(got), want.detach().numpy(), rtol=1e-9)
    np.testing.assert_allclose(_np(got_w), want_w.detach().numpy(), rtol=1e-9)


def test_scaled_dot_product_attention(device, rng) -> None:
    q, k, v = (rng.standard_normal((1, 2, 3, 4)) for _ in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / 2.0
    mask = np.array([[True, False, True]] * 3)
    masked = np.where(mask, s, -np.inf)
    a = np.exp(masked - masked.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    got = F.scaled_dot_product_attention(_t(q, device), _t(k, device), _t(v, device),
                                         attn_mask=_t(mask, device))
    np.testing.assert_allclose(_np(got), a @ v, rtol=1e-10)
    args = tuple(_t(rng.standard_normal((1, 2, 3)), grad=True) for _ in range(3))
    assert gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                     args)


def test_parameters_to_vector_and_back(device) -> None:
    lin = nn.Linear(2, 2, device=device)
    vec = nn.utils.parameters_to_vector(lin.parameters())
    assert vec.shape == (6,) and vec.requires_grad
    nn.utils.vector_to_parameters(gt.arange(6.0, device=device), lin.parameters())
    assert lin.weight.tolist() == [[0.0, 1.0], [2.0, 3.0]] and lin.bias.tolist() == [4.0, 5.0]
    with pytest.raises(gt.ShapeError, match=r"^\[vector_to_parameters\]"):
        nn.utils.vector_to_parameters(gt.zeros(5), lin.parameters())


def test_clip_grad(device) -> None:
    a = gt.nn.Parameter(gt.zeros(2, device=device))
    b = gt.nn.Parameter(gt.zeros(2, device=device))
    a.grad = gt.tensor([3.0, 0.0], device=device)
    b.grad = gt.tensor([0.0, 4.0], device=device)
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert total.item() == pytest.approx(5.0) and total.device.type == device
    np.testing.assert_allclose(_np(a.grad), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(_np(b.grad), [0.0, 0.8], rtol=1e-5)
    total = nn.utils.clip_grad_norm_([a, b], max_norm=10.0, norm_type=float("inf"),
                                     foreach=False)
    assert total.item() == pytest.approx(0.8, rel=1e-5)
    np.testing.assert_allclose(_np(b.grad), [0.0, 0.8], rtol=1e-5)
    nn.utils.clip_grad_value_([a, b], 0.5, foreach=None)
    np.testing.assert_allclose(_np(a.grad), [0.5, 0.0])
    np.testing.assert_allclose(_np(b.grad), [0.0, 0.5])
    total = nn.utils.get_total_norm([a.grad, b.grad])
    assert total.item() == pytest.approx(0.5**0.5, rel=1e-5) and total.device.type == device
    nn.utils.clip_grads_with_norm_([a, b], 0.5**0.5 / 2, total)
    np.testing.assert_allclose(_np(a.grad), [0.25, 0.0], rtol=1e-5)
    b.grad = gt.tensor([float("nan"), 1.0], device=device)
    with pytest.raises(RuntimeError, match="non-finite"):
        nn.utils.clip_grad_norm_([b], 1.0, error_if_nonfinite=True)
