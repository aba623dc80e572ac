"""3-D and adaptive 1-D/3-D pooling, max unpooling, LP and fractional pooling, conv_transpose3d
and conv_tbc against torch, as functions and as modules."""

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


def _n(*shapes: tuple[int, ...]) -> Make:
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def _unpool(nd: int) -> Call:
    def call(F, lit, x):  # noqa: N803
        values, idx = F.max_pool1d(x, 2, return_indices=True) if nd == 1 else (
            F.max_pool2d(x, 2, return_indices=True) if nd == 2 else
            F.max_pool3d(x, 2, 2, return_indices=True))
        size = tuple(x.shape[2:])
        return getattr(F, f"max_unpool{nd}d")(values, idx, 2, output_size=size)
    return call


CASES: dict[str, tuple[Call, Make]] = {
    "max_pool3d": (lambda F, lit, x: F.max_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1),
                                                  return_indices=True), _n((2, 2, 5, 4, 5))),
    "max_pool3d_dilated_ceil": (lambda F, lit, x: F.max_pool3d(
        x, 3, 2, 1, (1, 2, 1), ceil_mode=True, return_indices=True), _n((1, 2, 5, 6, 4))),
    "max_pool3d_unbatched": (lambda F, lit, x: F.max_pool3d(x, 2), _n((2, 3, 4, 4))),
    "avg_pool3d": (lambda F, lit, x: F.avg_pool3d(x, (3, 2, 2), 2, 1, ceil_mode=True),
                   _n((2, 2, 5, 4, 5))),
    "avg_pool3d_exclude_pad": (lambda F, lit, x: F.avg_pool3d(
        x, 3, (1, 2, 2), 1, count_include_pad=False), _n((1, 2, 4, 5, 3))),
    "avg_pool3d_divisor": (lambda F, lit, x: F.avg_pool3d(x, 2, divisor_override=3),
                           _n((2, 4, 4, 4))),
    "adaptive_avg_pool1d": (lambda F, lit, x: F.adaptive_avg_pool1d(x, 3), _n((2, 3, 7))),
    "adaptive_avg_pool3d": (lambda F, lit, x: F.adaptive_avg_pool3d(x, (2, None, 3)),
                            _n((2, 2, 5, 3, 7))),
    "adaptive_max_pool1d": (lambda F, lit, x: F.adaptive_max_pool1d(x, 3, True), _n((2, 3, 7))),
    "adaptive_max_pool3d": (lambda F, lit, x: F.adaptive_max_pool3d(x, (2, 3, 2), True),
                            _n((2, 2, 5, 4, 3))),
    "max_pool2d_with_indices": (lambda F, lit, x: F.max_pool2d_with_indices(x, 2, 1),
                                _n((1, 2, 4, 4))),
    "adaptive_max_pool3d_with_indices": (lambda F, lit, x: F.adaptive_max_pool3d_with_indices(
        x, 2), _n((2, 3, 3, 3))),
    "max_unpool1d": (_unpool(1), _n((2, 2, 7))),
    "max_unpool2d": (_unpool(2), _n((2, 2, 5, 4))),
    "max_unpool3d": (_unpool(3), _n((1, 2, 4, 5, 4))),
    "lp_pool1d": (lambda F, lit, x: F.lp_pool1d(x.abs() + 0.1, 3.0, 2), _n((2, 2, 7))),
    "lp_pool2d": (lambda F, lit, x: F.lp_pool2d(x.abs() + 0.1, 2, (2, 3), 1, True),
                  _n((1, 2, 4, 5))),
    "lp_pool3d": (lambda F, lit, x: F.lp_pool3d(x.abs() + 0.1, 1.5, 2), _n((1, 2, 4, 4, 5))),
    "conv_transpose3d": (lambda F, lit, x, w, b: F.conv_transpose3d(
        x, w, b, (2, 1, 3), (1, 0, 1), (1, 0, 2), 2, (1, 2, 1)),
                         _n((1, 4, 3, 2, 3), (4, 3, 2, 3, 2), (6,))),
    "conv_tbc": (lambda F, lit, x, w, b: F.conv_tbc(x, w, b, 1), _n((5, 2, 3), (2, 3, 4), (4,))),
    "conv_transpose3d_unbatched": (lambda F, lit, x, w: F.conv_transpose3d(x, w, stride=2),
                                   _n((2, 2, 2, 1), (2, 1, 2, 2, 2))),
}
ON_CUDA = ["max_pool3d_unbatched", "adaptive_max_pool1d"]
RUNS = [(name, "cpu") for name in sorted(CASES)] + [(name, "cuda") for name in ON_CUDA]


@pytest.mark.parametrize("name,device", RUNS)
def test_matches_torch(name: str, device: str, rng: np.random.Generator) -> None:
    call, make = CASES[name]
    match_torch(call, make(rng), device, rtol=1e-6, atol=1e-10)


def test_modules_match_torch(rng: np.random.Generator) -> None:
    x5, x3 = rng.standard_normal((1, 2, 4, 4, 4)), rng.standard_normal((1, 2, 6))
    pairs = [
        ("MaxPool3d", (2,), {"return_indices": True}, x5),
        ("AvgPool3d", ((2, 1, 2),), {"count_include_pad": False, "padding": (1, 0, 1)}, x5),
        ("AdaptiveAvgPool1d", (4,), {}, x3),
        ("AdaptiveAvgPool3d", ((1, 2, 3),), {}, x5),
        ("AdaptiveMaxPool1d", (4,), {"return_indices": True}, x3),
        ("AdaptiveMaxPool3d", (3,), {}, x5),
        ("LPPool1d", (2, 3), {"stride": 2}, np.abs(x3)),
        ("LPPool2d", (1, 2), {}, np.abs(x5[0])),
        ("LPPool3d", (2, 2), {"ceil_mode": True}, np.abs(x5)),
    ]
    for name, args, kwargs, x in pairs:
        got = getattr(gt.nn, name)(*args, **kwargs)(gt.tensor(x))
        want = getattr(torch.nn, name)(*args, **kwargs)(torch.tensor(x))
        got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
        for g, t in zip(got, want, strict=True):
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-6, err_msg=name)
    values, idx = gt.nn.MaxPool3d(2, return_indices=True)(gt.tensor(x5))
    restored = gt.nn.MaxUnpool3d(2)(values, idx)
    t_values, t_idx = torch.nn.MaxPool3d(2, return_indices=True)(torch.tensor(x5))
    want = torch.nn.MaxUnpool3d(2)(t_values, t_idx)
    np.testing.assert_array_equal(restored.numpy(), want.numpy())
    assert repr(gt.nn.MaxUnpool2d(2)) == repr(torch.nn.MaxUnpool2d(2))


def test_conv_transpose3d_module_matches_torch(rng: np.random.Generator) -> None:
    theirs = torch.nn.ConvTranspose3d(4, 6, (2, 3, 2), stride=2, padding=1, groups=2)
    mine = gt.nn.ConvTranspose3d(4, 6, (2, 3, 2), stride=2, padding=1, groups=2)
    state = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
    assert {k: tuple(v.shape) for k, v in mine.state_dict().items()} == \
        {k: v.shape for k, v in state.items()}
    mine.load_state_dict({k: gt.tensor(v) for k, v in state.items()})
    x = rng.standard_normal((1, 4, 3, 3, 3)).astype(np.float32)
    got = mine(gt.tensor(x), output_size=(5, 6, 5))
    want = theirs(torch.tensor(x), output_size=(5, 6, 5))
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(ValueError, match=r"\[ConvTranspose3d\] requested an output size"):
        mine(gt.tensor(x), output_size=(9, 9, 9))


ERRORS: list[tuple[Call, type[Exception], str]] = [
    (lambda: F.max_pool3d(gt.ones(2, 3, 4), 2), ShapeError,
     r"\[max_pool3d\] expected a 4-D or 5-D input, got shape \(2, 3, 4\)"),
    (lambda: F.max_pool3d(gt.ones(1, 1, 2, 2, 2), 2, padding=2), ValueError,
     r"\[max_pool3d\] pad should be at most half"),
    (lambda: F.avg_pool3d(gt.ones(1, 1, 1, 2, 2), 2), ShapeError, r"\[avg_pool3d\] .* too small"),
    (lambda: F.avg_pool3d(gt.ones(1, 1, 2, 2, 2), 2, divisor_override=0), ValueError,
     r"\[avg_pool3d\] divisor_override"),
    (lambda: F.max_pool3d(gt.ones(1, 1, 2, 2, 2, dtype=gt.int64), 2), DTypeError,
     r"\[max_pool3d\] expected a floating tensor"),
    (lambda: F.adaptive_avg_pool3d(gt.ones(1, 2, 2, 2, 2), (1, 2)), TypeError,
     r"\[adaptive_avg_pool3d\] output_size must be an int or 3 ints"),
    (lambda: F.adaptive_max_pool1d(gt.ones(1, 2, 3), 0), ValueError,
     r"\[adaptive_max_pool1d\] output_size must be positive"),
    (lambda: F.max_unpool2d(gt.ones(1, 1, 2, 2), gt.tensor([[[[0, 1], [2, 99]]]]), 2),
     IndexError, r"\[max_unpool2d\] found an invalid max index 99"),
    (lambda: F.max_unpool1d(gt.ones(1, 1, 2), gt.zeros(1, 1, 2, dtype=gt.int64), 2,
                            output_size=(9,)), ValueError, r"\[max_unpool1d\] invalid output_size"),
    (lambda: F.max_unpool1d(gt.ones(1, 1, 2), gt.zeros(1, 1, 2), 2), DTypeError,
     r"\[max_unpool1d\] expected int64 indices"),
    (lambda: F.lp_pool2d(gt.ones(2, 2), 2, 2), ShapeError, r"\[lp_pool2d\] expected a 3-D"),
    (lambda: F.conv_transpose3d(gt.ones(1, 3, 2, 2, 2), gt.ones(2, 1, 1, 1, 1)), ShapeError,
     r"\[conv_transpose3d\] expected input with 2 channels"),
    (lambda: F.conv_transpose3d(gt.ones(1, 2, 2, 2, 2), gt.ones(2, 1, 1, 1, 1),
                                output_padding=1), ValueError,
     r"\[conv_transpose3d\] output padding"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_bad_input(case: int) -> None:
    call, exc, pattern = ERRORS[case]
    with pytest.raises(exc, match=pattern):
        call()


@pytest.mark.parametrize("nd,shape,kernel,out", [
    (2, (2, 3, 9, 7), (3, 2), (5, 3)),
    (2, (3, 8, 8), 3, 6),
    (3, (2, 2, 7, 6, 8), 2, (3, 4, 5)),
])
def test_fractional_max_pool_matches_torch(nd: int, shape: tuple[int, ...], kernel: object,
                                           out: object, rng: np.random.Generator) -> None:
    batch = shape[0] if len(shape) == nd + 2 else 1
    samples = rng.random((batch, shape[-nd - 1], nd))
    name = f"fractional_max_pool{nd}d"
    match_torch(lambda F, lit, x: getattr(F, name)(x, kernel, out, return_indices=True,
                                                   _random_samples=lit(samples)),
                [rng.standard_normal(shape)], rtol=1e-6)


def test_fractional_max_pool_modules(device: str) -> None:
    gt.manual_seed(2)
    pool = gt.nn.FractionalMaxPool2d(2, output_ratio=0.5, return_indices=True)
    x = gt.randn(1, 2, 6, 6, device=device)
    values, idx = pool(x)
    assert values.shape == (1, 2, 3, 3) and idx.shape == (1, 2, 3, 3)
    flat = x.reshape(1, 2, -1).cpu().numpy()
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.reshape(1, 2, -1).cpu().numpy(),
                                                     2), values.reshape(1, 2, -1).cpu().numpy())
    assert list(pool.state_dict()) == list(torch.nn.FractionalMaxPool2d(
        2, output_ratio=0.5).state_dict())
    with pytest.raises(ValueError, match=r"\[FractionalMaxPool3d\] requires exactly one"):
        gt.nn.FractionalMaxPool3d(2)
    with pytest.raises(ShapeError, match=r"\[fractional_max_pool3d\] output size"):
        F.fractional_max_pool3d(gt.ones(1, 1, 4, 4, 4), 2, 4)
