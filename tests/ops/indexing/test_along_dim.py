"""gather/scatter family, index_* ops, take and masks against NumPy, on cpu and cuda."""

import numpy as np
import pytest

import gtensor as gt


def np_(t):
    return t.cpu().numpy()


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_matches_take_along_axis(device, rng, dim):
    a = rng.standard_normal((3, 4))
    d = dim % 2
    shape = (3, 4)[:d] + (5,) + (3, 4)[d + 1:]
    idx = rng.integers(-a.shape[d], a.shape[d], size=shape)
    got = gt.tensor(a, device=device).gather(dim, gt.tensor(idx, device=device))
    np.testing.assert_array_equal(np_(got), np.take_along_axis(a, idx % a.shape[d], axis=d))


def _np_scatter(a, dim, idx, src, op):
    out = a.copy()
    for pos in np.ndindex(idx.shape):
        tgt = list(pos)
        tgt[dim] = idx[pos]
        out[tuple(tgt)] = op(out[tuple(tgt)], src[pos])
    return out


@pytest.mark.parametrize("reduce", ["sum", "prod", "amax", "amin", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(device, rng, reduce, include_self):
    a = rng.standard_normal((4, 3))
    idx = rng.integers(0, 4, size=(5, 3))
    src = rng.standard_normal((5, 3))
    got = gt.tensor(a, device=device).scatter_reduce(
        0, gt.tensor(idx, device=device), gt.tensor(src, device=device), reduce,
        include_self=include_self)
    groups = {}
    for pos in np.ndindex(idx.shape):
        groups.setdefault((idx[pos], pos[1]), []).append(src[pos])
    want = a.copy()
    fn = {"sum": np.sum, "prod": np.prod, "amax": np.max, "amin": np.min, "mean": np.mean}[reduce]
    for key, vals in groups.items():
        want[key] = fn(vals + [a[key]] if include_self else vals)
    np.testing.assert_allclose(np_(got), want, rtol=1e-12)


@pytest.mark.parametrize("dt", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("n", [6, 5])  # a half storage of whole 32-bit words, and one not
def test_scatter_reduce_combines_halves_in_place_and_nan_wins(device, rng, dt, n):
    """amax/amin let a NaN of either side win; float16 and bfloat16 combine on their own bits."""
    dtype = getattr(gt, dt)
    a = rng.standard_normal((n, 3)).astype(np.float32)
    a[0, 2] = np.nan
    idx = np.array([[0, 1, 2], [1, 1, 0], [n - 1, 0, 1], [0, 0, 0]])
    src = rng.standard_normal((4, 3)).astype(np.float32)
    src[1, 1] = np.nan
    x, s = (gt.tensor(v, device=device).to(dtype) for v in (a, src))
    a, src = np_(x.float()), np_(s.float())  # the values as the half type holds them
    for reduce, fn in (("sum", np.sum), ("amax", np.max), ("amin", np.min)):
        got = x.scatter_reduce(0, gt.tensor(idx, device=device), s, reduce)
        want = a.copy()
        for key in {(int(idx[p]), p[1]) for p in np.ndindex(idx.shape)}:
            vals = [src[p] for p in np.ndindex(idx.shape) if (idx[p], p[1]) == key]
            want[key] = fn(vals + [a[key]])
        tol = 0 if reduce != "sum" else {"float32": 1e-6, "float16": 1e-2, "bfloat16": 5e-2}[dt]
        np.testing.assert_allclose(np_(got.float()), want, rtol=tol, atol=tol)


def test_scatter_scatter_add_and_value(device, rng):
    a = np.zeros((3, 4))
    idx = np.array([[0, 1, 2, 0], [2, 2, 1, 1]])
    src = rng.standard_normal((2, 4))
    x = gt.tensor(a, device=device)
    got = x.scatter(0, gt.tensor(idx, device=device), gt.tensor(src, device=device))
    np.testing.assert_array_equal(np_(got), _np_scatter(a, 0, idx, src, lambda o, v: v))
    add = x.scatter_add(1, gt.tensor(idx, device=device), gt.tensor(src, device=device))
    np.testing.assert_allclose(np_(add), _np_scatter(a, 1, idx, src, lambda o, v: o + v))
    filled = x.scatter(1, gt.tensor(idx, device=device), 3.0)
    np.testing.assert_array_equal(np_(filled), _np_scatter(a, 1, idx, np.full((2, 4), 3.0),
                                                           lambda o, v: v))
    assert np_(x).sum() == 0
    ints = gt.zeros(3, dtype=gt.int8, device=device).scatter_add_(
        0, gt.tensor([0, 0, 2], device=device), gt.tensor([1, 2, 3], dtype=gt.int8, device=device))
    assert ints.tolist() == [3, 0, 3]


def test_index_ops(device, rng):
    a = rng.standard_normal((4, 3))
    x = gt.tensor(a, device=device)
    idx = np.array([3, 0, 3])
    t = gt.tensor(idx, device=device)
    np.testing.assert_array_equal(np_(x.index_select(0, t)), a[idx])
    np.testing.assert_array_equal(np_(x.index_select(1, gt.tensor([2, 0], device=device))),
                                  a[:, [2, 0]])
    src = rng.standard_normal((3, 3))
    want = a.copy()
    np.add.at(want, idx, src)
    np.testing.assert_allclose(np_(x.index_add(0, t, gt.tensor(src, device=device))), want)
    want = a.copy()
    want[[2, 0]] = src[:2]
    got = x.index_copy(0, gt.tensor([2, 0], device=device), gt.tensor(src[:2], device=device))
    np.testing.assert_array_equal(np_(got), want)
    want = a.copy()
    want[:, [1]] = -1.0
    np.testing.assert_array_equal(np_(x.index_fill(1, gt.tensor([1], device=device), -1.0)), want)


def test_take_and_take_along_dim(device, rng):
    a = rng.integers(0, 100, size=(3, 4))
    x = gt.tensor(a, device=device)
    idx = rng.integers(-12, 12, size=(2, 3))
    np.testing.assert_array_equal(np_(x.take(gt.tensor(idx, device=device))), np.take(a, idx))
    order = np.argsort(a, axis=1)
    got = x.take_along_dim(gt.tensor(order, device=device), 1)
    np.testing.assert_array_equal(np_(got), np.take_along_axis(a, order, 1))
    bc = x.take_along_dim(gt.tensor([[0], [1], [2]], device=device), 1)
    np.testing.assert_array_equal(np_(bc), a[:, :3].diagonal()[:, None])
    flat = x.take_along_dim(gt.tensor([11, 0], device=device))
    assert flat.tolist() == [a.flat[11], a.flat[0]]


def test_masks_and_nonzero(device, rng):
    a = rng.standard_normal((3, 4))
    m = a > 0
    x = gt.tensor(a, device=device)
    mt = gt.tensor(m, device=device)
    np.testing.assert_array_equal(np_(x.masked_select(mt)), a[m])
    np.testing.assert_array_equal(np_(x.masked_fill(mt, 0.5)), np.where(m, 0.5, a))
    row = gt.tensor(m[0], device=device)
    np.testing.assert_array_equal(np_(x.masked_fill(row, 1.0)), np.where(m[0], 1.0, a))
    np.testing.assert_array_equal(np_(x.masked_select(row)), np.broadcast_to(a, a.shape)[
        np.broadcast_to(m[0], a.shape)])
    np.testing.assert_array_equal(np_(x.nonzero()), np.argwhere(a))
    np.testing.assert_array_equal(np_(mt.nonzero()), np.argwhere(m))
    np.testing.assert_array_equal(np_(mt.argwhere()), np.argwhere(m))
    cols = mt.nonzero(as_tuple=True)
    for got, want in zip(cols, np.nonzero(m), strict=True):
        np.testing.assert_array_equal(np_(got), want)
    assert gt.tensor(0.0, device=device).nonzero().shape == (0, 0)
    assert gt.tensor(2.0, device=device).nonzero().shape == (1, 0)



def test_where_of_a_condition_alone_is_nonzero_as_tuple(device):
    m = gt.tensor([[0, 1], [1, 0]], device=device)
    assert [t.tolist() for t in gt.where(m)] == [[0, 1], [1, 0]]
    # a 0-d input counts as 1-d for as_tuple (one index tensor), as in PyTorch
    (zero,), (two,) = gt.tensor(0.0, device=device).nonzero(as_tuple=True), gt.where(
        gt.tensor(2.0, device=device))
    assert (zero.dtype, zero.shape, two.tolist()) == (gt.int64, (0,), [0])
    with pytest.raises(TypeError, match=r"^\[where\] takes either condition alone"):
        gt.where(m > 0, 1.0)


def test_out_arguments_of_gather_select_take_where_cat_stack(device):
    x = gt.arange(6.0, device=device).view(2, 3)
    i = gt.tensor([[2], [0]], device=device)
    calls = {
        "gather": (lambda o: gt.gather(x, 1, i, out=o), (2, 1), [[2.0], [3.0]]),
        "index_select": (lambda o: gt.index_select(x, 0, i[1], out=o), (1, 3), [[0, 1, 2]]),
        "take": (lambda o: gt.take(x, i[0], out=o), (1,), [2.0]),
        "where": (lambda o: gt.where(x > 2, x, 0.0, out=o), (2, 3), [[0, 0, 0], [3, 4, 5]]),
        "cat": (lambda o: gt.cat([x[0], x[1, :1]], out=o), (4,), [0, 1, 2, 3]),
        "stack": (lambda o: gt.stack([x[0], x[1]], 1, out=o), (3, 2), [[0, 3], [1, 4], [2, 5]]),
    }
    for op, (call, shape, want) in calls.items():
        o = gt.empty(shape, dtype=gt.float64, device=device)
        assert call(o) is o and o.tolist() == want, op
        with pytest.raises(gt.ShapeError, match=rf"^\[{op}\] out has shape"):
            call(gt.empty(7, device=device))

def test_errors(device):
    x = gt.zeros(3, 4, device=device)
    i = gt.tensor([[0, 5]], device=device)
    with pytest.raises(IndexError, match=r"^\[gather\] index 5 is out of bounds for dimension 1"):
        x.gather(1, i).cpu()  # .cpu(): a CUDA device reports bad indices when it syncs
    with pytest.raises(IndexError, match=r"^\[scatter_add_\] index 5 is out of bounds"):
        x.scatter_add_(1, i, gt.ones(1, 2, device=device)).cpu()
    with pytest.raises(IndexError, match=r"^\[index_select\] index 4 is out of bounds"):
        x.index_select(0, gt.tensor([4], device=device)).cpu()
    with pytest.raises(IndexError, match=r"^\[take\] index -13 is out of bounds"):
        x.take(gt.tensor([-13], device=device)).cpu()
    with pytest.raises(gt.ShapeError, match=r"^\[gather\] index must have as many dims"):
        x.gather(0, gt.tensor([0], device=device))
    with pytest.raises(gt.ShapeError, match=r"^\[scatter_\] index \(1, 2\) is larger than src"):
        x.scatter_(1, gt.tensor([[0, 1]], device=device), gt.ones(1, 1, device=device))
    with pytest.raises(TypeError, match=r"^\[scatter_\] expected src of dtype float32"):
        x.scatter_(1, gt.tensor([[0]], device=device), gt.ones(1, 1, dtype=gt.float64,
                                                                device=device))
    with pytest.raises(ValueError, match=r"^\[scatter_reduce\] reduce must be one of"):
        x.scatter_reduce(0, gt.tensor([[0]], device=device), x, "median")
    z = gt.zeros(2, dtype=gt.complex64, device=device)
    with pytest.raises(gt.DTypeError, match=r"^\[scatter_reduce\] reduce='amax' is not defined"):
        z.scatter_reduce(0, gt.tensor([0], device=device), z, "amax")
    with pytest.raises(gt.DTypeError, match=r"^\[scatter_reduce\] reduce='mean' is not"):
        (z != 0).scatter_reduce(0, gt.tensor([0], device=device), z != 0, "mean")
    with pytest.raises(TypeError, match=r"^\[gather\] expected an integer index"):
        x.gather(0, gt.tensor([[True]], device=device))
    for op in ("masked_fill", "masked_fill_"):
        with pytest.raises(TypeError, match=rf"^\[{op}\] expected a bool mask"):
            getattr(x.clone(), op)(gt.ones(3, 4, device=device), 1.0)
        with pytest.raises(gt.GTensorError, match=rf"^\[{op}\] mask of shape"):
            getattr(gt.zeros(4, device=device), op)(gt.ones(2, 4, dtype=gt.bool, device=device),
                                                    1.0)
        with pytest.raises(gt.GTensorError, match=rf"^\[{op}\] value must be a number or a 0-d"):
            getattr(x.clone(), op)(x > 0, gt.ones(2, device=device))
    with pytest.raises(gt.ShapeError, match=r"^\[index_copy_\] source must have shape"):
        x.index_copy(0, gt.tensor([0], device=device), gt.ones(2, 4, device=device))
