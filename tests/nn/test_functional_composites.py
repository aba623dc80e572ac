"""Composite activations, distances and losses of ``nn.functional`` against PyTorch's.

Values and gradients (float64) are compared with ``torch.nn.functional`` called
with the same arguments: every case is written once as ``call(F, *tensors)``
and run with both modules.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.errors import DTypeError, ShapeError

torch = pytest.importorskip("torch")
TF = torch.nn.functional

NAN, INF = math.nan, math.inf
EDGES = np.array([0.0, -3.0, 3.0, 6.0, -1.0, 1.0, -2.0, -20.0, 20.0, 25.0, -25.0, 1e4, -1e4,
                  0.5, -0.5, 1e-9, NAN, INF, -INF])


def _x(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal((2, 3)) * 3]


def _pair(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal((2, 3)), rng.standard_normal((2, 3))]


def _triple(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal((2, 3)) for _ in range(3)]


def _ranking(rng: np.random.Generator) -> list[np.ndarray]:
    return [*_pair(rng), rng.choice([-1.0, 1.0], size=(2, 3))]


def _prelu(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal((2, 3)), rng.uniform(0.1, 0.5, 3)]


Call = Callable[..., Any]
Make = Callable[[np.random.Generator], list[np.ndarray]]

# Every new function once, on 2x3 inputs (the cpu + cuda test runs them all).
CASES: dict[str, tuple[Call, Make]] = {
    "leaky_relu": (lambda F, x: F.leaky_relu(x, 0.2), _x),
    "elu": (lambda F, x: F.elu(x, 0.7), _x),
    "selu": (lambda F, x: F.selu(x), _x),
    "celu": (lambda F, x: F.celu(x, 2.0), _x),
    "relu6": (lambda F, x: F.relu6(x + 3.0), _x),
    "hardtanh": (lambda F, x: F.hardtanh(x, -2.0, 3.0), _x),
    "hardswish": (lambda F, x: F.hardswish(x), _x),
    "hardsigmoid": (lambda F, x: F.hardsigmoid(x), _x),
    "mish": (lambda F, x: F.mish(x), _x),
    "logsigmoid": (lambda F, x: F.logsigmoid(x), _x),
    "softplus": (lambda F, x: F.softplus(x, 2.0, 4.0), _x),
    "glu": (lambda F, x: F.glu(x, 0), _x),
    "prelu": (lambda F, x, w: F.prelu(x, w), _prelu),
    "softmin": (lambda F, x: F.softmin(x, dim=1), _x),
    "normalize": (lambda F, x: F.normalize(x, p=1.0, dim=0), _x),
    "cosine_similarity": (lambda F, a, b: F.cosine_similarity(a, b), _pair),
    "pairwise_distance": (lambda F, a, b: F.pairwise_distance(a, b, keepdim=True), _pair),
    "huber_loss": (lambda F, a, b: F.huber_loss(a, b, delta=0.5), _pair),
    "triplet_margin_loss": (lambda F, a, p, n: F.triplet_margin_loss(a, p, n, swap=True),
                            _triple),
    "margin_ranking_loss": (lambda F, a, b, t: F.margin_ranking_loss(a, b, t, 0.1), _ranking),
}


def _check(call: Call, arrays: list[np.ndarray], device: str = "cpu", rtol: float = 1e-7,
           skip_grad: np.ndarray | None = None) -> None:
    """``call`` with gtensor and with torch: the same values, and the same input gradients."""
    g_in = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    got, want = call(F, *g_in), call(TF, *t_in)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=rtol,
                               atol=1e-12, equal_nan=True)
    weights = np.random.default_rng(7).uniform(0.5, 1.5, tuple(want.shape))
    (got * gt.tensor(weights, device=device)).sum().backward()
    (want * torch.tensor(weights)).sum().backward()
    for g, t in zip(g_in, t_in, strict=True):
        g_grad, t_grad = g.grad.cpu().numpy(), t.grad.numpy()
        if skip_grad is not None:
            g_grad, t_grad = g_grad[~skip_grad], t_grad[~skip_grad]
        np.testing.assert_allclose(g_grad, t_grad, rtol=rtol, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_and_backward_on_each_device(name: str, device: str,
                                             rng: np.random.Generator) -> None:
    call, make = CASES[name]
    _check(call, make(rng), device)


ELEMENTWISE = ["leaky_relu", "elu", "selu", "celu", "relu6", "hardtanh", "hardswish",
               "hardsigmoid", "mish", "logsigmoid", "softplus"]


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_edge_values_kinks_and_nan(name: str) -> None:
    # PyTorch's own hardtanh gradient at nan is 0 or 1 depending on its vectorized path
    skip = np.isnan(EDGES) if name in ("relu6", "hardtanh") else None
    _check(CASES[name][0], [EDGES], skip_grad=skip)


OPTIONS: list[tuple[Call, Make]] = [
    (lambda F, x: F.leaky_relu(x), _x),
    (lambda F, x: F.elu(x), _x),
    (lambda F, x: F.celu(x), _x),
    (lambda F, x: F.hardtanh(x), _x),
    (lambda F, x: F.softplus(x), _x),
    (lambda F, x: F.glu(x), lambda rng: [rng.standard_normal((2, 4))]),
    (lambda F, x, w: F.prelu(x, w), lambda rng: [rng.standard_normal((2, 3, 2)),
                                                 np.array([0.3])]),
    (lambda F, x, w: F.prelu(x, w), lambda rng: [rng.standard_normal(4), np.array([0.3])]),
    (lambda F, x, w: F.prelu(x, w), lambda rng: [rng.standard_normal((2, 3, 2, 2)),
                                                 rng.uniform(0, 1, 3)]),
    (lambda F, x: F.normalize(x), lambda rng: [np.vstack([rng.standard_normal(3),
                                                          np.zeros(3)])]),
    (lambda F, x: F.normalize(x, p=INF, dim=(0, 1)), _x),
    (lambda F, a, b: F.cosine_similarity(a, b, dim=-1, eps=1e-3),
     lambda rng: [rng.standard_normal((2, 3)), rng.standard_normal(3)]),
    (lambda F, a, b: F.cosine_similarity(a, b, dim=0),
     lambda rng: [np.array([[0.0, 1e-10], [0.0, 0.0]]), rng.standard_normal((2, 2))]),
    (lambda F, a, b: F.pairwise_distance(a, b, p=1.0),
     lambda rng: [rng.standard_normal(3), rng.standard_normal((2, 3))]),
    (lambda F, a, b: F.pairwise_distance(a, b, p=INF, eps=0.0), _pair),
    (lambda F, a, b: F.huber_loss(a, b, reduction="none"), _pair),
    (lambda F, a, b, w: F.huber_loss(a, b, "sum", 2.0, w), _triple),
    (lambda F, a, b: F.huber_loss(a, b), lambda rng: [np.array([0.0, 1.0, -1.0, 3.0]),
                                                      np.zeros(4)]),
    (lambda F, a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1.0, reduction="sum"),
     _triple),
    (lambda F, a, p, n: F.triplet_margin_loss(a, p, n, reduction="none"),
     lambda rng: [rng.standard_normal(3) for _ in range(3)]),
    (lambda F, a, b, t: F.margin_ranking_loss(a, b, t, reduction="none"), _ranking),
]


@pytest.mark.parametrize("case", range(len(OPTIONS)))
def test_options(case: int, rng: np.random.Generator) -> None:
    call, make = OPTIONS[case]
    _check(call, make(rng))


@pytest.mark.parametrize("name", ["softmin", "softmax", "log_softmax"])
def test_softmaxes_dtype_and_implicit_dim(name: str, rng: np.random.Generator) -> None:
    x = rng.standard_normal((2, 3, 2)).astype(np.float32)
    got = getattr(F, name)(gt.tensor(x), 0, dtype=gt.float64)
    assert got.dtype is gt.float64
    want = getattr(TF, name)(torch.tensor(x), 0, dtype=torch.float64)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    with pytest.warns(UserWarning, match="implicit dimension"):
        implicit = getattr(F, name)(gt.tensor(x))  # dim 0 for a 3-d input, as torch picks
    np.testing.assert_allclose(implicit.numpy(), got.numpy(), rtol=1e-6)
    scalar = getattr(F, name)(gt.tensor(2.0), -1)
    assert scalar.shape == () and scalar.item() == getattr(TF, name)(torch.tensor(2.0), -1).item()


INPLACE = ["leaky_relu", "elu", "selu", "celu", "relu6", "hardtanh", "hardswish",
           "hardsigmoid", "mish"]


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_writes_the_input_and_is_differentiable(name: str,
                                                        rng: np.random.Generator) -> None:
    x = np.concatenate([rng.standard_normal(4) * 4, [0.0, -3.0, 3.0]])
    fn = getattr(F, name)
    plain = gt.tensor(x)
    assert fn(plain, inplace=True) is plain
    np.testing.assert_allclose(plain.numpy(), fn(gt.tensor(x)).numpy())

    leaf = gt.tensor(x, requires_grad=True)
    with pytest.raises(RuntimeError, match=rf"\[{name}_\] a leaf Variable"):
        fn(leaf, inplace=True)
    mid = leaf * 2.0
    view = mid[1:]
    assert fn(view, inplace=True) is view
    mid.sum().backward()
    t_leaf = torch.tensor(x, requires_grad=True)
    t_mid = t_leaf * 2.0
    t_mid = torch.cat([t_mid[:1], getattr(TF, name)(t_mid[1:])])
    t_mid.sum().backward()
    np.testing.assert_allclose(mid.detach().numpy(), t_mid.detach().numpy(), rtol=1e-7)
    np.testing.assert_allclose(leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-7)


def test_one_hot_is_int64() -> None:
    labels = np.array([0, 2, 1, 2])
    for classes in (-1, 5):
        got = F.one_hot(gt.tensor(labels), num_classes=classes)
        assert got.dtype is gt.int64
        np.testing.assert_array_equal(got.numpy(), TF.one_hot(torch.tensor(labels),
                                                              classes).numpy())


def test_activations_compile_without_falling_back(rng: np.random.Generator) -> None:
    x = gt.tensor((rng.standard_normal((2, 4)) * 4).astype(np.float32))

    def f(x: gt.Tensor) -> gt.Tensor:
        return F.hardswish(x) + F.hardsigmoid(x) * F.elu(x)

    compiled = gt.compile(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an eager fallback warns
        for _ in range(2):
            np.testing.assert_allclose(compiled(x).numpy(), f(x).numpy(), rtol=1e-6,
                                       atol=1e-6)


def _t(*shape: int) -> gt.Tensor:
    return gt.ones(*shape)


ERRORS: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (lambda: F.hardtanh(_t(2), 1.0, -1.0), ValueError, r"\[hardtanh\] min_val cannot"),
    (lambda: F.celu(_t(2), 0.0), ValueError, r"\[celu\] alpha cannot be 0"),
    (lambda: F.leaky_relu(gt.tensor([1, 2])), DTypeError, r"\[leaky_relu\]"),
    (lambda: F.glu(_t(2, 3)), ShapeError, r"\[glu\] halving dimension must be even, but "
                                          r"dimension 1 is size 3"),
    (lambda: F.glu(gt.tensor(1.0)), ShapeError, r"\[glu\] does not support scalars"),
    (lambda: F.glu(_t(2, 2), 2), IndexError, r"\[glu\] dimension out of range"),
    (lambda: F.prelu(_t(2, 3), _t(2)), ShapeError, r"\[prelu\] mismatch.*= 2 and channel "
                                                   r"size = 3"),
    (lambda: F.prelu(_t(2, 3), _t(1, 3)), ShapeError, r"\[prelu\] expected weight"),
    (lambda: F.cosine_similarity(gt.tensor([1, 2]), gt.tensor([1, 2]), 0), DTypeError,
     r"\[cosine_similarity\] expected common dtype"),
    (lambda: F.cosine_similarity(_t(2, 3), _t(4, 3)), ShapeError, r"\[cosine_similarity\]"),
    (lambda: F.huber_loss(_t(3), _t(3), delta=0.0), ValueError, r"\[huber_loss\] does not "
                                                                r"support non-positive"),
    (lambda: F.huber_loss(_t(3), _t(3), weight=_t(2)), ShapeError,
     r"\[huber_loss\] weights and input"),
    (lambda: F.huber_loss(_t(3), _t(3), "avg"), ValueError, r"\[huber_loss\] reduction"),
    (lambda: F.triplet_margin_loss(_t(2, 3), _t(2, 3), _t(2, 3), margin=0.0), ValueError,
     r"\[triplet_margin_loss\] margin must be greater than 0, got 0.0"),
    (lambda: F.triplet_margin_loss(_t(2, 3), _t(2, 3), _t(3)), ShapeError,
     r"\[triplet_margin_loss\] .*anchor 2D, positive 2D, and negative 1D"),
    (lambda: F.margin_ranking_loss(_t(3), _t(3), _t(1, 3)), ShapeError,
     r"\[margin_ranking_loss\] .*target: \(1, 3\)"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_name_the_op(case: int) -> None:
    call, exc, match = ERRORS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=match):
            call()
