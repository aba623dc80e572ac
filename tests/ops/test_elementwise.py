"""Elementwise frontend against NumPy: promotion, broadcasting, strided inputs, out=, in-place."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gtensor as gt

FLOATS = ("float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


# name -> (numpy reference, input domain (lo, hi), dtypes)
UNARY = {
    "neg": (np.negative, (-3, 3), FLOATS + ("int32", "int64")),
    "abs": (np.abs, (-3, 3), FLOATS + ("int16", "int64")),
    "sign": (np.sign, (-3, 3), FLOATS + ("int32",)),
    "square": (np.square, (-3, 3), FLOATS + ("int32",)),
    "relu": (lambda x: np.maximum(x, 0), (-3, 3), FLOATS + ("int64",)),
    "exp": (np.exp, (-3, 3), FLOATS + ("int32",)),
    "exp2": (np.exp2, (-3, 3), FLOATS),
    "log": (np.log, (0.1, 5), FLOATS),
    "log2": (np.log2, (0.1, 5), FLOATS),
    "log10": (np.log10, (0.1, 5), FLOATS),
    "log1p": (np.log1p, (-0.5, 3), FLOATS),
    "expm1": (np.expm1, (-3, 3), FLOATS),
    "sqrt": (np.sqrt, (0.1, 5), FLOATS + ("int64",)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.1, 5), FLOATS),
    "reciprocal": (np.reciprocal, (0.5, 3), FLOATS),
    "sin": (np.sin, (-3, 3), FLOATS),
    "cos": (np.cos, (-3, 3), FLOATS),
    "tan": (np.tan, (-1, 1), FLOATS),
    "asin": (np.arcsin, (-0.9, 0.9), FLOATS),
    "acos": (np.arccos, (-0.9, 0.9), FLOATS),
    "atan": (np.arctan, (-3, 3), FLOATS),
    "sinh": (np.sinh, (-3, 3), FLOATS),
    "cosh": (np.cosh, (-3, 3), FLOATS),
    "tanh": (np.tanh, (-3, 3), FLOATS),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-5, 5), FLOATS),
    "silu": (lambda x: x / (1 + np.exp(-x)), (-5, 5), FLOATS),
    "softplus": (lambda x: np.log1p(np.exp(x)), (-5, 5), FLOATS),
    "erf": (_erf, (-2, 2), FLOATS),
    "gelu": (lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), (-3, 3), FLOATS),
    "floor": (np.floor, (-3, 3), FLOATS + ("int32",)),
    "ceil": (np.ceil, (-3, 3), FLOATS),
    "trunc": (np.trunc, (-3, 3), FLOATS),
    "round": (np.round, (-3, 3), FLOATS),
    "isnan": (np.isnan, (-3, 3), FLOATS),
    "isfinite": (np.isfinite, (-3, 3), FLOATS),
    "logical_not": (np.logical_not, (-2, 2), ("int32", "float32")),
}

BINARY = {
    "add": (np.add, (-3, 3), FLOATS + INTS),
    "sub": (np.subtract, (-3, 3), FLOATS + ("int8", "int64")),
    "mul": (np.multiply, (-3, 3), FLOATS + ("int16", "int64")),
    "div": (np.true_divide, (0.5, 3), FLOATS),
    "floor_divide": (np.floor_divide, (1, 9), FLOATS + ("int32",)),
    "remainder": (np.remainder, (1, 9), FLOATS + ("int64",)),
    "pow": (np.power, (0.5, 2), FLOATS),
    "maximum": (np.maximum, (-3, 3), FLOATS + ("int32",)),
    "minimum": (np.minimum, (-3, 3), FLOATS + ("uint8",)),
    "atan2": (np.arctan2, (-3, 3), FLOATS),
    "eq": (np.equal, (-2, 2), FLOATS + ("int32",)),
    "lt": (np.less, (-2, 2), FLOATS + ("int32",)),
    "ge": (np.greater_equal, (-2, 2), FLOATS + ("int64",)),
    "logical_and": (np.logical_and, (-1, 2), ("int32", "float32")),
    "bitwise_and": (np.bitwise_and, (0, 20), ("int32", "uint8")),
    "bitwise_xor": (np.bitwise_xor, (0, 20), ("int64",)),
    "left_shift": (np.left_shift, (0, 5), ("int32",)),
}

TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-12)}


def draw(rng, shape, lo, hi, dtype):
    vals = rng.uniform(lo, hi, size=shape)
    if np.dtype(dtype).kind in "iu":
        vals = np.round(vals)
    return vals.astype(dtype)


def check_close(got, want, dtype):
    got = np.asarray(got)
    assert got.dtype == want.dtype or (got.dtype, want.dtype) == (np.dtype("float32"),) * 2
    if np.dtype(dtype).kind == "f" and want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, **TOL[dtype], equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops(device, rng, name):
    ref, (lo, hi), dtypes = UNARY[name]
    for dtype in dtypes if device == "cpu" else dtypes[:1]:
        shape = (3, 5) if device == "cpu" else (2, 3)
        a = draw(rng, shape, lo, hi, dtype)
        t = gt.tensor(a, device=device)
        got = getattr(gt, name)(t.T).cpu().numpy()  # strided input
        want = ref(a.T)
        if np.dtype(dtype).kind in "iu" and want.dtype.kind == "f":
            want = want.astype(np.float32)  # ints promote to the default float dtype
        check_close(got, want, dtype if np.dtype(dtype).kind == "f" else "float32")


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_broadcast_and_strided(device, rng, name):
    ref, (lo, hi), dtypes = BINARY[name]
    for dtype in dtypes if device == "cpu" else dtypes[:1]:
        a = draw(rng, (4, 3), lo, hi, dtype)
        b = draw(rng, (3,), lo, hi, dtype)
        ta, tb = gt.tensor(a, device=device), gt.tensor(b, device=device)
        got = getattr(gt, name)(ta[::-1], tb).cpu().numpy()  # negative strides + broadcast
        want = ref(a[::-1], b)
        if name == "div" and np.dtype(dtype).kind in "iu":
            want = want.astype(np.float32)
        check_close(got, want, dtype if np.dtype(dtype).kind == "f" else "float32")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3),
       st.lists(st.integers(0, 2), min_size=0, max_size=3),
       st.sampled_from(["add", "mul", "maximum", "lt"]))
def test_random_broadcasts_match_numpy(shape, drop, name):
    rng = np.random.default_rng(len(shape) * 7 + sum(drop))
    a = rng.standard_normal(shape).astype(np.float32)
    bshape = [1 if i in drop else n for i, n in enumerate(shape)][len(drop) % 2:]
    b = rng.standard_normal(bshape).astype(np.float32)
    got = getattr(gt, name)(gt.tensor(a), gt.tensor(b)).numpy()
    np.testing.assert_allclose(got, BINARY[name][0](a, b), rtol=1e-6)


@pytest.mark.parametrize("a_dt,b,want", [
    ("int32", 2.5, "float32"), ("int64", 3, "int64"), ("uint8", 300, "uint8"),
    ("float16", 1.0, "float16"), ("int8", True, "int8"), ("bool", 1, "int64"),
])
def test_scalar_promotion(a_dt, b, want):
    t = gt.ones(3, dtype=a_dt)
    assert (t + b).dtype.name == want
    assert (b * t).dtype.name == want


def test_tensor_promotion_and_true_division():
    assert (gt.ones(2, dtype=gt.int32) + gt.ones(2, dtype=gt.float64)).dtype is gt.float64
    assert (gt.ones(2, dtype=gt.uint8) + gt.ones(2, dtype=gt.int8)).dtype is gt.int16
    assert (gt.arange(4) / 2).tolist() == [0.0, 0.5, 1.0, 1.5]
    assert (gt.arange(4) / 2).dtype is gt.float32
    h = gt.tensor([1.0, 2.0], dtype=gt.float16)
    assert (h * h).dtype is gt.float16 and (h * h).tolist() == [1.0, 4.0]


def test_integer_semantics_are_numpy_like():
    a = gt.tensor([7, -7], dtype=gt.int32)
    assert (a // 2).tolist() == [3, -4]  # floor division
    assert (a % 3).tolist() == [1, 2]  # the divisor's sign
    big = gt.tensor([127], dtype=gt.int8)
    assert (big + 1).tolist() == [-128]  # wraps like C
    assert (gt.tensor([1.0, -1.0, 0.0]) / 0.0).tolist()[:2] == [math.inf, -math.inf]


def test_inplace_forms_bump_versions_and_write_through_views(device):
    x = gt.zeros(2, 3, device=device)
    v = x[:, 1]
    before = x._version
    v.add_(gt.tensor([1.0, 2.0], device=device))
    v.mul_(3)
    assert x._version == before + 2
    assert x.tolist() == [[0.0, 3.0, 0.0], [0.0, 6.0, 0.0]]
    y = gt.ones(3, device=device)
    y += 1
    y **= 2
    y.exp_()
    np.testing.assert_allclose(y.cpu().numpy(), np.exp([4.0] * 3), rtol=1e-6)
    y.clamp_(0, 10)
    assert y.tolist() == [10.0] * 3


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int64"])
def test_inplace_add_and_sub_with_alpha(device, dtype):
    """One scaled pass for float operands of the target's dtype and shape; the rest as before."""
    dt = getattr(gt, dtype)
    alpha = 3 if dtype == "int64" else -0.5
    x = gt.arange(6, device=device).reshape(2, 3).to(dt)
    other = gt.tensor([[1, 2, 4], [8, 16, 32]], device=device).to(dt)
    before = x._version
    assert x.add_(other, alpha=alpha) is x
    assert x._version == before + 1
    expect = np.arange(6).reshape(2, 3) + alpha * np.array([[1, 2, 4], [8, 16, 32]])
    assert x.cpu().to(gt.float64).numpy().tolist() == expect.tolist()
    x.sub_(other, alpha=alpha)
    assert x.cpu().to(gt.float64).numpy().tolist() == np.arange(6).reshape(2, 3).tolist()
    column = x[:, 1]  # a strided target, and a broadcast operand (not the scaled pass)
    column.add_(gt.ones(1, device=device).to(dt), alpha=alpha)
    assert x[:, 1].cpu().to(gt.float64).tolist() == [1 + alpha, 4 + alpha]
    with pytest.raises(TypeError, match=r"^\[mul_\] alpha is only accepted by add_ and sub_"):
        x.mul_(other, alpha=2)


def test_inplace_errors_leave_operands_untouched():
    i = gt.arange(3)
    with pytest.raises(gt.DTypeError, match=r"^\[add_\] result type float32 can't be cast"):
        i.add_(0.5)
    assert i.tolist() == [0, 1, 2]
    small = gt.zeros(3)
    with pytest.raises(gt.ShapeError, match=r"^\[add_\] output with shape \(3,\) doesn't match"):
        small.add_(gt.ones(2, 3))
    e = gt.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match=r"more than one element of the written-to tensor"):
        e.add_(1)


def test_out_argument():
    a, b = gt.tensor([1.0, 2.0]), gt.tensor([3.0, 4.0])
    out = gt.empty(2)
    r = gt.add(a, b, out=out)
    assert r is out and out.tolist() == [4.0, 6.0]
    with pytest.raises(gt.ShapeError, match=r"^\[add\] out has shape \(3,\)"):
        gt.add(a, b, out=gt.empty(3))
    with pytest.raises(gt.DTypeError, match=r"can't be cast to the desired output type int64"):
        gt.add(a, b, out=gt.empty(2, dtype=gt.int64))


def test_errors(device):
    with pytest.raises(gt.ShapeError, match=r"^\[add\] shapes \(2,\) and \(3,\) are not "
                       r"broadcastable"):
        gt.ones(2, device=device) + gt.ones(3, device=device)
    with pytest.raises(gt.DTypeError, match=r"^\[bitwise_and\] not supported for dtype float32"):
        gt.ones(2) & gt.ones(2)
    with pytest.raises(TypeError, match=r"^\[add\] unsupported operand type str"):
        gt.add(gt.ones(2), "x")
    assert (gt.ones(2) + gt.tensor(2.0) if device == "cpu" else
            gt.ones(2, device="cuda") + gt.tensor(2.0)).tolist() == [3.0, 3.0]


def test_cross_device_operands_raise():
    with pytest.raises(gt.DeviceMismatchError, match=r"^\[mul\] expected all tensors on the same "
                       r"device, got cpu and cuda:0"):
        gt.ones(2) * gt.ones(2, device="cuda")


def test_ternary_ops(device, rng):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((4,)).astype(np.float32)
    c = a > 0
    ta, tb, tc = (gt.tensor(v, device=device) for v in (a, b, c))
    np.testing.assert_array_equal(gt.where(tc, ta, tb).cpu().numpy(), np.where(c, a, b))
    np.testing.assert_array_equal(gt.where(tc, ta, 0.0).cpu().numpy(), np.where(c, a, 0.0))
    np.testing.assert_allclose(ta.clamp(-0.5, 0.5).cpu().numpy(), np.clip(a, -0.5, 0.5))
    np.testing.assert_allclose(ta.clamp(min=0).cpu().numpy(), np.maximum(a, 0))
    np.testing.assert_allclose(ta.clamp(max=tb).cpu().numpy(), np.minimum(a, b))
    np.testing.assert_allclose(gt.lerp(ta, tb, 0.3).cpu().numpy(), a + 0.3 * (b - a), rtol=1e-6)
    np.testing.assert_allclose(gt.addcmul(ta, ta, tb, value=0.5).cpu().numpy(),
                               a + 0.5 * a * b, rtol=1e-6)
    np.testing.assert_allclose(gt.addcdiv(ta, ta, tb, value=2).cpu().numpy(),
                               a + 2 * a / b, rtol=1e-5)
    with pytest.raises(ValueError, match=r"^\[clamp\] at least one of min and max"):
        ta.clamp()


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16"])
def test_round_to_decimals_matches_torch(device, dt):
    torch = pytest.importorskip("torch")
    x = [1.2345, -2.5, 1234.5678, 0.125, 2.675, -0.0, math.nan, math.inf, 65000.0, 1e-5]
    for decimals in (2, 1, -2, 5):
        got = gt.round(gt.tensor(x, dtype=getattr(gt, dt), device=device), decimals=decimals)
        want = torch.round(torch.tensor(x, dtype=getattr(torch, dt)), decimals=decimals)
        assert got.dtype == getattr(gt, dt)
        np.testing.assert_array_equal(got.float().cpu().numpy(), want.float().numpy())
    t = gt.tensor([0.125, 7.0], device=device, requires_grad=True)
    y = t.round(decimals=1)
    y.sum().backward()
    assert t.grad.tolist() == [0.0, 0.0]
    inplace = gt.tensor([0.15, 1250.0], device=device).round_(decimals=-2)
    assert inplace.tolist() == [0.0, 1200.0]


def test_round_decimals_needs_a_floating_input():
    assert gt.round(gt.tensor([15, 25])).tolist() == [15, 25]
    with pytest.raises(gt.errors.DTypeError, match=r"^\[round\]"):
        gt.round(gt.tensor([15, 25]), decimals=-1)
    with pytest.raises(TypeError, match=r"^\[round\] decimals must be an int"):
        gt.round(gt.ones(2), decimals=1.5)
