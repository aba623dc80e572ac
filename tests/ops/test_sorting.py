"""Sorting and searching against NumPy on cpu and cuda."""

import numpy as np
import pytest

import gtensor as gt


def np_(t):
    return t.cpu().numpy()


@pytest.mark.parametrize("dtype", ["float32", "int64", "int8"])
@pytest.mark.parametrize("dim", [0, -1])
def test_sort_stable_both_directions(device, rng, dtype, dim):
    a = rng.integers(-3, 3, size=(4, 6)).astype(dtype)
    x = gt.tensor(a, device=device)
    v, i = x.sort(dim)
    order = np.argsort(a, axis=dim, kind="stable")
    np.testing.assert_array_equal(np_(i), order)
    np.testing.assert_array_equal(np_(v), np.take_along_axis(a, order, dim))
    v, i = x.sort(dim, descending=True, stable=True)
    n = a.shape[dim]
    rev = n - 1 - np.flip(np.argsort(np.flip(a, dim), axis=dim, kind="stable"), dim)
    np.testing.assert_array_equal(np_(i), rev)
    np.testing.assert_array_equal(np_(x.argsort(dim)), order)


def test_sort_nan_order(device):
    a = np.array([2.0, np.nan, -1.0, 5.0])
    x = gt.tensor(a, device=device)
    np.testing.assert_array_equal(np_(x.sort().values), np.sort(a))
    assert np.isnan(np_(x.sort(descending=True).values)[0])


def test_topk_kthvalue(device, rng):
    a = rng.standard_normal((3, 7))
    x = gt.tensor(a, device=device)
    v, i = x.topk(3)
    np.testing.assert_array_equal(np_(v), -np.sort(-a, 1)[:, :3])
    np.testing.assert_array_equal(np.take_along_axis(a, np_(i), 1), np_(v))
    v, i = x.topk(2, dim=0, largest=False)
    np.testing.assert_array_equal(np_(v), np.sort(a, 0)[:2])
    kv, ki = x.kthvalue(3, 1, keepdim=True)
    np.testing.assert_array_equal(np_(kv), np.sort(a, 1)[:, 2:3])
    np.testing.assert_array_equal(np.take_along_axis(a, np_(ki), 1), np_(kv))
    with pytest.raises(ValueError, match=r"^\[topk\] k \(8\) must be in"):
        x.topk(8)
    with pytest.raises(IndexError, match=r"^\[kthvalue\] k \(0\) must be in"):
        x.kthvalue(0)


def test_unique(device, rng):
    a = rng.integers(0, 6, size=(3, 5))
    x = gt.tensor(a, device=device)
    u, inv, counts = x.unique(return_inverse=True, return_counts=True)
    wu, winv, wc = np.unique(a, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(np_(u), wu)
    np.testing.assert_array_equal(np_(inv), winv.reshape(a.shape))
    np.testing.assert_array_equal(np_(counts), wc)
    np.testing.assert_array_equal(np_(x.unique()), wu)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unique_slices_along_a_dim(device, rng, dim):
    a = rng.integers(0, 2, size=(4, 3, 2))
    a[2] = a[0]  # at least one repeated slice along dim 0
    x = gt.tensor(a, device=device)
    u, inv, counts = x.unique(dim=dim, return_inverse=True, return_counts=True)
    wu, winv, wc = np.unique(a, axis=dim, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(np_(u), wu)
    np.testing.assert_array_equal(np_(inv), winv.reshape(-1))
    np.testing.assert_array_equal(np_(counts), wc)
    empty = gt.zeros(0, 3, device=device).unique(dim=0)
    assert empty.shape == (0, 3)


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted(device, rng, right):
    seq = np.sort(rng.integers(0, 10, size=8))
    vals = rng.integers(-1, 11, size=(2, 3))
    got = gt.searchsorted(gt.tensor(seq, device=device), gt.tensor(vals, device=device),
                          right=right)
    np.testing.assert_array_equal(np_(got), np.searchsorted(seq, vals, "right" if right else
                                                            "left"))
    rows = np.sort(rng.standard_normal((2, 5)), 1)
    q = rng.standard_normal((2, 4))
    got = gt.searchsorted(gt.tensor(rows, device=device), gt.tensor(q, device=device),
                          side="right" if right else "left")
    for r in range(2):
        np.testing.assert_array_equal(np_(got)[r], np.searchsorted(rows[r], q[r]))
    with pytest.raises(gt.ShapeError, match=r"^\[searchsorted\] leading dims"):
        gt.searchsorted(gt.tensor(rows, device=device), gt.tensor(q[:1], device=device))


def test_bincount_histc(device, rng):
    x = rng.integers(0, 6, size=20)
    w = rng.standard_normal(20)
    t = gt.tensor(x, device=device)
    np.testing.assert_array_equal(np_(gt.bincount(t)), np.bincount(x))
    np.testing.assert_allclose(np_(gt.bincount(t, gt.tensor(w, device=device), minlength=9)),
                               np.bincount(x, w, minlength=9))
    with pytest.raises(ValueError, match=r"^\[bincount\] input must be non-negative"):
        gt.bincount(gt.tensor([1, -1], device=device))
    with pytest.raises(TypeError, match=r"^\[bincount\] expected a 1-D integer tensor"):
        gt.bincount(gt.tensor([1.0], device=device))
    v = rng.uniform(-1.2, 1.2, size=40)
    got = gt.tensor(v, device=device).histc(5, -1, 1)
    np.testing.assert_array_equal(np_(got), np.histogram(v, 5, (-1, 1))[0])
    auto = gt.tensor(v, device=device).histc(4)
    np.testing.assert_array_equal(np_(auto), np.histogram(v, 4)[0])
    with pytest.raises(ValueError, match=r"^\[histc\] max must be larger than min"):
        gt.tensor(v, device=device).histc(4, 1, 0)
