"""Convolution and pooling layers: shapes, init bounds, agreement with the ops, gradients."""

import math

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd import gradcheck


def test_conv2d_layer_matches_the_op_and_inits_like_pytorch(device):
    gt.manual_seed(0)
    layer = gt.nn.Conv2d(3, 4, 3, padding=1, device=device)
    assert layer.weight.shape == (4, 3, 3, 3) and layer.bias.shape == (4,)
    bound = 1 / math.sqrt(3 * 9)
    w = layer.weight.detach().cpu().numpy()
    assert np.abs(w).max() <= bound + 1e-6 and np.abs(w).std() > bound / 4
    x = gt.randn(2, 3, 5, 5, device=device)
    y = layer(x)
    assert y.shape == (2, 4, 5, 5) and y.device == x.device
    ref = gt.conv2d(x, layer.weight, layer.bias, padding=1)
    np.testing.assert_allclose(y.detach().cpu().numpy(), ref.detach().cpu().numpy())
    y.sum().backward()
    assert layer.weight.grad.shape == layer.weight.shape
    np.testing.assert_allclose(layer.bias.grad.cpu().numpy(), np.full(4, 50.0), rtol=1e-6)


def test_conv_layer_variants_shapes():
    assert gt.nn.Conv1d(2, 4, 3)(gt.randn(1, 2, 10)).shape == (1, 4, 8)
    assert gt.nn.Conv2d(4, 4, 3, groups=2, bias=False)(gt.randn(1, 4, 6, 6)).shape == (1, 4, 4, 4)
    assert gt.nn.ConvTranspose2d(4, 2, 2, stride=2)(gt.randn(1, 4, 3, 3)).shape == (1, 2, 6, 6)
    assert gt.nn.MaxPool2d(2)(gt.randn(1, 1, 4, 4)).shape == (1, 1, 2, 2)
    out, idx = gt.nn.MaxPool2d(2, return_indices=True)(gt.randn(1, 1, 4, 4))
    assert idx.dtype is gt.int64 and out.shape == idx.shape
    assert gt.nn.AvgPool2d(2, stride=1)(gt.randn(1, 1, 4, 4)).shape == (1, 1, 3, 3)
    pool1 = gt.nn.AvgPool1d(3, 2, 1)
    assert repr(pool1) == "AvgPool1d(kernel_size=(3,), stride=(2,), padding=(1,))"  # torch's
    assert pool1(gt.randn(1, 1, 6)).shape == (1, 1, 3)
    assert gt.nn.AdaptiveAvgPool2d(1)(gt.randn(2, 3, 5, 5)).shape == (2, 3, 1, 1)
    assert gt.nn.Upsample(scale_factor=2)(gt.randn(1, 1, 2, 2)).shape == (1, 1, 4, 4)
    up = gt.nn.Upsample(scale_factor=0.7, mode="bilinear", recompute_scale_factor=True)
    assert repr(up) == "Upsample(scale_factor=0.7, mode='bilinear')"  # torch's repr
    assert up(gt.randn(1, 1, 5, 5)).shape == (1, 1, 3, 3)
    assert "kernel_size=(3, 3)" in repr(gt.nn.Conv2d(1, 2, 3))
    with pytest.raises(ValueError, match=r"^\[Conv2d\] in_channels \(3\) and out_channels"):
        gt.nn.Conv2d(3, 4, 3, groups=2)


@pytest.mark.parametrize("nd", [1, 2])
def test_conv_layers_hold_tuples_and_transposed_take_output_size(nd):
    torch = pytest.importorskip("torch")
    for name in (f"Conv{nd}d", f"ConvTranspose{nd}d"):
        mine = getattr(gt.nn, name)(4, 6, 3, stride=2, padding=1, groups=2, bias=False)
        theirs = getattr(torch.nn, name)(4, 6, 3, stride=2, padding=1, groups=2, bias=False)
        assert repr(mine) == repr(theirs) and mine.stride == (2,) * nd
    layer = getattr(gt.nn, f"ConvTranspose{nd}d")(4, 2, 3, stride=2)
    size = (8, 7)[:nd]
    assert layer(gt.ones(1, 4, *(3,) * nd), output_size=size).shape == (1, 2, *size)
    with pytest.raises(ValueError, match=rf"^\[ConvTranspose{nd}d\] requested an output size"):
        layer(gt.ones(1, 4, *(3,) * nd), output_size=(9, 9)[:nd])


def test_small_cnn_gradcheck():
    gt.manual_seed(1)
    conv = gt.nn.Conv2d(1, 2, 2, dtype=gt.float64)
    x = gt.randn(1, 1, 4, 4, dtype=gt.float64, requires_grad=True)

    def net(inp, w, b):
        return gt.nn.functional.max_pool2d(gt.conv2d(inp, w, b).tanh(), 2)

    assert gradcheck(net, (x, conv.weight, conv.bias))


def test_layers_match_torch_when_installed():
    torch = pytest.importorskip("torch")
    gt.manual_seed(2)
    layer = gt.nn.Conv2d(3, 5, 3, stride=2, padding=1)
    tl = torch.nn.Conv2d(3, 5, 3, stride=2, padding=1)
    with torch.no_grad():
        tl.weight.copy_(torch.from_numpy(layer.weight.detach().numpy()))
        tl.bias.copy_(torch.from_numpy(layer.bias.detach().numpy()))
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 7)).astype(np.float32)
    ours = gt.nn.AvgPool2d(2)(layer(gt.tensor(x))).detach().numpy()
    ref = torch.nn.AvgPool2d(2)(tl(torch.from_numpy(x))).detach().numpy()
    np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-5)
