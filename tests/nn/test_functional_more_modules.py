"""The layers added for PyTorch's surface against ``torch.nn``: same weights, same outputs,
same input and parameter gradients, and the padding modes of the convolutions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn as nn

torch = pytest.importorskip("torch")

Build = Callable[[Any], Any]

# name: (build(nn, dtype) -> layer, input shape)
LAYERS: dict[str, tuple[Build, tuple[int, ...]]] = {
    "Conv3d": (lambda nn, dt: nn.Conv3d(2, 3, (2, 1, 2), padding=(1, 0, 0), dtype=dt),
               (1, 2, 3, 2, 3)),
    "Conv3d_replicate": (lambda nn, dt: nn.Conv3d(1, 2, 2, padding=1, padding_mode="replicate",
                                              dtype=dt), (1, 1, 2, 3, 2)),
    "ConvTranspose1d": (lambda nn, dt: nn.ConvTranspose1d(2, 4, 3, stride=2, groups=2, dtype=dt),
                        (2, 2, 4)),
    "Conv1d_circular": (lambda nn, dt: nn.Conv1d(2, 2, 3, padding=2, padding_mode="circular",
                                             dtype=dt), (1, 2, 5)),
    "Conv2d_zeros": (lambda nn, dt: nn.Conv2d(2, 2, 3, padding=1, dtype=dt), (1, 2, 4, 4)),
    "Conv2d_reflect": (lambda nn, dt: nn.Conv2d(2, 2, 3, padding=(1, 2), padding_mode="reflect",
                                            dtype=dt), (1, 2, 4, 4)),
    "Conv2d_replicate": (lambda nn, dt: nn.Conv2d(2, 2, (2, 3), padding="same",
                                              padding_mode="replicate", dtype=dt), (1, 2, 4, 4)),
    "Conv2d_circular": (lambda nn, dt: nn.Conv2d(2, 2, 3, stride=2, padding=1,
                                             padding_mode="circular", dtype=dt), (1, 2, 5, 4)),
    "MaxPool1d": (lambda nn, dt: nn.MaxPool1d(2, 1), (2, 3, 5)),
    "AvgPool1d": (lambda nn, dt: nn.AvgPool1d(3, 2, 1), (2, 3, 5)),
    "AdaptiveMaxPool2d": (lambda nn, dt: nn.AdaptiveMaxPool2d((2, 3)), (1, 2, 5, 4)),
    "BatchNorm3d": (lambda nn, dt: nn.BatchNorm3d(2, dtype=dt), (2, 2, 2, 2, 2)),
    "InstanceNorm1d": (lambda nn, dt: nn.InstanceNorm1d(3), (3, 5)),
    "InstanceNorm2d": (lambda nn, dt: nn.InstanceNorm2d(2, affine=True, track_running_stats=True,
                                                    dtype=dt), (2, 2, 3, 3)),
    "RMSNorm": (lambda nn, dt: nn.RMSNorm([2, 3], eps=1e-4, dtype=dt), (2, 2, 3)),
    "PixelShuffle": (lambda nn, dt: nn.PixelShuffle(2), (1, 8, 2, 3)),
    "PixelUnshuffle": (lambda nn, dt: nn.PixelUnshuffle(2), (1, 2, 4, 2)),
    "Unfold": (lambda nn, dt: nn.Unfold(2, padding=1, stride=2), (1, 2, 3, 4)),
    "Fold": (lambda nn, dt: nn.Fold((3, 4), 2, padding=1, stride=2), (1, 8, 6)),
}
def _pair(name: str) -> tuple[Any, Any]:
    """The gtensor and the torch layer of ``name`` in float64, with torch's parameters."""
    build = LAYERS[name][0]
    t_layer, g_layer = build(torch.nn, torch.float64), build(nn, gt.float64)
    state = {k: gt.tensor(v.detach().numpy()) for k, v in t_layer.state_dict().items()}
    g_layer.load_state_dict(state)
    return g_layer, t_layer


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_torch(name: str, rng: np.random.Generator) -> None:
    g_layer, t_layer = _pair(name)
    x = rng.standard_normal(LAYERS[name][1])
    g_x, t_x = gt.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    got, want = g_layer(g_x), t_layer(t_x)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-7,
                               atol=1e-12)
    upstream = rng.standard_normal(tuple(want.shape))
    (got * gt.tensor(upstream)).sum().backward()
    (want * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(g_x.grad.numpy(), t_x.grad.numpy(), rtol=1e-7, atol=1e-12)
    g_params = dict(g_layer.named_parameters())
    for key, t_param in t_layer.named_parameters():
        np.testing.assert_allclose(g_params[key].grad.numpy(), t_param.grad.numpy(), rtol=1e-7,
                                   atol=1e-12)
    for key, t_buf in t_layer.named_buffers():
        np.testing.assert_allclose(dict(g_layer.named_buffers())[key].numpy(), t_buf.numpy(),
                                   rtol=1e-7)


def test_layers_on_cuda(rng: np.random.Generator) -> None:
    for name in ("Conv2d_reflect", "InstanceNorm2d"):
        g_layer, t_layer = _pair(name)
        x = rng.standard_normal(LAYERS[name][1])
        got = g_layer.to("cuda")(gt.tensor(x, device="cuda"))
        np.testing.assert_allclose(got.detach().cpu().numpy(),
                                   t_layer(torch.tensor(x)).detach().numpy(), rtol=1e-7,
                                   atol=1e-12)


def test_embedding_bag_and_max_norm_layers(rng: np.random.Generator) -> None:
    for mode in ("sum", "max"):
        t_bag = torch.nn.EmbeddingBag(6, 3, mode=mode, padding_idx=1, dtype=torch.float64)
        g_bag = nn.EmbeddingBag(6, 3, mode=mode, padding_idx=1, dtype=gt.float64)
        g_bag.load_state_dict({"weight": gt.tensor(t_bag.weight.detach().numpy())})
        idx, offsets = np.array([0, 1, 5, 2, 2]), np.array([0, 3])
        got = g_bag(gt.tensor(idx), gt.tensor(offsets))
        want = t_bag(torch.tensor(idx), torch.tensor(offsets))
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-7)
    t_emb = torch.nn.Embedding(4, 3, max_norm=1.0, dtype=torch.float64)
    g_emb = nn.Embedding(4, 3, max_norm=1.0, dtype=gt.float64)
    g_emb.load_state_dict({"weight": gt.tensor(t_emb.weight.detach().numpy())})
    idx = np.array([[0, 3], [3, 3]])
    np.testing.assert_allclose(g_emb(gt.tensor(idx)).detach().numpy(),
                               t_emb(torch.tensor(idx)).detach().numpy(), rtol=1e-7)
    np.testing.assert_allclose(g_emb.weight.detach().numpy(), t_emb.weight.detach().numpy(),
                               rtol=1e-7)


def test_ctc_loss_and_channel_dropout_layers(rng: np.random.Generator) -> None:
    x = rng.standard_normal((5, 2, 4))
    targets, steps, lengths = np.array([[1, 2], [3, 0]]), [5, 4], [2, 1]
    got = nn.CTCLoss(blank=0, reduction="sum")(gt.tensor(x).log_softmax(2), gt.tensor(targets),
                                               steps, lengths)
    want = torch.nn.CTCLoss(reduction="sum")(torch.tensor(x).log_softmax(2),
                                              torch.tensor(targets), steps, lengths)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)
    drop = nn.Dropout2d(0.5)
    y = drop(gt.ones(3, 6, 2, 2)).numpy().reshape(3, 6, 4)
    assert np.all(y.min(2) == y.max(2)) and set(np.unique(y)) <= {0.0, 2.0}
    drop.eval()
    x1 = gt.ones(2, 3, 4)
    assert nn.Dropout1d(0.5).eval()(x1) is x1
    with pytest.raises(ValueError, match=r"\[Dropout1d\] p must be in"):
        nn.Dropout1d(1.5)
    with pytest.raises(ValueError, match=r"\[Conv2d\] padding_mode must be one of"):
        nn.Conv2d(1, 1, 3, padding_mode="mirror")
