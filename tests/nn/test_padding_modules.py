"""Padding layers and the smaller functional forms and layers (local response norm, affine
grids, pdist, channel shuffle, Softmax2d, upsample aliases, gumbel softmax, alpha dropout)."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pytest
from torch_match import Call, match_torch

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.errors import ShapeError

torch = pytest.importorskip("torch")

PADS = [
    ("ZeroPad1d", ((1, 2),), (2, 3, 4)),
    ("ZeroPad2d", (1,), (2, 3, 4)),
    ("ZeroPad3d", ((1, 0, 0, 2, 1, 1),), (1, 2, 2, 3)),
    ("ConstantPad1d", (2, 1.5), (2, 3)),
    ("ConstantPad2d", ((0, 1, 2, 0), -1.0), (1, 2, 2, 3)),
    ("ConstantPad3d", (1, 0.5), (1, 1, 2, 2, 2)),
    ("ReflectionPad1d", ((2, 1),), (2, 2, 4)),
    ("ReflectionPad2d", (1,), (2, 3, 4)),
    ("ReflectionPad3d", ((1, 0, 1, 1, 0, 1),), (1, 1, 2, 3, 3)),
    ("ReplicationPad1d", (3,), (2, 3)),
    ("ReplicationPad2d", ((1, 2, 0, 1),), (1, 2, 2, 3)),
    ("ReplicationPad3d", (1,), (1, 2, 2, 2)),
    ("CircularPad1d", ((1, 2),), (1, 2, 3)),
    ("CircularPad2d", (1,), (2, 3, 3)),
    ("CircularPad3d", ((1, 1, 0, 1, 1, 0),), (1, 1, 2, 2, 3)),
]


@pytest.mark.parametrize("name,args,shape", PADS)
def test_padding_layers_match_torch(name: str, args: tuple, shape: tuple[int, ...],
                                    rng: np.random.Generator) -> None:
    mine, theirs = getattr(gt.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(mine) == repr(theirs)
    match_torch(lambda F, lit, x: (mine if F is gt.nn.functional else theirs)(x),
                [rng.standard_normal(shape)])


def test_padding_layer_on_cuda(rng: np.random.Generator) -> None:
    match_torch(lambda F, lit, x: (gt.nn.ReflectionPad2d((1, 0, 1, 1)) if F is
                                   gt.nn.functional else torch.nn.ReflectionPad2d((1, 0, 1, 1)))(x),
                [rng.standard_normal((1, 2, 3))], "cuda")


Make = Callable[[np.random.Generator], list[np.ndarray]]


def _n(*shapes: tuple[int, ...]) -> Make:
    return lambda rng: [rng.standard_normal(s) for s in shapes]


CASES: dict[str, tuple[Call, Make]] = {
    "local_response_norm": (lambda F, lit, x: F.local_response_norm(x, 3, 0.1, 0.75, 1.5),
                            _n((2, 5, 3, 2))),
    "local_response_norm_even": (lambda F, lit, x: F.local_response_norm(x, 4), _n((2, 5, 3))),
    "affine_grid_2d": (lambda F, lit, t: F.affine_grid(t, (2, 1, 3, 4), False), _n((2, 2, 3))),
    "affine_grid_3d_aligned": (lambda F, lit, t: F.affine_grid(t, (1, 1, 2, 1, 3), True),
                               _n((1, 3, 4))),
    "pdist": (lambda F, lit, x: F.pdist(x), _n((4, 3))),
    "pdist_p1": (lambda F, lit, x: F.pdist(x, 1.0), _n((4, 3))),
    "channel_shuffle": (lambda F, lit, x: F.channel_shuffle(x, 3), _n((2, 6, 2))),
    "upsample_bilinear": (lambda F, lit, x: F.upsample_bilinear(x, scale_factor=2),
                          _n((1, 2, 2, 3))),
    "upsample_nearest": (lambda F, lit, x: F.upsample_nearest(x, (3, 5)), _n((1, 2, 2, 3))),
    "upsample": (lambda F, lit, x: F.upsample(x, scale_factor=2, mode="linear"), _n((1, 2, 3))),
}
ON_CUDA = ["local_response_norm", "affine_grid_2d", "pdist"]
RUNS = [(name, "cpu") for name in sorted(CASES)] + [(name, "cuda") for name in ON_CUDA]


@pytest.mark.parametrize("name,device", RUNS)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_matches_torch(name: str, device: str, rng: np.random.Generator) -> None:
    call, make = CASES[name]
    match_torch(call, make(rng), device, rtol=1e-6, atol=1e-12)


def test_layers_match_torch(rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 4, 3, 2)).astype(np.float32)
    for mine, theirs in [
        (gt.nn.Softmax2d(), torch.nn.Softmax2d()),
        (gt.nn.LocalResponseNorm(3, 0.2), torch.nn.LocalResponseNorm(3, 0.2)),
        (gt.nn.ChannelShuffle(2), torch.nn.ChannelShuffle(2)),
        (gt.nn.UpsamplingNearest2d(scale_factor=2), torch.nn.UpsamplingNearest2d(scale_factor=2)),
        (gt.nn.UpsamplingBilinear2d((4, 5)), torch.nn.UpsamplingBilinear2d((4, 5))),
        (gt.nn.InstanceNorm3d(4, affine=True), torch.nn.InstanceNorm3d(4, affine=True)),
    ]:
        arg = x[..., None] if isinstance(mine, gt.nn.InstanceNorm3d) else x
        got = mine(gt.tensor(arg)).detach().numpy()
        np.testing.assert_allclose(got, theirs(torch.tensor(arg)).detach().numpy(), rtol=1e-5,
                                   atol=1e-6, err_msg=repr(mine))
        assert list(mine.state_dict()) == list(theirs.state_dict())


def test_upsample_aliases_warn() -> None:
    with pytest.warns(UserWarning, match="upsample is deprecated"):
        F.upsample(gt.ones(1, 1, 2), scale_factor=2)


def test_native_channel_shuffle_values(rng: np.random.Generator) -> None:
    x = rng.standard_normal((1, 4, 2, 2))
    want = torch.nn.functional.native_channel_shuffle(torch.tensor(x), 2)
    np.testing.assert_array_equal(F.native_channel_shuffle(gt.tensor(x), 2).numpy(),
                                  want.numpy())


def test_relu_in_place() -> None:
    x = gt.tensor([-1.0, 0.5])
    assert F.relu_(x) is x and x.tolist() == [0.0, 0.5]


def test_gumbel_softmax_samples(device: str) -> None:
    gt.manual_seed(0)
    n = 400 if device == "cpu" else 4  # the frequencies are checked on cpu
    logits = gt.tensor([[0.0, 1.0, 2.0]], device=device).expand(n, 3)
    soft = F.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(soft.sum(-1).cpu().numpy(), 1.0, rtol=1e-6)
    leaf = gt.zeros(n, 3, device=device, requires_grad=True)
    hard = F.gumbel_softmax(leaf + logits, hard=True)
    values = hard.detach().cpu().numpy()
    assert set(np.unique(values)) == {0.0, 1.0} and np.all(values.sum(-1) == 1.0)
    if device == "cpu":
        want = np.exp([0.0, 1.0, 2.0]) / np.exp([0.0, 1.0, 2.0]).sum()
        np.testing.assert_allclose(values.mean(0), want, atol=0.08)
    (hard * gt.tensor([1.0, 2.0, 3.0], device=device)).sum().backward()
    assert leaf.grad is not None and np.any(leaf.grad.cpu().numpy())  # straight-through


def test_alpha_dropout_keeps_moments() -> None:
    gt.manual_seed(1)
    x = gt.randn(100000)
    y = F.alpha_dropout(x, 0.3, training=True).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1.0) < 0.02
    assert F.alpha_dropout(x, 0.3) is x  # evaluation by default, as torch
    channels = F.feature_alpha_dropout(gt.randn(4, 6, 5), 0.5, training=True).numpy()
    alpha = 1.7580993408473766
    a = 1 / np.sqrt((alpha ** 2 * 0.5 + 1) * 0.5)
    dropped = np.isclose(channels, -alpha * a * 0.5)  # the value a dropped entry takes
    assert dropped.any() and np.all(dropped.all(2) | ~dropped.any(2))  # whole channels
    layer = gt.nn.AlphaDropout(0.2)
    layer.eval()
    assert layer(x) is x
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert F.alpha_dropout(x, 1.0, training=True).numpy().sum() == 0.0


ERRORS: list[tuple[Call, type[Exception], str]] = [
    (lambda: gt.nn.ReflectionPad2d(1)(gt.ones(2, 2)), ShapeError,
     r"\[ReflectionPad2d\] expected 3D or 4D input"),
    (lambda: gt.nn.ZeroPad2d((1, 2, 3)), ValueError, r"\[ZeroPad2d\] expected padding of length 4"),
    (lambda: F.local_response_norm(gt.ones(2, 3), 2), ShapeError,
     r"\[local_response_norm\] expected 3D or higher"),
    (lambda: F.affine_grid(gt.ones(1, 2, 3), (1, 1, 2, 2, 2)), ShapeError,
     r"\[affine_grid\] expected a batch of 3D affine matrices"),
    (lambda: F.affine_grid(gt.ones(1, 2, 3), (1, 2)), ValueError, r"\[affine_grid\] only 2-D"),
    (lambda: F.pdist(gt.ones(2, 3, 4)), ShapeError, r"\[pdist\] expected a 2-D input"),
    (lambda: F.channel_shuffle(gt.ones(1, 5, 2), 2), ShapeError,
     r"\[channel_shuffle\] number of channels \(5\) must be divisible by groups \(2\)"),
    (lambda: F.gumbel_softmax(gt.ones(2, 3), tau=0.0), ValueError, r"\[gumbel_softmax\] tau"),
    (lambda: F.feature_alpha_dropout(gt.ones(3), 0.5, True), ShapeError,
     r"\[feature_alpha_dropout\] expected an input with at least 2 dims"),
    (lambda: gt.nn.Softmax2d()(gt.ones(2, 3)), ShapeError, r"\[Softmax2d\] expected 3D or 4D"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_bad_input(case: int) -> None:
    call, exc, pattern = ERRORS[case]
    with pytest.raises(exc, match=pattern):
        call()
