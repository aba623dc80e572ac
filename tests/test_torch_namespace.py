"""Each Tensor method that PyTorch also has as ``torch.<name>`` is ``gt.<name>``, one function."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

ADDED = [
    "abs_", "absolute", "acos_", "asin_", "atan_", "bernoulli", "broadcast_to", "ceil_",
    "clamp_", "clip", "clip_", "clone", "cos_", "cosh_", "detach", "detach_", "divide", "erf_",
    "exp2_",
    "exp_", "expm1_", "fill_", "flatten", "floor_", "index_put_", "log10_", "log1p_", "log2_",
    "log_", "multinomial", "multiply", "narrow", "neg_", "negative", "numel", "permute",
    "reciprocal_", "relu_", "reshape", "round_", "rsqrt_", "select", "sigmoid_", "sin_", "sinh_",
    "sqrt_", "square_", "squeeze", "subtract", "swapaxes", "t", "tan_", "tanh_", "transpose",
    "true_divide", "trunc_", "unbind", "unflatten", "unsqueeze",
    "addmv", "addmv_", "addr", "baddbmm", "bincount", "corrcoef", "cov", "cummax", "cummin",
    "diff", "frexp", "histogram", "ldexp", "ldexp_", "logcumsumexp", "logit", "logit_", "median",
    "mode", "msort", "nanmedian", "nanquantile", "quantile", "renorm", "rot90", "xlogy", "xlogy_",
]


def test_every_torch_top_level_method_is_top_level():
    missing = [n for n in dir(gt.Tensor) if not n.startswith("_") and not hasattr(gt, n)
               and callable(getattr(torch, n, None)) and hasattr(torch.Tensor, n)]
    assert missing == []
    assert all(getattr(gt, n) is getattr(gt.Tensor, n) for n in ADDED)
    assert set(ADDED) <= set(gt.__all__)


def test_values_match_torch(device):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    x, tx = gt.tensor(a, device=device), torch.tensor(a)
    pairs = [
        (gt.flatten(x, 1), torch.flatten(tx, 1)),
        (gt.permute(x, (2, 0, 1)), torch.permute(tx, (2, 0, 1))),
        (gt.reshape(x, (4, -1)), torch.reshape(tx, (4, -1))),
        (gt.swapaxes(x, 0, 2), torch.swapaxes(tx, 0, 2)),
        (gt.narrow(x, 2, 1, 2), torch.narrow(tx, 2, 1, 2)),
        (gt.unflatten(x, 2, (2, 2)), torch.unflatten(tx, 2, (2, 2))),
        (gt.divide(x, 2.0), torch.divide(tx, 2.0)),
        (gt.exp_(gt.clone(x)), torch.exp_(torch.clone(tx))),
    ]
    for got, want in pairs:
        assert got.shape == tuple(want.shape)
        np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-6)
    assert gt.numel(x) == torch.numel(tx)
