"""Elementwise nan/inf/zero edges (forward and gradient), unique with nans, and the
activations that refuse integer inputs, on cpu and cuda."""

import math

import pytest

import gtensor as gt
from gtensor.errors import DTypeError

nan, inf = math.nan, math.inf


def f64(values, device, requires_grad=False):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=requires_grad)


def same(got, want):
    """Equality of flat lists where nan equals nan and the sign of zero counts."""
    return len(got) == len(want) and all(
        (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) == math.copysign(1, w))
        for g, w in zip(got, want, strict=True))


def test_sign_of_nan_is_zero_as_in_pytorch(device):
    assert same(f64([nan, -0.0, 0.0, -2.0], device).sign().tolist(), [0.0, 0.0, 0.0, -1.0])
    assert gt.tensor([nan], device=device).sign().tolist() == [0.0]


def test_rsqrt_of_signed_zero(device):
    assert same(f64([-0.0, 0.0, -1.0], device).rsqrt().tolist(), [-inf, inf, nan])


@pytest.mark.parametrize("dt", [gt.float32, gt.float64])
def test_pow_of_minus_inf_follows_c99(device, dt):
    base = gt.tensor([-inf] * 7, dtype=dt, device=device)
    exponent = gt.tensor([0.5, 3.0, 2.0, -3.0, -2.0, -0.5, 0.0], dtype=dt, device=device)
    assert same((base ** exponent).tolist(), [inf, -inf, inf, -0.0, 0.0, 0.0, 1.0])
    assert same((base ** 0.5).tolist(), [inf] * 7)


@pytest.mark.parametrize("dt", [gt.float32, gt.float64])
def test_overflowing_exponentials_give_inf(device, dt):
    x = gt.tensor([1000.0, 709.78271484375, -1000.0, inf, nan], dtype=dt, device=device)
    assert same(x.exp().tolist(), [inf, inf, 0.0, inf, nan])
    assert same(x.expm1().tolist(), [inf, inf, -1.0, inf, nan])
    assert same(gt.tensor([1024.0, 2000.0, -2000.0], dtype=dt, device=device).exp2().tolist(),
                [inf, inf, 0.0])
    assert same(gt.tensor([800.0, -800.0], dtype=dt, device=device).sinh().tolist(), [inf, -inf])
    assert gt.tensor([800.0], dtype=dt, device=device).cosh().tolist() == [inf]


def test_exponentials_stay_finite_up_to_the_largest_float(device):
    x = f64([709.782712893384, 1023.5], device)
    assert x.exp().tolist()[0] == 1.7976931348622732e308
    assert x.exp2().tolist()[1] == 2.0 ** 1023.5
    assert f64([710.2], device).cosh().item() == pytest.approx(math.cosh(710.2))


def grads(fn, values, device):
    x = f64(values, device, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


def grads2(fn, a, b, device):
    x, y = f64(a, device, True), f64(b, device, True)
    fn(x, y).sum().backward()
    return x.grad.tolist(), y.grad.tolist()


def test_relu_and_abs_gradients_at_zero_and_nan(device):
    values = [nan, inf, -inf, 0.0, -0.0, 1.0, -2.0]
    assert grads(lambda x: x.relu(), values, device) == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert grads(lambda x: x.abs(), values, device) == [0.0, 1.0, -1.0, 0.0, 0.0, 1.0, -1.0]
    assert grads(lambda x: x.sign(), values, device) == [0.0] * 7


def test_maximum_minimum_gradients_split_ties_and_pass_nans(device):
    a, b = [1.0, 2.0, nan, 0.0, inf, 1.0], [1.0, 1.0, 0.0, nan, inf, nan]
    assert grads2(gt.maximum, a, b, device) == ([0.5, 1.0, 1.0, 1.0, 0.5, 1.0],
                                               [0.5, 0.0, 1.0, 1.0, 0.5, 1.0])
    assert grads2(gt.minimum, a, b, device) == ([0.5, 0.0, 1.0, 1.0, 0.5, 1.0],
                                               [0.5, 1.0, 1.0, 1.0, 0.5, 1.0])


def test_atan2_gradient_is_zero_at_the_origin(device):
    ga, gb = grads2(gt.atan2, [0.0, 0.0, 1.0, 1e-200, nan], [0.0, -0.0, 0.0, 1e-200, 1.0], device)
    assert ga[:4] == [0.0, 0.0, 0.0, 0.0] and math.isnan(ga[4])
    assert gb[:4] == [0.0, 0.0, -1.0, 0.0] and math.isnan(gb[4])


def test_unique_keeps_each_nan(device):
    x = f64([nan, 1.0, nan, 1.0, 0.0], device)
    values, inverse, counts = x.unique(return_inverse=True, return_counts=True)
    assert same(values.tolist(), [0.0, 1.0, nan, nan])
    assert counts.tolist() == [1, 2, 1, 1]
    assert sorted(inverse.tolist()) == [0, 1, 1, 2, 3]
    assert inverse.tolist()[1] == 1 and inverse.tolist()[4] == 0
    rows = f64([[nan, 1.0], [nan, 1.0], [0.0, 2.0]], device).unique(dim=0)
    assert rows.shape == (3, 2)


@pytest.mark.parametrize("dt", [gt.int64, gt.int32, gt.uint8, gt.bool])
@pytest.mark.parametrize("op", [
    lambda x: x.gelu(), lambda x: gt.nn.functional.gelu(x, approximate="tanh"),
    lambda x: gt.nn.functional.silu(x), lambda x: x.silu(), lambda x: gt.softplus(x),
    lambda x: gt.softplus(x, beta=2.0), lambda x: x.silu_(),
], ids=["gelu", "gelu_tanh", "F.silu", "silu", "softplus", "softplus_beta", "silu_"])
def test_activations_refuse_integer_inputs(device, dt, op):
    x = gt.tensor([1, 0], device=device).to(dt)
    with pytest.raises(DTypeError, match=r"^\[(gelu|silu|softplus)\] not implemented for dtype"):
        op(x)


def test_activations_still_promote_where_pytorch_does(device):
    x = gt.tensor([0, 1], device=device)
    assert x.sigmoid().tolist() == [0.5, pytest.approx(1 / (1 + math.exp(-1)))]
    assert x.relu().tolist() == [0, 1] and x.relu().dtype is gt.int64


def test_gradient_edges_against_torch(device):
    torch = pytest.importorskip("torch")

    def nan_eq(got, want):
        return all((math.isnan(g) and math.isnan(w)) or g == w
                   for g, w in zip(got, want, strict=True))

    a, b = [nan, 0.0, -0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 2.0, nan]
    for name in ("maximum", "minimum", "atan2"):
        x, y = f64(a, device, True), f64(b, device, True)
        getattr(gt, name)(x, y).sum().backward()
        tx = torch.tensor(a, dtype=torch.float64, requires_grad=True)
        ty = torch.tensor(b, dtype=torch.float64, requires_grad=True)
        getattr(torch, name)(tx, ty).sum().backward()
        assert nan_eq(x.grad.tolist(), tx.grad.tolist())
        assert nan_eq(y.grad.tolist(), ty.grad.tolist())
    for name in ("relu", "abs"):
        x = f64(a, device, True)
        getattr(x, name)().sum().backward()
        tx = torch.tensor(a, dtype=torch.float64, requires_grad=True)
        getattr(tx, name)().sum().backward()
        assert nan_eq(x.grad.tolist(), tx.grad.tolist())


def test_rounding_and_fmod_keep_the_sign_of_zero(device):
    x = f64([-0.0, -0.5, 0.5, -2.0, 0.0], device)
    assert same(x.floor().tolist(), [-0.0, -1.0, 0.0, -2.0, 0.0])
    assert same(x.ceil().tolist(), [-0.0, -0.0, 1.0, -2.0, 0.0])
    assert same(x.trunc().tolist(), [-0.0, -0.0, 0.0, -2.0, 0.0])
    assert same(x.frac().tolist(), [0.0, -0.5, 0.5, 0.0, 0.0])
    assert same(gt.fmod(x, 1.0).tolist(), [-0.0, -0.5, 0.5, -0.0, 0.0])


def test_sign_of_bool_is_bool(device):
    x = gt.tensor([True, False], device=device)
    assert x.sign().dtype is gt.bool and x.sign().tolist() == [True, False]
    assert gt.sgn(x).tolist() == [True, False]


def test_where_with_only_a_condition_is_nonzero_as_tuple(device):
    rows, cols = gt.where(gt.tensor([[0, 1], [2, 0]], device=device))
    assert rows.tolist() == [0, 1] and cols.tolist() == [1, 0]
    (only,) = gt.where(gt.tensor(True, device=device))  # a 0-d condition: one index tensor
    assert only.tolist() == [0]
    with pytest.raises(TypeError, match=r"^\[where\]"):
        gt.where(gt.tensor([True], device=device), 1.0)


def test_right_shift_by_a_negative_or_huge_amount_keeps_only_the_sign(device):
    a = gt.tensor([5, -7, 1, -1], device=device)
    b = gt.tensor([-3, -3, 64, 70], device=device)
    assert (a >> b).tolist() == [0, -1, 0, -1]
    assert (a << b).tolist() == [0, 0, 0, 0]
