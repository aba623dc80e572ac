"""PyTorch's everyday functions (statistics, scans, products, index patterns, special
functions) against torch: values, gradients and errors, on tiny inputs.

One test runs a representative subset on cpu and the (simulated) cuda device;
the others run on cpu, where each composition runs the same ops.
"""

import math

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

NAN = float("nan")


def g(a, device="cpu", **kw):
    return gt.tensor(np.asarray(a), device=device, **kw)


def t(a, **kw):
    return torch.tensor(np.asarray(a), **kw)


def same(got, want, **tol):
    """``got`` (a gtensor tensor) equals ``want`` (a torch tensor) in shape, dtype kind, values."""
    want = want.detach()
    assert got.shape == tuple(want.shape)
    assert got.dtype.is_floating_point == want.dtype.is_floating_point
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), **tol)


def grads(fn, tfn, *arrays, **tol):
    """The gradients of ``sum(fn(*xs) * w)`` for random ``w`` match torch's, input by input."""
    xs = [g(a, requires_grad=True) for a in arrays]
    txs = [t(a, requires_grad=True) for a in arrays]
    out, tout = fn(*xs), tfn(*txs)
    w = np.random.default_rng(7).standard_normal(tuple(tout.shape))
    (out * g(w)).sum().backward()
    (tout * t(w)).sum().backward()
    for x, tx in zip(xs, txs, strict=True):
        same(x.grad, tx.grad, **tol)


RNG = np.random.default_rng(18)
A = RNG.standard_normal((3, 5))
A_NAN = A.copy()
A_NAN[1, 2] = A_NAN[2, 0] = A_NAN[2, 3] = NAN


def test_representative_subset_on_each_device(device):
    x, tx = g(A_NAN, device), t(A_NAN)
    v, i = gt.median(x, 1)
    tv, ti = torch.median(tx, 1)
    same(v, tv)
    same(i, ti)
    q = g([0.0, 0.3, 1.0], device)
    same(gt.nanquantile(x, q, 0, keepdim=True), torch.nanquantile(tx, t([0.0, 0.3, 1.0]), 0,
                                                                    keepdim=True))
    v, i = gt.cummax(x, 1)
    tv, ti = torch.cummax(tx, 1)
    same(v, tv)
    same(i, ti)
    same(gt.logcumsumexp(g(A, device), 1), torch.logcumsumexp(t(A), 1), rtol=1e-12)
    ints = np.array([[2, 0, 2, 1, 0, 0], [5, 5, 1, 1, 3, 1]])
    v, i = gt.mode(g(ints, device), 1)
    tv, ti = torch.mode(t(ints), 1)
    same(v, tv)
    same(i, ti)
    same(gt.cdist(g(A, device), g(A[:2], device), p=1), torch.cdist(t(A), t(A[:2]), p=1),
         rtol=1e-12)
    hist, edges = gt.histogram(g(A, device), 3, weight=g(A * A, device))
    thist, tedges = torch.histogram(t(A), 3, weight=t(A * A))
    same(hist, thist, rtol=1e-12)
    same(edges, tedges, rtol=1e-12)
    f = np.array([0.0, 6.0, -1e-310, np.inf])
    m, e = gt.frexp(g(f, device))
    tm, te = torch.frexp(t(f))
    same(m, tm)
    same(e, te)
    same(gt.special.erfc(g([0.5, 4.0], device)), torch.special.erfc(t([0.5, 4.0])), rtol=1e-12)
    same(gt.tril_indices(3, 4, 1, device=device), torch.tril_indices(3, 4, 1))
    same(gt.combinations(g([1, 2, 3], device), 2), torch.combinations(t([1, 2, 3]), 2))
    xg = gt.tensor(A, device=device, requires_grad=True)
    gt.quantile(xg, 0.4, 1).sum().backward()
    txg = t(A, requires_grad=True)
    torch.quantile(txg, 0.4, 1).sum().backward()
    same(xg.grad, txg.grad)


def test_median_and_nanmedian():
    x, tx = g(A_NAN), t(A_NAN)
    for f, tf in ((gt.median, torch.median), (gt.nanmedian, torch.nanmedian)):
        same(f(x), tf(tx))
        same(f(g(A)), tf(t(A)))
        for dim in (0, -1):
            v, i = f(x, dim, keepdim=True)
            tv, ti = tf(tx, dim, keepdim=True)
            same(v, tv)
            same(i, ti)
        assert type(f(x, 0)).__name__ == "ValuesIndices"
    all_nan = g([[NAN, NAN], [2.0, 1.0]])
    same(gt.nanmedian(all_nan, 1).values, torch.nanmedian(t([[NAN, NAN], [2.0, 1.0]]), 1).values)
    assert gt.median(g([4, 1, 3, 2])).item() == 2
    assert x.median(1).values.shape == (3,) and g(3.0).median(0).indices.item() == 0
    assert math.isnan(gt.median(g(np.zeros(0))).item())


def test_quantile_interpolations_dims_and_nans():
    x, tx = g(A), t(A)
    xn, txn = g(A_NAN), t(A_NAN)
    q, tq = g([0.25, 0.5, 0.9]), t([0.25, 0.5, 0.9])
    for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
        for dim, keepdim in ((None, False), (None, True), (1, False), (0, True)):
            same(gt.quantile(x, q, dim, keepdim, interpolation=mode),
                 torch.quantile(tx, tq, dim, keepdim, interpolation=mode), rtol=1e-12)
            same(x.quantile(0.7, dim, keepdim, interpolation=mode),
                 tx.quantile(0.7, dim, keepdim, interpolation=mode), rtol=1e-12)
        same(xn.nanquantile(0.4, 1, interpolation=mode),
             txn.nanquantile(0.4, 1, interpolation=mode), rtol=1e-12)
        same(gt.quantile(xn, q, 1, interpolation=mode),
             torch.quantile(txn, tq, 1, interpolation=mode))
    same(gt.nanquantile(g([NAN, NAN]), 0.3), torch.nanquantile(t([NAN, NAN]), 0.3))


def test_mode_msort_cov_corrcoef():
    ints = RNG.integers(0, 3, (4, 6))
    for dim in (0, 1):
        v, i = g(ints).mode(dim, keepdim=True)
        tv, ti = t(ints).mode(dim, keepdim=True)
        same(v, tv)
        same(i, ti)
    same(g([1.0, NAN, NAN]).mode().values, t([1.0, NAN, NAN]).mode().values)
    same(g(A).msort(), t(A).msort())
    fw, aw = RNG.integers(0, 3, 5), RNG.random(5)
    same(gt.cov(g(A)), torch.cov(t(A)), rtol=1e-12)
    same(g(A[0]).cov(correction=0), t(A[0]).cov(correction=0), rtol=1e-12)
    same(gt.cov(g(A), fweights=g(fw), aweights=g(aw)),
         torch.cov(t(A), fweights=t(fw), aweights=t(aw)), rtol=1e-12)
    same(gt.corrcoef(g(A)), torch.corrcoef(t(A)), rtol=1e-12)
    ints = [[1, 5, 2, 8], [0, 3, 3, 1]]
    same(gt.cov(g(ints)), torch.cov(t(ints)), rtol=1e-6)
    same(gt.corrcoef(g([1.0, 2.0, 4.0])), torch.corrcoef(t([1.0, 2.0, 4.0])))


def test_histogram():
    h = RNG.standard_normal(12).astype(np.float32)
    w = RNG.random(12).astype(np.float32)
    edges = np.array([-2.0, -0.5, 0.0, 1.5], dtype=np.float32)
    cases = [((4,), {}), ((3,), {"range": (-1.0, 1.0), "density": True}),
             ((g(edges),), {"weight": g(w)})]
    for args, kw in cases:
        targs = [t(edges) if isinstance(a, gt.Tensor) else a for a in args]
        tkw = {k: t(w) if k == "weight" else v for k, v in kw.items()}
        hist, bin_edges = g(h).histogram(*args, **kw)
        thist, tedges = torch.histogram(t(h), *targs, **tkw)
        same(hist, thist, rtol=1e-6)
        same(bin_edges, tedges, rtol=1e-6)
    for data in ([2.0, 2.0], []):
        hist, bin_edges = gt.histogram(g(np.array(data, dtype=np.float32)), 3)
        same(bin_edges, torch.histogram(t(np.array(data, dtype=np.float32)), 3).bin_edges)
        assert hist.sum().item() == len(data)


def test_running_extremes_diff_trapezoid_bucketize():
    ints = RNG.integers(0, 4, (3, 7))
    nans = np.array([1.0, NAN, 2.0, NAN, 5.0, 0.5])
    for f, tf in ((gt.cummax, torch.cummax), (gt.cummin, torch.cummin)):
        for x, tx, dim in ((g(ints), t(ints), 0), (g(nans), t(nans), 0), (g(ints), t(ints), 1)):
            v, i = f(x, dim)
            tv, ti = tf(tx, dim)
            same(v, tv)
            same(i, ti)
    same(gt.logcumsumexp(g([-1000.0, 0.0, -np.inf]), 0),
         torch.logcumsumexp(t([-1000.0, 0.0, -np.inf]), 0))
    for kw in ({}, {"n": 2, "dim": 0}, {"n": 9}, {"prepend": ints[:, :1], "append": ints[:, :2]}):
        tkw = {k: t(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        gkw = {k: g(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        same(g(ints).diff(**gkw), t(ints).diff(**tkw))
    same(gt.diff(g([True, False, False])), torch.diff(t([True, False, False])))
    y, xs = A[:2], np.sort(RNG.standard_normal(5))
    for f, tf in ((gt.trapezoid, torch.trapezoid),
                  (gt.cumulative_trapezoid, torch.cumulative_trapezoid)):
        same(f(g(y)), tf(t(y)), rtol=1e-12)
        same(f(g(y), dx=0.5, dim=0), tf(t(y), dx=0.5, dim=0), rtol=1e-12)
        same(f(g(y), g(xs)), tf(t(y), t(xs)), rtol=1e-12)
        same(f(g(ints)), tf(t(ints)), rtol=1e-6)
    bounds, values = np.array([1.0, 2.0, 4.0]), np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 9.0]])
    for right in (False, True):
        same(gt.bucketize(g(values), g(bounds), right=right),
             torch.bucketize(t(values), t(bounds), right=right))
    assert gt.bucketize(2.5, g([1, 2, 3])).item() == 2
    assert gt.bucketize(g([2]), g([1, 2]), out_int32=True).dtype is gt.int32


def test_products_distances_norms():
    m, v, i2 = RNG.standard_normal((4, 3)), RNG.standard_normal(3), RNG.standard_normal(4)
    same(gt.addmv(g(i2), g(m), g(v), beta=0.5, alpha=2),
         torch.addmv(t(i2), t(m), t(v), beta=0.5, alpha=2), rtol=1e-12)
    same(gt.addmv(g([NAN]), g(m), g(v), beta=0), torch.addmv(t([NAN]), t(m), t(v), beta=0))
    same(g(m).addr(g(i2), g(v), alpha=3), t(m).addr(t(i2), t(v), alpha=3), rtol=1e-12)
    b1, b2, bi = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 4, 2)), A[:3, :2]
    same(gt.baddbmm(g(bi), g(b1), g(b2), beta=2), torch.baddbmm(t(bi), t(b1), t(b2), beta=2),
         rtol=1e-12)
    x = g(i2)
    assert x.addmv_(g(m), g(v)) is x
    same(x, torch.addmv(t(i2), t(m), t(v)), rtol=1e-12)
    ms = [RNG.standard_normal(s) for s in ((2, 5), (5, 3), (3, 4), (4, 1))]
    same(gt.chain_matmul(*map(g, ms)), torch.linalg.multi_dot(list(map(t, ms))), rtol=1e-12)
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 2, 4))
    for p in (0, 2, 3.5, math.inf):
        same(gt.cdist(g(a), g(b), p), torch.cdist(t(a), t(b), p), rtol=1e-12)
    same(gt.cdist(g(a), g(b), compute_mode="use_mm_for_euclid_dist"), torch.cdist(t(a), t(b)),
         rtol=1e-10)
    for p, dim, maxnorm in ((2, 0, 1.0), (1, -1, 2.0)):
        same(g(A).renorm(p, dim, maxnorm), t(A).renorm(p, dim, maxnorm), rtol=1e-12)
    for n, increasing in ((None, False), (2, True), (0, False)):
        for xs in ([1, 2, 3], [1.5, -2.0, 0.0]):
            same(gt.vander(g(xs), n, increasing), torch.vander(t(xs), n, increasing))
    assert gt.vander(g([1, 2])).dtype is gt.int64


def test_arrangements():
    for f, tf in ((gt.atleast_1d, torch.atleast_1d), (gt.atleast_2d, torch.atleast_2d),
                  (gt.atleast_3d, torch.atleast_3d)):
        for a in (np.array(1.0), np.ones(3), np.ones((2, 3)), np.ones((1, 2, 3, 4))):
            same(f(g(a)), tf(t(a)))
        both = f(g(1.0), g([1.0, 2.0]))
        assert isinstance(both, tuple) and both[1].shape == tuple(tf(t([1.0, 2.0])).shape)
    a = np.arange(24).reshape(2, 3, 4)
    for k, dims in ((1, (0, 1)), (2, (2, 0)), (3, (-1, 1)), (-1, (0, 2)), (4, (0, 1))):
        same(g(a).rot90(k, dims), t(a).rot90(k, dims))
    blocks = (np.array(1), np.array([2.0, 3.0]), np.array([[4], [5]]), np.ones((0, 2)))
    same(gt.block_diag(*map(g, blocks)), torch.block_diag(*map(t, blocks)))
    xs = np.array([1.0, 2.0, 3.0, 4.0])
    same(gt.cartesian_prod(g(xs), g(xs[:2]), g(xs[:3])),
         torch.cartesian_prod(t(xs), t(xs[:2]), t(xs[:3])))
    for r, rep in ((0, False), (1, False), (3, False), (2, True), (5, False)):
        same(gt.combinations(g(xs), r, rep), torch.combinations(t(xs), r, rep))
    for args in ((3, 3), (4, 2, 1), (2, 5, -1), (0, 3)):
        same(gt.tril_indices(*args), torch.tril_indices(*args))
        same(gt.triu_indices(*args), torch.triu_indices(*args))
    assert gt.triu_indices(3, 3, dtype=gt.int32).dtype is gt.int32


def test_special_functions_and_namespace():
    p = np.array([0.0, 0.1, 0.5, 0.9, 1.0, 1.2])
    same(g(p).logit(), t(p).logit(), rtol=1e-12)
    same(gt.special.logit(g(p), 0.05), torch.special.logit(t(p), 0.05), rtol=1e-12)
    x = np.array([0.0, 0.0, 1.0, 2.0, -1.0, 0.0, 3.0])
    y = np.array([0.0, NAN, 0.0, 3.0, 2.0, np.inf, -1.0])
    same(g(x).xlogy(g(y)), t(x).xlogy(t(y)))
    same(gt.xlogy(2, g(y)), torch.xlogy(2, t(y)))
    same(gt.special.xlog1py(g(x), g(y)), torch.special.xlog1py(t(x), t(y)))
    e = np.array([-1.0, 0.0, 0.5, 2.0, NAN])
    same(gt.special.entr(g(e)), torch.special.entr(t(e)))
    s = np.array([0.0, 0.5, -1.5, 2.25])
    same(gt.special.sinc(g(s)), torch.special.sinc(t(s)), rtol=1e-12, atol=1e-15)
    c = np.array([0j, 0.5 + 0.5j, -1.2 + 0.1j])
    assert gt.sinc(g(c)).dtype is gt.complex128  # complex in, complex out
    same(gt.sinc(g(c)), torch.sinc(t(c)), rtol=1e-12, atol=1e-15)
    z = np.array([-3.0, 0.0, 1.0, 2.99, 3.0, 9.0, 26.0])
    same(gt.special.erfc(g(z)), torch.special.erfc(t(z)), rtol=2e-12)
    same(gt.special.erfc(g(z, dtype=gt.float32)), torch.special.erfc(t(z.astype(np.float32))),
         rtol=2e-7)
    for name in ("expit", "erf", "log1p", "expm1", "exp2", "round"):
        same(getattr(gt.special, name)(g(s)), getattr(torch.special, name)(t(s)), rtol=1e-12)
    for name in ("softmax", "log_softmax", "logsumexp"):
        same(getattr(gt.special, name)(g(A), 1), getattr(torch.special, name)(t(A), 1),
             rtol=1e-12)
    f = np.array([0.0, -np.inf, NAN, -3.0, 1e-40, 8.0, 3.4e38], dtype=np.float32)
    mantissa, exponent = g(f).frexp()
    tm, te = t(f).frexp()
    same(mantissa, tm)
    same(exponent, te)
    assert exponent.dtype is gt.int32
    same(gt.ldexp(g([1.0, -2.5]), g([3, -2])), torch.ldexp(t([1.0, -2.5]), t([3, -2])))
    v = g([0.25, 0.5])
    assert v.logit_() is v
    same(v, torch.logit(t([0.25, 0.5])))


def test_gradients_match_torch():
    a4 = RNG.standard_normal((3, 4))
    grads(lambda x: x.median(), lambda x: x.median(), np.array([3.0, 1.0, 2.0, 1.0, 2.0]))
    grads(lambda x: x.median(1).values, lambda x: x.median(1).values, a4)
    grads(lambda x: x.nanmedian(0).values, lambda x: x.nanmedian(0).values, A_NAN)
    grads(lambda x: gt.quantile(x, g([0.2, 0.75]), 1),
          lambda x: torch.quantile(x, t([0.2, 0.75]), 1), a4)
    grads(lambda x: x.mode(0).values, lambda x: x.mode(0).values, np.array([[1.0, 2], [1, 3]]))
    grads(lambda x: x.cummax(1).values, lambda x: x.cummax(1).values, a4)
    grads(lambda x: x.cummin(0).values, lambda x: x.cummin(0).values, a4)
    grads(lambda x: x.logcumsumexp(1), lambda x: x.logcumsumexp(1), a4, rtol=1e-12)
    grads(lambda x, y: gt.cdist(x, y), lambda x, y: torch.cdist(x, y), a4, a4[:2] + 1,
          rtol=1e-12)
    grads(lambda x, y: gt.cdist(x, y, 1), lambda x, y: torch.cdist(x, y, 1), a4, a4[:2] + 1)
    grads(lambda i, m, v: gt.addmv(i, m, v, beta=2, alpha=0.5),
          lambda i, m, v: torch.addmv(i, m, v, beta=2, alpha=0.5), a4[0, :3], a4[:3], a4[1],
          rtol=1e-12)
    p = np.array([-0.5, 0.0, 0.05, 0.3, 0.97, 1.0, 1.5])
    grads(lambda x: x.logit(0.1), lambda x: x.logit(0.1), p, rtol=1e-12)
    grads(gt.logit, torch.logit, p, rtol=1e-12)
    x, y = np.array([0.0, 0.0, 1.0, 1.5, 0.0]), np.array([2.0, 0.0, 0.0, 0.5, -1.0])
    grads(gt.xlogy, torch.xlogy, x, y, rtol=1e-12)
    grads(gt.special.xlog1py, torch.special.xlog1py, x, y, rtol=1e-12)
    grads(gt.special.entr, torch.special.entr, np.array([0.0, 0.5, 1.0, -1.0]), rtol=1e-12)
    grads(gt.special.sinc, torch.special.sinc, np.array([0.0, 0.5, -1.25]), rtol=1e-12)
    grads(lambda x: x.renorm(2, 0, 1.0), lambda x: x.renorm(2, 0, 1.0), a4, rtol=1e-10)
    grads(lambda x: gt.cov(x), lambda x: torch.cov(x), a4, rtol=1e-12)
    grads(lambda x: gt.special.erfc(x), lambda x: torch.special.erfc(x), a4, rtol=1e-12)
    grads(lambda x: gt.trapezoid(x, dim=0), lambda x: torch.trapezoid(x, dim=0), a4)
    grads(gt.cumulative_trapezoid, torch.cumulative_trapezoid, a4, a4[0])
    grads(lambda x: x.diff(2, 0), lambda x: x.diff(2, 0), a4)
    grads(gt.block_diag, torch.block_diag, a4, a4[0])
    grads(gt.combinations, torch.combinations, a4[0])
    grads(gt.ldexp, torch.ldexp, a4[0], a4[1])
    grads(gt.corrcoef, torch.corrcoef, a4, rtol=1e-10)
    grads(lambda x: gt.cdist(x, x + 0.5, compute_mode="use_mm_for_euclid_dist"),
          lambda x: torch.cdist(x, x + 0.5, compute_mode="use_mm_for_euclid_dist"), a4, rtol=1e-8)
    grads(lambda x: (x * 1.0).logit_(), lambda x: (x * 1.0).logit_(), p[2:5], rtol=1e-12)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: gt.quantile(g([1.0, 2.0]), 1.5), ValueError, r"\[quantile\] q must be in \[0, 1\], "
     "got 1.5"),
    (lambda: gt.nanquantile(g([1.0]), g([0.5, 2.0])), ValueError, r"\[nanquantile\] q values"),
    (lambda: gt.quantile(g([1, 2]), 0.5), gt.DTypeError, r"\[quantile\] input must be float"),
    (lambda: gt.quantile(g([1.0]), 0.5, interpolation="cubic"), ValueError,
     r"\[quantile\] interpolation must be one of"),
    (lambda: gt.quantile(g(np.zeros(0)), 0.5), gt.ShapeError, r"\[quantile\] input tensor must "
     "be non-empty"),
    (lambda: gt.median(g(np.ones((2, 0))), 1), IndexError, r"\[median\] expected reduction dim"),
    (lambda: gt.mode(g(np.ones((2, 0))), 1), IndexError, r"\[mode\] expected reduction dim"),
    (lambda: gt.cov(g(np.ones((2, 2, 2)))), gt.ShapeError, r"\[cov\] expected input to have two"),
    (lambda: gt.cov(g(A), fweights=g([1.0] * 5)), gt.DTypeError, r"\[cov\] expected fweights"),
    (lambda: gt.histogram(g([1, 2]), 2), gt.DTypeError, r"\[histogram\] expected a floating"),
    (lambda: gt.histogram(g([1.0]), 0), ValueError, r"\[histogram\] bins must be > 0"),
    (lambda: gt.diff(g(1.0)), gt.ShapeError, r"\[diff\] expected input to be at least 1-D"),
    (lambda: gt.diff(g([1.0]), n=-1), ValueError, r"\[diff\] order must be non-negative"),
    (lambda: gt.logcumsumexp(g([1, 2]), 0), gt.DTypeError, r"\[logcumsumexp\] expected a "),
    (lambda: gt.trapezoid(g([1.0, 2.0]), g([1.0, 2.0, 3.0])), gt.ShapeError,
     r"\[trapezoid\] there must be one x value"),
    (lambda: gt.bucketize(g([1.0]), g([[1.0]])), gt.ShapeError, r"\[bucketize\] boundaries"),
    (lambda: gt.addmv(g([1.0]), g([1.0]), g([1.0])), gt.ShapeError, r"\[addmv\] expected mat"),
    (lambda: gt.addr(g(np.ones((1, 2, 2))), g([1.0, 2.0]), g([1.0, 2.0])), gt.ShapeError,
     r"\[addr\] input of shape \(1, 2, 2\) does not broadcast"),
    (lambda: gt.chain_matmul(), ValueError, r"\[chain_matmul\] expected one or more"),
    (lambda: gt.cdist(g([1.0]), g([1.0])), gt.ShapeError, r"\[cdist\] expected tensors of at"),
    (lambda: gt.cdist(g([[1.0]]), g([[1.0]]), -1), ValueError, r"\[cdist\] p must be"),
    (lambda: gt.renorm(g([1.0, 2.0]), 2, 0, 1), gt.ShapeError, r"\[renorm\] input needs at"),
    (lambda: gt.vander(g(np.ones((2, 2)))), gt.ShapeError, r"\[vander\] x must be a 1-D"),
    (lambda: gt.rot90(g(A), 1, (0, 0)), gt.ShapeError, r"\[rot90\] expected different"),
    (lambda: gt.block_diag(g(np.ones((1, 1, 1)))), gt.ShapeError, r"\[block_diag\] input "),
    (lambda: gt.combinations(g([1.0]), -1), ValueError, r"\[combinations\] r must be"),
    (lambda: gt.cartesian_prod(g(A)), gt.ShapeError, r"\[cartesian_prod\] expected 1-D"),
    (lambda: gt.frexp(g([1, 2])), gt.DTypeError, r"\[frexp\] expected a floating point"),
    (lambda: g([1, 2]).logit_(), gt.DTypeError, r"\[logit_\] result type float32 can't be"),
    (lambda: gt.logit(g([0.5j])), gt.DTypeError, r"\[logit\] not implemented for complex"),
    (lambda: gt.special.erfc(g([0.5j])), gt.DTypeError, r"\[erfc\] not implemented for"),
    (lambda: gt.xlogy(g([1.0]), 1 + 2j), gt.DTypeError, r"\[xlogy\] not implemented for"),
])
def test_errors_name_the_op(call, exc, message):
    with pytest.raises(exc, match=message):
        call()
