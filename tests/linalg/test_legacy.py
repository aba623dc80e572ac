"""PyTorch's legacy linear algebra (cholesky(upper=), cholesky_solve, svd returning V,
triangular_solve's order...), matrix_exp with its gradient, addbmm and pdist, against torch."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 3, 3))
SPD = A @ A.transpose(0, 2, 1) + 3 * np.eye(3)
B = RNG.standard_normal((2, 3, 2))
R = RNG.standard_normal((4, 3))


def same(got, want, tol=1e-9):
    want = want.detach()
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), atol=tol, rtol=tol)


@pytest.mark.parametrize("scale", [0.2, 4.0])
def test_matrix_exp_values_and_gradient(scale, device):
    a = gt.tensor(A * scale, device=device, requires_grad=True)
    ta = torch.tensor(A * scale, requires_grad=True)
    out, tout = a.matrix_exp(), torch.matrix_exp(ta)
    same(out, tout, 1e-11)
    same(gt.linalg.matrix_exp(a), tout, 1e-11)
    w = RNG.standard_normal((2, 3, 3))
    (out * gt.tensor(w, device=device)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    same(a.grad, ta.grad, 1e-10)
    with pytest.raises(gt.ShapeError, match=r"\[matrix_exp\]"):
        gt.matrix_exp(gt.ones(2, 3, device=device))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_family(upper, device):
    s, ts = gt.tensor(SPD, device=device), torch.tensor(SPD)
    f, tf = gt.cholesky(s, upper), torch.cholesky(ts, upper)
    same(f, tf)
    same(s.cholesky(upper=upper), tf)
    b = gt.tensor(B, device=device, requires_grad=True)
    tb = torch.tensor(B, requires_grad=True)
    x, tx = gt.cholesky_solve(b, f, upper), torch.cholesky_solve(tb, tf, upper)
    same(x, tx)
    x.sum().backward()
    tx.sum().backward()
    same(b.grad, tb.grad)
    same(f[0].cholesky_inverse(upper), tf[0].cholesky_inverse(upper))
    with pytest.raises(gt.ShapeError, match=r"\[cholesky_solve\]"):
        gt.cholesky_solve(gt.ones(2, 1, device=device), gt.eye(3, device=device))


@pytest.mark.parametrize("transpose", [False, True])
def test_triangular_solve_legacy_order(transpose, device):
    for upper in (False, True):
        x, coef = gt.triangular_solve(gt.tensor(B, device=device), gt.tensor(A, device=device),
                                      upper, transpose)
        tx, tcoef = torch.triangular_solve(torch.tensor(B), torch.tensor(A), upper, transpose)
        same(x, tx, 1e-8)
        same(coef, tcoef)
    assert gt.tensor(B).triangular_solve(gt.tensor(A)).solution.shape == (2, 3, 2)


def test_svd_qr_inverse_norms(device):
    r, tr = gt.tensor(R, device=device), torch.tensor(R)
    for some in (True, False):
        u, s, v = gt.svd(r, some=some)
        tu, ts, tv = torch.svd(tr, some=some)
        assert (u.shape, v.shape) == (tuple(tu.shape), tuple(tv.shape))
        same(s, ts)
        k = s.shape[0]
        same(u[:, :k] @ gt.diag(s) @ v[:, :k].mT, tr)
        q, rr = r.qr(some=some)
        tq, trr = torch.qr(tr, some=some)
        assert (q.shape, rr.shape) == (tuple(tq.shape), tuple(trr.shape))
        same(q @ rr, tr)
    u, s, v = r.svd(compute_uv=False)
    assert u.shape == (4, 4) and v.shape == (3, 3) and u.abs().sum().item() == 0
    same(gt.pinverse(r), torch.pinverse(tr))
    sq, tsq = gt.tensor(SPD, device=device), torch.tensor(SPD)
    same(sq.inverse(), tsq.inverse())
    same(gt.frobenius_norm(sq, (1, 2)), torch.frobenius_norm(tsq, (1, 2)))
    same(gt.nuclear_norm(sq[0]), torch.nuclear_norm(tsq[0]))
    same(gt.nuclear_norm(sq[0], True), torch.nuclear_norm(tsq[0], True))


def test_addbmm(device):
    m = gt.tensor(A[0], device=device, requires_grad=True)
    b1 = gt.tensor(A, device=device, requires_grad=True)
    tm, tb1 = torch.tensor(A[0], requires_grad=True), torch.tensor(A, requires_grad=True)
    out = gt.addbmm(m, b1, b1, beta=0.5, alpha=2)
    tout = torch.addbmm(tm, tb1, tb1, beta=0.5, alpha=2)
    same(out, tout)
    out.sum().backward()
    tout.sum().backward()
    same(m.grad, tm.grad)
    same(b1.grad, tb1.grad)
    c = gt.tensor(A[0], device=device)
    c.addbmm_(gt.tensor(A, device=device), gt.tensor(A, device=device))
    same(c, torch.tensor(A[0]).addbmm_(torch.tensor(A), torch.tensor(A)))
    with pytest.raises(gt.ShapeError, match=r"\[addbmm\]"):
        gt.addbmm(m, b1, gt.ones(3, 3, 3, device=device, dtype=gt.float64)[:2, :2])


@pytest.mark.parametrize("p", [2.0, 1.0, float("inf")])
def test_pdist(p, device):
    pts = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0], [0.0, 0.0]])
    x = gt.tensor(pts, device=device, requires_grad=True)
    tx = torch.tensor(pts, requires_grad=True)
    out, tout = gt.pdist(x, p), torch.pdist(tx, p)
    same(out, tout)
    out.sum().backward()
    tout.sum().backward()
    same(x.grad, tx.grad)
    with pytest.raises(gt.ShapeError, match=r"\[pdist\]"):
        gt.pdist(gt.ones(3, device=device))


@pytest.mark.parametrize("shape", [(2, 4, 4), (3, 5), (5, 3)])
def test_lu_factor_unpack_and_gradient(shape, device):
    a_np = RNG.standard_normal(shape)
    a = gt.tensor(a_np, device=device, requires_grad=True)
    ta = torch.tensor(a_np, requires_grad=True)
    lu, piv = gt.linalg.lu_factor(a)
    tlu, tpiv = torch.linalg.lu_factor(ta)
    same(lu, tlu)
    assert piv.dtype == gt.int32 and piv.tolist() == tpiv.tolist()
    w = RNG.standard_normal(tuple(tlu.shape))
    (lu * gt.tensor(w, device=device)).sum().backward()
    (tlu * torch.tensor(w)).sum().backward()
    same(a.grad, ta.grad)
    for got, want in zip(gt.lu_unpack(lu, piv), torch.lu_unpack(tlu, tpiv), strict=True):
        same(got, want)
    for got, want in zip(gt.linalg.lu(a), torch.linalg.lu(ta), strict=True):
        same(got, want)


def test_lu_solve_and_singular_matrices(device):
    a = gt.tensor(A, device=device)
    lu, piv = a.lu()
    tlu, tpiv = torch.lu(torch.tensor(A))
    same(gt.lu_solve(gt.tensor(B, device=device), lu, piv),
         torch.lu_solve(torch.tensor(B), tlu, tpiv))
    same(gt.tensor(B, device=device).lu_solve(lu, piv), torch.linalg.solve(torch.tensor(A),
                                                                            torch.tensor(B)))
    sing = np.array([[1.0, 2, 3], [2, 4, 6], [1, 1, 1]])
    with pytest.raises(gt.linalg.LinAlgError, match=r"\[lu_factor\] U\[3,3\] is zero"):
        gt.linalg.lu_factor(gt.tensor(sing, device=device))
    _, _, info = gt.lu(gt.tensor(sing, device=device), get_infos=True)
    assert info.item() == torch.lu(torch.tensor(sing), get_infos=True)[2].item()
    for got, want in zip(gt.linalg.lu(gt.tensor(sing, device=device)),
                         torch.linalg.lu(torch.tensor(sing)), strict=True):
        same(got, want)
    with pytest.raises(gt.ShapeError, match=r"\[lu_solve\]"):
        gt.lu_solve(gt.ones(2, 1, device=device, dtype=gt.float64), lu, piv)
