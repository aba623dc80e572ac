"""Attention and Transformer layers against PyTorch: outputs and every gradient, eval mode."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor import nn

torch = pytest.importorskip("torch")


def _g(a: np.ndarray, device: str = "cpu", grad: bool = False) -> gt.Tensor:
    return gt.tensor(a, device=device, requires_grad=grad)


def _t(a: np.ndarray, grad: bool = False):
    return torch.tensor(a, requires_grad=grad)


def _np(x) -> np.ndarray:
    return x.detach().cpu().numpy()


def _pair(make_torch, make_gt, device: str = "cpu"):
    """A torch module and the gtensor module built alike, with torch's parameters, in eval."""
    torch.manual_seed(0)
    tm = make_torch().double().eval()
    m = make_gt().to(device, gt.float64).eval()
    assert set(m.state_dict()) == set(tm.state_dict())
    m.load_state_dict({k: gt.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    return tm, m


def _conv(kwargs: dict, make):
    return {k: make(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}


def _check(tm, m, arrays, kwargs=None, device="cpu", rtol=1e-9):
    """Run both modules on ``arrays``; compare outputs (and weights), input and parameter grads.

    Array keyword arguments (masks) go to each library as its tensor; others as they are.
    """
    kwargs = kwargs or {}
    t_in = [_t(a, grad=True) for a in arrays]
    g_in = [_g(a, device, grad=True) for a in arrays]
    want = tm(*t_in, **_conv(kwargs, _t))
    got = m(*g_in, **_conv(kwargs, lambda a: _g(a, device)))
    if isinstance(want, tuple):
        if want[1] is None:
            assert got[1] is None
        else:
            np.testing.assert_allclose(_np(got[1]), _np(want[1]), rtol=rtol, atol=1e-12)
        want, got = want[0], got[0]
    np.testing.assert_allclose(_np(got), _np(want), rtol=rtol, atol=1e-12)
    seed = np.random.default_rng(5).standard_normal(tuple(want.shape))
    (want * _t(seed)).sum().backward()
    (got * _g(seed, device)).sum().backward()
    for a, b in zip(g_in, t_in, strict=True):
        np.testing.assert_allclose(_np(a.grad), b.grad.numpy(), rtol=rtol, atol=1e-12)
    grads = {k: p.grad for k, p in tm.named_parameters()}
    for name, p in m.named_parameters():
        np.testing.assert_allclose(_np(p.grad), grads[name].numpy(), rtol=rtol, atol=1e-12,
                                   err_msg=name)


def test_sdpa_matches_torch(rng) -> None:
    import torch.nn.functional as TF

    q = rng.standard_normal((2, 2, 3, 4))
    k, v = rng.standard_normal((2, 2, 5, 4)), rng.standard_normal((2, 2, 5, 4))
    bool_mask = rng.random((3, 5)) > 0.3
    bool_mask[1] = False  # a query that attends to nothing gets zeros
    cases = [({"attn_mask": bool_mask}, q, k, v),
             ({"attn_mask": rng.standard_normal((2, 1, 3, 5))}, q, k, v),
             ({"is_causal": True, "scale": 0.3}, q, k, v),
             ({"enable_gqa": True}, rng.standard_normal((1, 4, 3, 4)), k[:1], v[:1])]
    for kwargs, *arrays in cases:
        t_in = [_t(a, grad=True) for a in arrays]
        g_in = [_g(a, grad=True) for a in arrays]
        want = TF.scaled_dot_product_attention(*t_in, **_conv(kwargs, _t))
        got = F.scaled_dot_product_attention(*g_in, **_conv(kwargs, _g))
        np.testing.assert_allclose(_np(got), _np(want), rtol=1e-10, atol=1e-12)
        want.sum().backward()
        got.sum().backward()
        for a, b in zip(g_in, t_in, strict=True):
            np.testing.assert_allclose(_np(a.grad), b.grad.numpy(), rtol=1e-10, atol=1e-12)
        if kwargs.get("attn_mask") is bool_mask:
            assert not _np(got)[:, :, 1].any()


MHA_CASES = {
    "kdim_vdim_padding_batch_first": (
        {"kdim": 3, "vdim": 5, "batch_first": True}, (2, 4, 6), (2, 3, 3), (2, 3, 5),
        {"key_padding_mask": np.array([[False, True, False], [False, False, False]])}),
    "float_masks_per_head": (
        {}, (4, 2, 6), (3, 2, 6), (3, 2, 6),
        {"attn_mask": np.random.default_rng(1).standard_normal((4, 4, 3)),
         "key_padding_mask": np.array([[0.0, -1.5, 0.0], [0.5, 0.0, 0.0]]),
         "average_attn_weights": False}),
    "bias_kv_zero_attn_bool_masks": (
        {"add_bias_kv": True, "add_zero_attn": True}, (4, 2, 6), (3, 2, 6), (3, 2, 6),
        {"attn_mask": np.triu(np.ones((4, 3), bool), 1),
         "key_padding_mask": np.array([[False, True, False], [True, False, False]])}),
    "no_weights_unbatched": (
        {"batch_first": True}, (4, 6), (3, 6), (3, 6),
        {"attn_mask": np.triu(np.ones((4, 3), bool), 1), "need_weights": False}),
}


@pytest.mark.parametrize("case", list(MHA_CASES))
def test_multihead_attention_matches_torch(rng, case) -> None:
    ctor, q_shape, k_shape, v_shape, kwargs = MHA_CASES[case]
    tm, m = _pair(lambda: torch.nn.MultiheadAttention(6, 2, **ctor),
                  lambda: nn.MultiheadAttention(6, 2, **ctor))
    arrays = [rng.standard_normal(s) for s in (q_shape, k_shape, v_shape)]
    _check(tm, m, arrays, kwargs)


def _encoder_layer(lib, **kw):
    return lib.nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0, **kw)


@pytest.mark.parametrize("kw", [{"norm_first": True, "activation": "gelu"},
                                {"batch_first": True}])
def test_encoder_layer_matches_torch(rng, kw) -> None:
    tm, m = _pair(lambda: _encoder_layer(torch, **kw), lambda: _encoder_layer(gt, **kw))
    x = rng.standard_normal((2, 5, 8) if kw.get("batch_first") else (5, 2, 8))
    pad = np.zeros((2, 5), bool)
    pad[0, 3:] = True
    _check(tm, m, [x], {"src_mask": np.triu(np.ones((5, 5), bool), 1),
                        "src_key_padding_mask": pad})


def test_encoder_layer_on_device_matches_torch(device, rng) -> None:
    tm, m = _pair(lambda: _encoder_layer(torch, activation=torch.nn.functional.gelu),
                  lambda: _encoder_layer(gt, activation=F.gelu), device)
    _check(tm, m, [rng.standard_normal((3, 2, 8))], {"is_causal": True,
                                                    "src_mask": np.triu(np.ones((3, 3), bool), 1)},
           device=device)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_torch(rng, norm_first) -> None:
    def make(lib):
        return lib.nn.TransformerDecoderLayer(8, 2, 12, dropout=0.0, norm_first=norm_first)

    tm, m = _pair(lambda: make(torch), lambda: make(gt))
    tgt, memory = rng.standard_normal((4, 2, 8)), rng.standard_normal((5, 2, 8))
    _check(tm, m, [tgt, memory], {
        "tgt_mask": np.triu(np.full((4, 4), -np.inf), 1),
        "memory_key_padding_mask": np.array([[False] * 4 + [True], [False] * 5]),
        "tgt_is_causal": True})


def test_transformer_matches_torch(rng) -> None:
    def make(lib):
        return lib.nn.Transformer(8, 2, 2, 2, 12, dropout=0.0, batch_first=True)

    tm, m = _pair(lambda: make(torch), lambda: make(gt))
    assert "encoder.layers.1.self_attn.in_proj_weight" in m.state_dict()
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(_np(mask),
                                  torch.nn.Transformer.generate_square_subsequent_mask(4))
    src, tgt = rng.standard_normal((2, 5, 8)), rng.standard_normal((2, 4, 8))
    _check(tm, m, [src, tgt], {
        "tgt_mask": np.triu(np.full((4, 4), -np.inf), 1),
        "src_key_padding_mask": np.array([[False] * 4 + [True], [False] * 5]),
        "memory_mask": rng.standard_normal((4, 5))})


def test_stacks_hold_independent_copies_and_subclass() -> None:
    class Scaled(nn.TransformerEncoderLayer):
        def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
            return 2.0 * super().forward(src, src_mask, src_key_padding_mask, is_causal)

    gt.manual_seed(0)
    layer = Scaled(4, 2, 6, dropout=0.5)
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4), enable_nested_tensor=False)
    first, second = enc.layers[0], enc.layers[1]
    assert isinstance(second, Scaled) and first.linear1.weight is not second.linear1.weight
    np.testing.assert_array_equal(_np(first.linear1.weight), _np(layer.linear1.weight))
    with gt.no_grad():
        first.linear1.weight.fill_(1.0)
    assert not (_np(second.linear1.weight) == 1.0).all()
    x = gt.randn(3, 2, 4)
    enc.eval()
    ref = enc.norm(second(first(x)))
    np.testing.assert_allclose(_np(enc(x)), _np(ref), rtol=1e-6)
    enc.train()
    assert not np.allclose(_np(enc(x)), _np(ref))


def test_errors() -> None:
    with pytest.raises(ValueError, match=r"^\[MultiheadAttention\] embed_dim 6 must be"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(ValueError, match=r"^\[TransformerEncoderLayer\] activation should"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    mha = nn.MultiheadAttention(4, 2)
    x = gt.randn(3, 2, 4)
    with pytest.raises(gt.ShapeError, match=r"^\[multi_head_attention\] expected key_padding"):
        mha(x, x, x, key_padding_mask=gt.zeros(2, 4, dtype=gt.bool))
    with pytest.raises(TypeError, match=r"^\[multi_head_attention\] only bool and floating"):
        mha(x, x, x, attn_mask=gt.zeros(3, 3, dtype=gt.int64))
    model = nn.Transformer(4, 2, 1, 1, 6)
    with pytest.raises(gt.ShapeError, match=r"^\[Transformer\] the batch number"):
        model(x, gt.randn(3, 1, 4))
    with pytest.raises(gt.ShapeError, match=r"^\[scaled_dot_product_attention\] with enable"):
        kv = gt.randn(2, 2, 4)
        F.scaled_dot_product_attention(gt.randn(3, 2, 4), kv, kv, enable_gqa=True)


def test_functional_multi_head_attention_matches_torch(rng) -> None:
    import torch.nn.functional as TF

    e, heads, n, l_q, s = 4, 2, 2, 3, 5
    names = ["query", "key", "value", "q_proj_weight", "k_proj_weight", "v_proj_weight",
             "in_proj_bias", "out_proj_weight", "out_proj_bias"]
    shapes = [(l_q, n, e), (s, n, 3), (s, n, 6), (e, e), (e, 3), (e, 6), (3 * e,), (e, e),
              (e,)]
    arrays = {k: rng.standard_normal(sh) for k, sh in zip(names, shapes, strict=True)}
    static_v = rng.standard_normal((n * heads, s, e // heads))
    results = []
    for make in (_t, _g):
        a = {k: make(v, grad=True) for k, v in arrays.items()}
        fn = TF.multi_head_attention_forward if make is _t else F.multi_head_attention_forward
        out, w = fn(a["query"], a["key"], a["value"], e, heads, None, a["in_proj_bias"],
                    None, None, True, 0.0, a["out_proj_weight"],
                    a["out_proj_bias"], training=False, use_separate_proj_weight=True,
                    q_proj_weight=a["q_proj_weight"], k_proj_weight=a["k_proj_weight"],
                    v_proj_weight=a["v_proj_weight"], static_v=make(static_v),
                    average_attn_weights=False)
        (out.sum() + (w * w).sum()).backward()
        results.append((out, w, {k: a[k].grad for k in names}))
    (t_out, t_w, t_grads), (g_out, g_w, g_grads) = results
    np.testing.assert_allclose(_np(g_out), _np(t_out), rtol=1e-9)
    np.testing.assert_allclose(_np(g_w), _np(t_w), rtol=1e-9)
    assert t_grads["v_proj_weight"] is None and g_grads["v_proj_weight"] is None
    for k in ("query", "key", "q_proj_weight", "k_proj_weight", "in_proj_bias",
              "out_proj_weight", "out_proj_bias"):
        np.testing.assert_allclose(_np(g_grads[k]), t_grads[k].numpy(), rtol=1e-9, atol=1e-12,
                                   err_msg=k)
