"""The nn.functional ops added for PyTorch's surface (pooling, fold, conv3d, vision, norms,
embedding bags, CTC, interpolate modes) against ``torch.nn.functional``.

Every case is written once as ``call(F, lit, *floats)``: ``F`` is either
functional module, ``lit`` turns a NumPy array into a constant tensor of that
library, and the float arrays become leaves whose gradients are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.errors import DTypeError, ShapeError

torch = pytest.importorskip("torch")
TF = torch.nn.functional
# PyTorch warns that its own asymmetric 'same' padding copies the input.
pytestmark = pytest.mark.filterwarnings("ignore:Using padding='same':UserWarning")

Call = Callable[..., Any]
Make = Callable[[np.random.Generator], list[np.ndarray]]


def _n(*shape: int) -> Make:
    return lambda rng: [rng.standard_normal(shape)]


def _nn(*shapes: tuple[int, ...]) -> Make:
    return lambda rng: [rng.standard_normal(s) for s in shapes]


GRID = lambda rng: [rng.standard_normal((2, 2, 3, 4)),  # noqa: E731
                    rng.uniform(-1.3, 1.3, (2, 2, 3, 2))]
CTC_TARGETS = np.array([[1, 2, 2], [3, 1, 0]])
BAG = np.array([1, 2, 4, 5, 4, 3, 0])
OFFSETS = np.array([0, 2, 2, 5])

CASES: dict[str, tuple[Call, Make]] = {
    "max_pool1d": (lambda F, lit, x: F.max_pool1d(x, 3, 2, 1, ceil_mode=True), _n(2, 2, 7)),
    "avg_pool1d": (lambda F, lit, x: F.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
                   _n(2, 2, 7)),
    "adaptive_max_pool2d": (lambda F, lit, x: F.adaptive_max_pool2d(x, (3, 2)), _n(1, 2, 5, 5)),
    "conv3d": (lambda F, lit, x, w, b: F.conv3d(x, w, b, (1, 2, 1), 1, (2, 1, 1), 2),
               _nn((1, 4, 4, 3, 2), (2, 2, 2, 2, 1), (2,))),
    "conv3d_same": (lambda F, lit, x, w: F.conv3d(x, w, padding="same", dilation=(1, 2, 1)),
                    _nn((1, 1, 3, 4, 2), (2, 1, 2, 2, 3))),
    "conv_transpose1d": (lambda F, lit, x, w: F.conv_transpose1d(x, w, None, 2, 1, 1, 2),
                         _nn((2, 4, 3), (4, 1, 3))),
    "unfold": (lambda F, lit, x: F.unfold(x, (2, 3), (1, 2), 1, (2, 1)), _n(1, 2, 4, 5)),
    "fold": (lambda F, lit, x: F.fold(x, (4, 5), (2, 3), (1, 2), 1, (2, 1)), _n(1, 12, 9)),
    "pixel_shuffle": (lambda F, lit, x: F.pixel_shuffle(x, 2), _n(2, 8, 2, 3)),
    "pixel_unshuffle": (lambda F, lit, x: F.pixel_unshuffle(x, 2), _n(1, 2, 4, 2)),
    "grid_sample": (lambda F, lit, x, g: F.grid_sample(x, g, align_corners=False), GRID),
    "grid_sample_reflection": (lambda F, lit, x, g: F.grid_sample(
        x, g, padding_mode="reflection", align_corners=True), GRID),
    "grid_sample_border": (lambda F, lit, x, g: F.grid_sample(
        x, g, padding_mode="border", align_corners=False), GRID),
    "grid_sample_nearest": (lambda F, lit, x, g: F.grid_sample(
        x, g.detach(), "nearest", align_corners=False), GRID),
    "grid_sample_3d": (lambda F, lit, x, g: F.grid_sample(
        x, g, padding_mode="reflection", align_corners=False), lambda rng: [
            rng.standard_normal((1, 2, 2, 3, 2)), rng.uniform(-1.3, 1.3, (1, 2, 1, 2, 3))]),
    "grid_sample_3d_nearest": (lambda F, lit, x, g: F.grid_sample(
        x, g.detach(), "nearest", align_corners=True), lambda rng: [
            rng.standard_normal((1, 2, 2, 3, 2)), rng.uniform(-1.3, 1.3, (1, 2, 1, 2, 3))]),
    "grid_sample_bicubic": (lambda F, lit, x, g: F.grid_sample(
        x, g, "bicubic", padding_mode="reflection", align_corners=False), GRID),
    "grid_sample_bicubic_border": (lambda F, lit, x, g: F.grid_sample(
        x, g, "bicubic", padding_mode="border", align_corners=True), GRID),
    "instance_norm": (lambda F, lit, x, w, b: F.instance_norm(x, weight=w, bias=b),
                      _nn((2, 3, 4), (3,), (3,))),
    "rms_norm": (lambda F, lit, x, w: F.rms_norm(x, (3, 4), w, 1e-3), _nn((2, 3, 4), (3, 4))),
    "rms_norm_default_eps": (lambda F, lit, x: F.rms_norm(x, [4]), _n(2, 4)),
    "embedding_bag_sum": (lambda F, lit, w, s: F.embedding_bag(
        lit(BAG), w, lit(OFFSETS), mode="sum", per_sample_weights=s, padding_idx=4),
                          _nn((6, 3), (7,))),
    "embedding_bag_mean": (lambda F, lit, w: F.embedding_bag(
        lit(BAG), w, lit(np.append(OFFSETS, 7)), include_last_offset=True), _n(6, 3)),
    "embedding_bag_max": (lambda F, lit, w: F.embedding_bag(
        lit(BAG[:6].reshape(2, 3)), w, mode="max", padding_idx=2), _n(6, 3)),
    "interpolate_bicubic": (lambda F, lit, x: F.interpolate(x, (3, 7), mode="bicubic"),
                            _n(1, 2, 4, 5)),
    "interpolate_bicubic_aligned": (lambda F, lit, x: F.interpolate(
        x, scale_factor=1.5, mode="bicubic", align_corners=True), _n(1, 1, 3, 4)),
    "interpolate_area": (lambda F, lit, x: F.interpolate(x, (2, 3), mode="area"),
                         _n(1, 2, 5, 7)),
    "interpolate_nearest_exact": (lambda F, lit, x: F.interpolate(
        x, scale_factor=1.7, mode="nearest-exact"), _n(2, 1, 5)),
    "ctc_loss": (lambda F, lit, x: F.ctc_loss(x.log_softmax(2), lit(CTC_TARGETS), lit([6, 5]),
                                              lit([3, 2])), _n(6, 2, 4)),
}

# Every case on cpu; one of each composition pattern on the (simulated) cuda device too.
ON_CUDA = ["adaptive_max_pool2d", "conv3d", "fold", "grid_sample", "embedding_bag_sum",
           "interpolate_bicubic", "max_pool1d", "rms_norm"]
RUNS = [(name, "cpu") for name in sorted(CASES)] + [(name, "cuda") for name in ON_CUDA]

def _check(call: Call, arrays: list[np.ndarray], device: str = "cpu",
           rtol: float = 1e-7) -> None:
    """``call`` with gtensor and with torch: the same values and the same input gradients."""
    g_in = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    got = call(F, lambda a: gt.tensor(np.asarray(a), device=device), *g_in)
    want = call(TF, lambda a: torch.tensor(np.asarray(a)), *t_in)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=rtol,
                               atol=1e-12)
    weights = np.random.default_rng(7).uniform(0.5, 1.5, tuple(want.shape))
    (got * gt.tensor(weights, device=device)).sum().backward()
    (want * torch.tensor(weights)).sum().backward()
    for g, t in zip(g_in, t_in, strict=True):
        if t.grad is None:
            assert g.grad is None
            continue
        np.testing.assert_allclose(g.grad.cpu().numpy(), t.grad.numpy(), rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("name,device", RUNS)
def test_matches_torch(name: str, device: str, rng: np.random.Generator) -> None:
    call, make = CASES[name]
    _check(call, make(rng), device)


def test_adaptive_max_pool2d_indices_and_unbatched(rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 7, 5))
    got, idx = F.adaptive_max_pool2d(gt.tensor(x), (3, None), return_indices=True)
    want, t_idx = TF.adaptive_max_pool2d(torch.tensor(x), (3, None), return_indices=True)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    np.testing.assert_array_equal(idx.numpy(), t_idx.numpy())


def test_channel_dropout_zeroes_whole_channels() -> None:
    x = gt.ones(4, 8, 3, 2)
    y = F.dropout2d(x, 0.5).numpy()
    per_channel = y.reshape(4, 8, -1)
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert np.all(per_channel.min(2) == per_channel.max(2))
    assert F.dropout3d(x, 0.5, training=False) is x
    assert F.dropout1d(gt.ones(3, 5), 1.0).numpy().sum() == 0.0


def test_instance_norm_updates_running_stats(rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 3, 5))
    mean, var = gt.zeros(3, dtype=gt.float64), gt.ones(3, dtype=gt.float64)
    t_mean, t_var = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    F.instance_norm(gt.tensor(x), mean, var, momentum=0.3)
    TF.instance_norm(torch.tensor(x), t_mean, t_var, momentum=0.3)
    np.testing.assert_allclose(mean.numpy(), t_mean.numpy(), rtol=1e-12)
    np.testing.assert_allclose(var.numpy(), t_var.numpy(), rtol=1e-12)
    got = F.instance_norm(gt.tensor(x), mean, var, use_input_stats=False)
    want = TF.instance_norm(torch.tensor(x), t_mean, t_var, use_input_stats=False)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_ctc_loss_options(rng: np.random.Generator) -> None:
    x = rng.standard_normal((5, 3, 4))
    flat, lengths, steps = np.array([1, 2, 2, 3, 3, 3]), [3, 0, 3], [5, 4, 2]
    for reduction, zero_inf in (("none", False), ("sum", True), ("mean", True)):
        got = F.ctc_loss(gt.tensor(x).log_softmax(2), gt.tensor(flat), steps, lengths,
                         blank=0, reduction=reduction, zero_infinity=zero_inf)
        want = TF.ctc_loss(torch.tensor(x).log_softmax(2), torch.tensor(flat),
                           torch.tensor(steps), torch.tensor(lengths), 0, reduction, zero_inf)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)
    single = F.ctc_loss(gt.tensor(x[:, 0]).log_softmax(1), gt.tensor([3, 1]), 5, 2, blank=2)
    t_single = TF.ctc_loss(torch.tensor(x[:, 0]).log_softmax(1), torch.tensor([3, 1]), (5,),
                           (2,), blank=2)
    np.testing.assert_allclose(single.numpy(), t_single.numpy(), rtol=1e-10)


def test_embedding_max_norm_renormalizes_picked_rows(rng: np.random.Generator) -> None:
    w = rng.standard_normal((5, 3)) * 3
    g_w, t_w = gt.tensor(w), torch.tensor(w)
    idx = np.array([[0, 2], [2, 4]])
    got = F.embedding(gt.tensor(idx), g_w, max_norm=1.5)
    want = TF.embedding(torch.tensor(idx), t_w, max_norm=1.5)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-7)
    np.testing.assert_allclose(g_w.numpy(), t_w.numpy(), rtol=1e-7)


ERRORS: list[tuple[Call, type[Exception], str]] = [
    (lambda: F.conv3d(gt.ones(2, 3), gt.ones(1, 1, 1, 1, 1)), ShapeError,
     r"\[conv3d\] expected a 4-D or 5-D input, got shape \(2, 3\)"),
    (lambda: F.conv3d(gt.ones(1, 2, 3, 3, 3), gt.ones(1, 3, 1, 1, 1)), ShapeError,
     r"\[conv3d\] expected input with 3 channels"),
    (lambda: F.max_pool1d(gt.ones(1, 1, 1, 4), 2), ShapeError, r"\[max_pool1d\] expected a 2-D"),
    (lambda: F.avg_pool1d(gt.ones(1, 4), 2, padding=2), ValueError, r"\[avg_pool1d\] padding"),
    (lambda: F.conv_transpose1d(gt.ones(1, 2, 3), gt.ones(3, 1, 2)), ShapeError,
     r"\[conv_transpose1d\] expected input with 3 channels"),
    (lambda: F.unfold(gt.ones(1, 1, 2, 2), 3), ShapeError, r"\[unfold\] .* too small"),
    (lambda: F.fold(gt.ones(1, 5, 9), (4, 4), 2), ShapeError, r"\[fold\] expected input"),
    (lambda: F.pixel_shuffle(gt.ones(1, 3, 2, 2), 2), ShapeError, r"\[pixel_shuffle\]"),
    (lambda: F.pixel_unshuffle(gt.ones(1, 1, 3, 2), 2), ShapeError, r"\[pixel_unshuffle\]"),
    (lambda: F.grid_sample(gt.ones(1, 1, 2, 2), gt.ones(1, 2, 2, 3)), ShapeError,
     r"\[grid_sample\] expected a grid"),
    (lambda: F.grid_sample(gt.ones(1, 1, 2, 2), gt.ones(1, 2, 2, 2), "cubic"), ValueError,
     r"\[grid_sample\] mode"),
    (lambda: F.rms_norm(gt.ones(2, 3), (4,)), ShapeError, r"\[rms_norm\] input of shape"),
    (lambda: F.instance_norm(gt.ones(2, 3)), ShapeError, r"\[instance_norm\] expected input"),
    (lambda: F.instance_norm(gt.ones(2, 3, 2), use_input_stats=False), ValueError,
     r"\[instance_norm\] running_mean and running_var are required"),
    (lambda: F.dropout2d(gt.ones(2, 3), 0.5), ShapeError, r"\[dropout2d\] expected a 3-D"),
    (lambda: F.embedding_bag(gt.tensor([1, 2]), gt.ones(3, 2)), ValueError,
     r"\[embedding_bag\] offsets are required"),
    (lambda: F.embedding_bag(gt.tensor([[1]]), gt.ones(3, 2), mode="mean",
                             per_sample_weights=gt.ones(1, 1)), ValueError,
     r"\[embedding_bag\] per_sample_weights"),
    (lambda: F.embedding_bag(gt.ones(2, 2), gt.ones(3, 2)), DTypeError,
     r"\[embedding_bag\] expected indices"),
    (lambda: F.ctc_loss(gt.ones(4, 1, 3), gt.tensor([[1]]), [5], [1]), ValueError,
     r"\[ctc_loss\] input_lengths"),
    (lambda: F.adaptive_max_pool2d(gt.ones(1, 1, 2, 2), 0), ValueError,
     r"\[adaptive_max_pool2d\] output_size"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_bad_input_raises_naming_the_op(case: int) -> None:
    call, kind, pattern = ERRORS[case]
    with pytest.raises(kind, match=pattern):
        call()
