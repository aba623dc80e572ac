"""The margin, embedding and likelihood losses (functional and modules) against torch."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from torch_match import Call, match_torch

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.errors import DTypeError, ShapeError

torch = pytest.importorskip("torch")

Make = Callable[[np.random.Generator], list[np.ndarray]]
SIGNS = np.array([1.0, -1.0, -1.0])
CLASSES = np.array([0, 3, 1])
LABELS = np.array([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 2, 0]])


def _n(*shapes: tuple[int, ...]) -> Make:
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def _pos(*shapes: tuple[int, ...]) -> Make:
    return lambda rng: [rng.uniform(0.2, 3.0, s) for s in shapes]


CASES: dict[str, tuple[Call, Make]] = {
    "poisson_log": (lambda F, lit, x, t, r: F.poisson_nll_loss(x, t.detach() * 3,
                                                              reduction=r), _n((3, 4), (3, 4))),
    "poisson_full": (lambda F, lit, x, t, r: F.poisson_nll_loss(
        x, t.detach() * 2, log_input=False, full=True, reduction=r), _pos((3, 4), (3, 4))),
    "gaussian_per_sample_var": (lambda F, lit, x, t, v, r: F.gaussian_nll_loss(
        x, t, v, full=True, reduction=r), lambda rng: [rng.standard_normal((3, 4)),
                                                        rng.standard_normal((3, 4)),
                                                        rng.uniform(0.1, 2, (3, 1))]),
    "gaussian_dropped_dim": (lambda F, lit, x, t, v, r: F.gaussian_nll_loss(x, t, v, reduction=r),
                             lambda rng: [rng.standard_normal((3, 4)),
                                          rng.standard_normal((3, 4)), rng.uniform(0, 2, (3,))]),
    "hinge_embedding": (lambda F, lit, x, r: F.hinge_embedding_loss(
        x, lit(np.sign(np.arange(12.0).reshape(3, 4) % 3 - 0.5)), 0.7, reduction=r), _n((3, 4))),
    "cosine_embedding": (lambda F, lit, a, b, r: F.cosine_embedding_loss(
        a, b, lit(SIGNS), 0.1, reduction=r), _n((3, 4), (3, 4))),
    "soft_margin": (lambda F, lit, x, r: F.soft_margin_loss(
        x, lit(np.where(np.arange(12).reshape(3, 4) % 2, 1.0, -1.0)), reduction=r), _n((3, 4))),
    "multilabel_soft_margin": (lambda F, lit, x, w, r: F.multilabel_soft_margin_loss(
        x, lit((np.arange(12).reshape(3, 4) % 3 == 0) * 1.0), w, reduction=r), _n((3, 4), (4,))),
    "multi_margin_p1": (lambda F, lit, x, r: F.multi_margin_loss(
        x, lit(CLASSES), margin=0.9, reduction=r), _n((3, 4))),
    "multi_margin_p2_weight": (lambda F, lit, x, r: F.multi_margin_loss(
        x, lit(CLASSES), 2, 1.0, lit(np.array([0.5, 1.0, 2.0, 1.5])), reduction=r), _n((3, 4))),
    "multilabel_margin": (lambda F, lit, x, r: F.multilabel_margin_loss(x, lit(LABELS),
                                                                        reduction=r), _n((3, 4))),
    "multilabel_margin_1d": (lambda F, lit, x, r: F.multilabel_margin_loss(
        x, lit(LABELS[0]), reduction=r), _n((4,))),
    "triplet_with_distance_swap": (lambda F, lit, a, p, n, r: F.triplet_margin_with_distance_loss(
        a, p, n, swap=True, reduction=r), _n((3, 4), (3, 4), (3, 4))),
    "triplet_with_cosine": (lambda F, lit, a, p, n, r: F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5,
        reduction=r), _n((3, 4), (3, 4), (3, 4))),
}
ON_CUDA = ["multilabel_margin", "gaussian_per_sample_var"]
RUNS = ([(name, "cpu", r) for name in sorted(CASES) for r in ("none", "mean", "sum")]
        + [(name, "cuda", "mean") for name in ON_CUDA])


@pytest.mark.parametrize("name,device,reduction", RUNS)
def test_matches_torch(name: str, device: str, reduction: str,
                       rng: np.random.Generator) -> None:
    call, make = CASES[name]
    match_torch(lambda F, lit, *a: call(F, lit, *a, reduction), make(rng), device, rtol=1e-6)


def test_modules_match_functional(rng: np.random.Generator) -> None:
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    pairs = [
        (gt.nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-4, reduction="sum"),
         torch.nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-4, reduction="sum"),
         (np.abs(x), np.abs(y) * 3)),
        (gt.nn.GaussianNLLLoss(full=True), torch.nn.GaussianNLLLoss(full=True),
         (x, y, np.abs(y) + 0.1)),
        (gt.nn.HingeEmbeddingLoss(0.5), torch.nn.HingeEmbeddingLoss(0.5), (x, np.sign(y))),
        (gt.nn.CosineEmbeddingLoss(0.2), torch.nn.CosineEmbeddingLoss(0.2), (x, y, SIGNS)),
        (gt.nn.SoftMarginLoss(), torch.nn.SoftMarginLoss(), (x, np.sign(y))),
        (gt.nn.MultiLabelSoftMarginLoss(gt.tensor(np.arange(1.0, 5.0))),
         torch.nn.MultiLabelSoftMarginLoss(torch.tensor(np.arange(1.0, 5.0))),
         (x, (y > 0) * 1.0)),
        (gt.nn.MultiLabelMarginLoss(), torch.nn.MultiLabelMarginLoss(), (x, LABELS)),
        (gt.nn.MultiMarginLoss(2, 0.5, gt.tensor(np.arange(1.0, 5.0))),
         torch.nn.MultiMarginLoss(2, 0.5, torch.tensor(np.arange(1.0, 5.0))), (x, CLASSES)),
        (gt.nn.TripletMarginWithDistanceLoss(margin=0.3, swap=True),
         torch.nn.TripletMarginWithDistanceLoss(margin=0.3, swap=True), (x, y, x * y)),
    ]
    for mine, theirs, args in pairs:
        got = mine(*[gt.tensor(a) for a in args])
        want = theirs(*[torch.tensor(a) for a in args])
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, err_msg=repr(mine))
        assert list(mine.state_dict()) == list(theirs.state_dict())


def test_gaussian_clamps_var_but_passes_its_gradient() -> None:
    var = gt.tensor([0.0, 1e-9, 2.0], requires_grad=True)
    t_var = torch.tensor([0.0, 1e-9, 2.0], requires_grad=True)
    x = np.array([0.5, -1.0, 1.0])
    F.gaussian_nll_loss(gt.tensor(x), gt.zeros(3), var, eps=1e-3).backward()
    torch.nn.functional.gaussian_nll_loss(torch.tensor(x), torch.zeros(3), t_var,
                                          eps=1e-3).backward()
    np.testing.assert_allclose(var.grad.numpy(), t_var.grad.numpy(), rtol=1e-6)


ERRORS: list[tuple[Call, type[Exception], str]] = [
    (lambda: F.gaussian_nll_loss(gt.ones(2, 3), gt.ones(2, 3), gt.ones(2, 2)), ShapeError,
     r"\[gaussian_nll_loss\] var of shape \(2, 2\)"),
    (lambda: F.gaussian_nll_loss(gt.ones(2), gt.ones(2), -gt.ones(2)), ValueError,
     r"\[gaussian_nll_loss\] var has negative"),
    (lambda: F.poisson_nll_loss(gt.ones(2), gt.ones(3)), ShapeError, r"\[poisson_nll_loss\]"),
    (lambda: F.multi_margin_loss(gt.ones(2, 3), gt.tensor([0, 1]), p=3), ValueError,
     r"\[multi_margin_loss\] only p == 1 and p == 2"),
    (lambda: F.multi_margin_loss(gt.ones(2, 3), gt.tensor([0, 1], dtype=gt.int32)), DTypeError,
     r"\[multi_margin_loss\] expected int64"),
    (lambda: F.multi_margin_loss(gt.ones(2, 3), gt.tensor([0, 5])), IndexError,
     r"multi_margin_loss"),
    (lambda: F.multilabel_margin_loss(gt.ones(2, 3), gt.tensor([0, 1])), ShapeError,
     r"\[multilabel_margin_loss\] expected target of shape \(2, 3\)"),
    (lambda: F.cosine_embedding_loss(gt.ones(2, 3), gt.ones(2, 3), gt.ones(2, 1)), ShapeError,
     r"\[cosine_embedding_loss\] 2D target tensor expects 1D target"),
    (lambda: F.triplet_margin_with_distance_loss(gt.ones(2), gt.ones(2), gt.ones(2),
                                                 margin=0.0), ValueError,
     r"\[triplet_margin_with_distance_loss\] margin must be greater than 0"),
    (lambda: F.soft_margin_loss(gt.ones(2), gt.ones(2), reduction="avg"), ValueError,
     r"\[soft_margin_loss\] reduction"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_bad_input(case: int) -> None:
    call, exc, pattern = ERRORS[case]
    with pytest.raises(exc, match=pattern):
        call()


def test_adaptive_log_softmax_matches_torch(rng: np.random.Generator) -> None:
    theirs = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0,
                                                 head_bias=True).double()
    mine = gt.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True,
                                            dtype=gt.float64)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    mine.load_state_dict({k: gt.tensor(v.detach().numpy()) for k, v in
                          theirs.state_dict().items()})
    x, y = rng.standard_normal((5, 8)), np.array([0, 4, 9, 2, 7])
    g_x, t_x = gt.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    got, want = mine(g_x, gt.tensor(y)), theirs(t_x, torch.tensor(y))
    np.testing.assert_allclose(got.output.detach().numpy(), want.output.detach().numpy(),
                               rtol=1e-10)
    got.loss.backward()
    want.loss.backward()
    np.testing.assert_allclose(g_x.grad.numpy(), t_x.grad.numpy(), rtol=1e-9, atol=1e-15)
    for (name, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters(), strict=True):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-9, atol=1e-15,
                                   err_msg=name)
    np.testing.assert_allclose(mine.log_prob(gt.tensor(x)).detach().numpy(),
                               theirs.log_prob(torch.tensor(x)).detach().numpy(), rtol=1e-10)
    assert mine.predict(gt.tensor(x)).tolist() == theirs.predict(torch.tensor(x)).tolist()
    single = mine(gt.tensor(x[1]), gt.tensor(4)).output
    assert single.shape == () and np.isclose(single.item(), got.output[1].item())
    with pytest.raises(IndexError, match=r"\[AdaptiveLogSoftmaxWithLoss\] Target values"):
        mine(gt.tensor(x), gt.tensor([0, 1, 2, 3, 10]))
    with pytest.raises(ValueError, match=r"\[AdaptiveLogSoftmaxWithLoss\] cutoffs should be"):
        gt.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])


def test_nll_loss_2d_is_a_deprecated_nll_loss(rng: np.random.Generator) -> None:
    with pytest.warns(UserWarning, match="NLLLoss2d has been deprecated"):
        loss = gt.nn.NLLLoss2d(ignore_index=1)
    x = rng.standard_normal((2, 3, 2, 2))
    y = np.array([[[0, 1], [2, 2]], [[1, 0], [0, 2]]])
    want = torch.nn.functional.nll_loss(torch.tensor(x), torch.tensor(y), ignore_index=1)
    np.testing.assert_allclose(loss(gt.tensor(x), gt.tensor(y)).numpy(), want.numpy(),
                               rtol=1e-12)
