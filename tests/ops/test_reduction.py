"""Reduction, scan and softmax frontends against NumPy on cpu and cuda; VJPs by gradcheck."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck


def _lse(x, axis, keepdims):
    m = np.max(x, axis=axis, keepdims=True)
    r = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return r if keepdims else np.squeeze(r, axis=axis)


# name -> (gtensor call(t, dim, keepdim), NumPy reference(x, axis, keepdims), grad checked)
REDUCTIONS = {
    "sum": (lambda t, d, k: t.sum(d, k), lambda x, a, k: np.sum(x, a, keepdims=k), True),
    "mean": (lambda t, d, k: t.mean(d, k), lambda x, a, k: np.mean(x, a, keepdims=k), True),
    "prod": (lambda t, d, k: t.prod(d, k), lambda x, a, k: np.prod(x, a, keepdims=k), True),
    "amax": (lambda t, d, k: t.amax(d, k), lambda x, a, k: np.max(x, a, keepdims=k), True),
    "amin": (lambda t, d, k: gt.amin(t, d, k), lambda x, a, k: np.min(x, a, keepdims=k), True),
    "var": (lambda t, d, k: t.var(d, keepdim=k),
            lambda x, a, k: np.var(x, a, ddof=1, keepdims=k), True),
    "std0": (lambda t, d, k: t.std(d, keepdim=k, correction=0),
             lambda x, a, k: np.std(x, a, keepdims=k), True),
    "logsumexp": (lambda t, d, k: t.logsumexp(d, k), _lse, True),
    "norm": (lambda t, d, k: t.norm(2, d, k),
             lambda x, a, k: np.sqrt(np.sum(x * x, a, keepdims=k)), True),
    "norm3": (lambda t, d, k: t.norm(3, d, k),
              lambda x, a, k: np.sum(np.abs(x) ** 3, a, keepdims=k) ** (1 / 3), True),
    "any": (lambda t, d, k: (t > 0.5).any(d, k), lambda x, a, k: np.any(x > 0.5, a, keepdims=k),
            False),
    "all": (lambda t, d, k: (t > -0.5).all(d, k),
            lambda x, a, k: np.all(x > -0.5, a, keepdims=k), False),
}


@pytest.mark.parametrize("name", list(REDUCTIONS))
@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), (1, True), ((0, 2), False)])
def test_reduction_matches_numpy(device, rng, name, dim, keepdim):
    call, ref, _ = REDUCTIONS[name]
    x = rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    t = gt.tensor(x, device=device).transpose(0, 2).transpose(0, 2)
    got = call(t, dim, keepdim)
    want = ref(x.astype(np.float64), dim, keepdim)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", [n for n, (_, _, g) in REDUCTIONS.items() if g])
def test_reduction_gradients(device, rng, name):
    call = REDUCTIONS[name][0]
    x = gt.tensor(rng.uniform(0.2, 1.0, (2, 3)) * rng.choice([-1, 1], (2, 3)), device=device,
                  requires_grad=True)
    assert gradcheck(lambda t: call(t, 1, False), (x,))


def test_integer_sums_widen_and_dtype_argument(device):
    t = gt.tensor([[100, 100], [100, 27]], dtype=gt.int8, device=device)
    assert t.sum().dtype == gt.int64 and t.sum().item() == 327
    assert t.sum(dtype=gt.float64).dtype == gt.float64
    assert gt.tensor([True, True, False], device=device).sum().item() == 2


def test_max_min_with_dim_and_argmax(device, rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    t = gt.tensor(x, device=device)
    values, indices = t.max(1)
    np.testing.assert_array_equal(values.cpu().numpy(), x.max(1))
    np.testing.assert_array_equal(indices.cpu().numpy(), x.argmax(1))
    assert t.min(0, keepdim=True).indices.shape == (1, 4)
    assert t.argmax().item() == x.argmax()
    assert t.argmin(1).tolist() == x.argmin(1).tolist()
    assert t.max().item() == x.max()
    np.testing.assert_array_equal(t.max(gt.zeros(3, 4, device=device)).cpu().numpy(),
                                  np.maximum(x, 0))


def test_max_dim_gradient_goes_to_the_index(device):
    x = gt.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]], dtype=gt.float64, device=device,
                  requires_grad=True)
    x.max(1).values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_empty_and_bad_reductions(device):
    e = gt.zeros(2, 0, device=device)
    assert e.sum(1).tolist() == [0.0, 0.0]
    assert np.isnan(e.mean(1).cpu().numpy()).all()
    with pytest.raises(IndexError, match=r"\[amax\]"):
        e.amax(1)
    with pytest.raises(IndexError, match=r"\[sum\] dimension out of range"):
        gt.ones(2, device=device).sum(3)
    with pytest.raises(RuntimeError, match=r"\[sum\] dim \(0, 0\) appears multiple times"):
        gt.ones(2, device=device).sum((0, 0))
    with pytest.raises(gt.errors.DTypeError, match=r"\[mean\]"):
        gt.ones(2, dtype=gt.int32, device=device).mean()


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_stable_and_gradients(device, rng, op):
    x = rng.standard_normal((3, 4)) * 1000
    t = gt.tensor(x.astype(np.float32), device=device)
    z = x - x.max(0, keepdims=True)
    want = z - np.log(np.exp(z).sum(0, keepdims=True))
    got = getattr(t, op)(0).cpu().numpy()
    np.testing.assert_allclose(got, want if op == "log_softmax" else np.exp(want),
                               rtol=1e-5, atol=1e-6)
    small = gt.tensor(rng.standard_normal((2, 3)), device=device, requires_grad=True)
    assert gradcheck(lambda s: getattr(s, op)(-1), (small,))


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_scans(device, rng, op):
    x = rng.uniform(0.5, 1.5, (3, 4))
    t = gt.tensor(x, device=device)
    np.testing.assert_allclose(getattr(t, op)(1).cpu().numpy(), getattr(np, op)(x, 1))
    ints = gt.tensor([[1, 2], [3, 4]], dtype=gt.int8, device=device)
    assert getattr(ints, op)(0).dtype == gt.int64
    small = gt.tensor(x[:2, :3], device=device, requires_grad=True)
    assert gradcheck(lambda s: getattr(s, op)(1), (small,))


@pytest.mark.parametrize("dims", [None, 1, (1, 2), -1])
def test_large_contiguous_sums_take_the_vectorized_path(dims):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((16, 64, 48)).astype(np.float32)  # 49152 elements: the fast path
    t = gt.tensor(a)
    axis = dims if dims is None or isinstance(dims, tuple) else (dims,)
    want = a.astype(np.float64).sum(axis=axis)
    got = t.sum() if dims is None else t.sum(dim=dims)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-5)
    kept = t.mean(dim=dims, keepdim=True) if dims is not None else t.mean()
    np.testing.assert_allclose(kept.numpy(), a.astype(np.float64).mean(axis=axis, keepdims=(
        dims is not None)), rtol=1e-6, atol=1e-6)
    assert t.sum(dtype=gt.float64).item() == pytest.approx(a.astype(np.float64).sum(), rel=1e-12)
    a[3, 5, 7] = np.nan
    assert np.isnan(gt.tensor(a).sum().item())


def test_reductions_and_scans_write_into_out(device):
    x = gt.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], device=device)
    for name, args in (("sum", (1,)), ("mean", (1,)), ("prod", (1,)), ("amax", (1,)),
                       ("amin", (1,)), ("logsumexp", (1,))):
        out = gt.zeros(2, dtype=gt.float64, device=device)
        got = getattr(gt, name)(x, *args, out=out)
        assert got is out
        assert np.allclose(out.cpu().numpy(), getattr(gt, name)(x, *args).cpu().numpy())
    for name in ("cumsum", "cumprod"):
        out = gt.zeros(2, 3, device=device)
        assert getattr(gt, name)(x, 1, out=out) is out
        assert out.tolist() == getattr(gt, name)(x, 1).tolist()
    with pytest.raises(gt.ShapeError, match=r"^\[sum\]"):
        gt.sum(x, 0, out=gt.zeros(2, device=device))


def test_logsumexp_of_integers_is_in_the_default_float(device):
    got = gt.logsumexp(gt.tensor([[1, 2], [3, 4]], device=device), 1)
    assert got.dtype is gt.float32
    assert np.allclose(got.cpu().numpy(), np.log(np.exp([1, 3]) + np.exp([2, 4])))
    assert gt.tensor([True, False], device=device).logsumexp(0).dtype is gt.float32
