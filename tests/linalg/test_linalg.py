"""gt.linalg against torch.linalg: batched values and gradients, errors; a subset on cuda.

Each case is written once as ``fn(la, *inputs)`` over a namespace ``la``
(``gt.linalg`` or ``torch.linalg``), returning its outputs; eigen- and
singular vectors enter squared, since their signs are not unique.
"""

import math
from types import SimpleNamespace

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")

TORCH = SimpleNamespace(**{n: getattr(torch.linalg, n) for n in dir(torch.linalg)
                           if not n.startswith("_")})
TORCH.outer, TORCH.tensordot = torch.outer, torch.tensordot


def _inputs(kind: str, rng: np.random.Generator) -> np.ndarray:
    shapes = {"sq": (2, 3, 3), "tall": (2, 4, 3), "wide": (2, 3, 4), "rhs": (2, 3, 2),
              "v3": (2, 1, 3), "w3": (1, 4, 3), "vec": (3,), "vec4": (4,), "rows": (2, 4)}
    if kind in ("spd", "sym"):
        a = rng.standard_normal((2, 3, 3))
        return a @ a.transpose(0, 2, 1) + 3 * np.eye(3) if kind == "spd" else a + a.transpose(
            0, 2, 1)
    return rng.standard_normal(shapes[kind])


def _squared(*ts):
    return tuple(t * t for t in ts)


CASES = {
    "inv": (lambda la, a: la.inv(a), ["sq"]),
    "solve": (lambda la, a, b: la.solve(a, b), ["sq", "rhs"]),
    "solve_vector": (lambda la, a, b: la.solve(a, b), ["sq", "vec"]),
    "solve_right": (lambda la, a, b: la.solve(a, b.mT, left=False), ["sq", "rhs"]),
    "solve_triangular": (lambda la, a, b: la.solve_triangular(a, b, upper=True), ["sq", "rhs"]),
    "solve_triangular_unit_right": (lambda la, a, b: la.solve_triangular(
        a, b.mT, upper=False, left=False, unitriangular=True), ["sq", "rhs"]),
    "cholesky": (lambda la, a: la.cholesky(a), ["spd"]),
    "cholesky_upper": (lambda la, a: la.cholesky(a, upper=True), ["spd"]),
    "det": (lambda la, a: la.det(a), ["sq"]),
    "slogdet": (lambda la, a: la.slogdet(a), ["sq"]),
    "eigh": (lambda la, a: (lambda r: _squared(*r))(la.eigh(a, UPLO="U")), ["sym"]),
    "eigvalsh": (lambda la, a: la.eigvalsh(a), ["sym"]),
    "svd_tall": (lambda la, a: _squared(*la.svd(a, full_matrices=False)), ["tall"]),
    "svd_wide": (lambda la, a: _squared(*la.svd(a, full_matrices=False)), ["wide"]),
    "svd_full": (lambda la, a: (lambda u, s, vh: (u.narrow(-1, 0, 3) ** 2, s, vh ** 2))(
        *la.svd(a)), ["tall"]),
    "svdvals": (lambda la, a: la.svdvals(a), ["wide"]),
    "qr_tall": (lambda la, a: la.qr(a), ["tall"]),
    "qr_wide_complete": (lambda la, a: la.qr(a, mode="complete"), ["wide"]),
    "pinv": (lambda la, a: la.pinv(a), ["tall"]),
    "pinv_hermitian": (lambda la, a: la.pinv(a, hermitian=True), ["sym"]),
    "lstsq_gelsd": (lambda la, a, b: la.lstsq(a, b, driver="gelsd"), ["tall", "tall"]),
    "lstsq_vector": (lambda la, a, b: la.lstsq(a, b), ["tall", "rows"]),
    "lstsq_gels_wide": (lambda la, a, b: la.lstsq(a, b, driver="gels"), ["wide", "rhs"]),
    "matrix_rank": (lambda la, a: la.matrix_rank(a @ a.mT), ["tall"]),
    "matrix_power": (lambda la, a: (la.matrix_power(a, 3), la.matrix_power(a, -2)), ["sq"]),
    "vector_norm": (lambda la, a: (la.vector_norm(a, 3.5, dim=(0, 2)),
                                   la.vector_norm(a, math.inf)), ["tall"]),
    "matrix_norm": (lambda la, a: tuple(la.matrix_norm(a, o) for o in ("fro", "nuc", 2, -1)),
                    ["wide"]),
    "matrix_norm_dims": (lambda la, a: la.matrix_norm(a, -math.inf, dim=(2, 0), keepdim=True),
                         ["tall"]),
    "norm": (lambda la, a: (la.norm(a), la.norm(a[0], 2), la.norm(a, 1, 1)), ["tall"]),
    "cross": (lambda la, a, b: la.cross(a, b), ["v3", "w3"]),
    "outer": (lambda la, a, b: la.outer(a, b), ["vec", "vec4"]),
    "tensordot": (lambda la, a, b: la.tensordot(a, b, ([0, 1], [0, 1])), ["tall", "tall"]),
    "vecdot": (lambda la, a, b: la.vecdot(a, b, dim=1), ["tall", "tall"]),
    "multi_dot": (lambda la, a, b, c, d: la.multi_dot([a, b[0], c[0], d]),
                  ["vec4", "tall", "wide", "vec4"]),
    "diagonal": (lambda la, a: la.diagonal(a, offset=1), ["wide"]),
}
ON_CUDA = ("solve", "cholesky", "eigh", "det")
PARAMS = [pytest.param(name, dev, id=f"{name}-{dev}") for name in CASES
          for dev in (("cpu", "cuda") if name in ON_CUDA else ("cpu",))]


def _run(name, la, tensors):
    out = CASES[name][0](la, *tensors)
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize(("name", "device"), PARAMS)
def test_values_and_gradients_match_torch(name, device):
    rng = np.random.default_rng(7)
    arrays = [_inputs(k, rng) for k in CASES[name][1]]
    xs = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    got, want = _run(name, gt.linalg, xs), _run(name, TORCH, ts)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.device.type == device
        assert tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(g.detach().cpu().numpy(), w.detach().numpy(), rtol=1e-9,
                                   atol=1e-10)
    pairs = [(g, w) for g, w in zip(got, want, strict=True) if w.requires_grad]
    if not pairs:
        return
    weights = [rng.standard_normal(tuple(w.shape)) for _, w in pairs]
    sum((g * gt.tensor(c, device=device)).sum() for (g, _), c in zip(pairs, weights,
                                                                      strict=True)).backward()
    sum((w * torch.tensor(c)).sum() for (_, w), c in zip(pairs, weights, strict=True)).backward()
    for x, t in zip(xs, ts, strict=True):
        np.testing.assert_allclose(x.grad.cpu().numpy(), t.grad.numpy(), rtol=1e-8, atol=1e-9)


def test_float32_keeps_its_dtype_and_matches_torch():
    a = np.random.default_rng(0).standard_normal((3, 4, 4)).astype(np.float32)
    for name in ("inv", "det", "svdvals", "cholesky"):
        arr = a @ a.transpose(0, 2, 1) + 4 * np.eye(4, dtype=np.float32) if name == "cholesky" \
            else a
        got = getattr(gt.linalg, name)(gt.tensor(arr))
        assert got.dtype is gt.float32
        want = getattr(torch.linalg, name)(torch.tensor(arr)).numpy()
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-4, atol=1e-5)


@pytest.mark.parametrize("fn", [
    lambda a: gt.linalg.cholesky(a @ a.mT + gt.eye(3, dtype=gt.float64)),
    lambda a: gt.linalg.qr(a.narrow(0, 0, 2)),
    lambda a: gt.linalg.svd(a.narrow(1, 0, 2), full_matrices=False).S,
    lambda a: gt.linalg.eigh(a + a.mT).eigenvalues,
], ids=["cholesky", "qr_wide", "svd_values", "eigh_values"])
def test_gradcheck(fn):
    a = gt.tensor(np.random.default_rng(3).standard_normal((3, 3)), requires_grad=True)
    assert gradcheck(fn, (a,))


@pytest.mark.parametrize("fn", [
    lambda a, b: gt.linalg.solve(a, b),
    lambda a, b: gt.linalg.inv(a),
    lambda a, b: gt.linalg.cholesky(a @ a.mT),
    lambda a, b: gt.linalg.det(a),
    lambda a, b: gt.linalg.eigh(a + a.mT),
], ids=["solve", "inv", "cholesky", "det", "eigh"])
def test_second_derivatives(fn):
    rng = np.random.default_rng(4)
    a = gt.tensor(rng.standard_normal((2, 2)) + 2 * np.eye(2), requires_grad=True)
    b = gt.tensor(rng.standard_normal((2, 1)), requires_grad=True)
    assert gradgradcheck(fn, (a, b))


def test_det_gradient_of_a_singular_matrix_is_the_cofactor_matrix():
    a = np.random.default_rng(5).standard_normal((4, 4))
    a[:, 0] = a[:, 1]
    x = gt.tensor(a, requires_grad=True)
    gt.linalg.det(x).backward()
    minor = lambda i, j: np.delete(np.delete(a, i, 0), j, 1)  # noqa: E731
    cof = [[(-1) ** (i + j) * np.linalg.det(minor(i, j)) for j in range(4)] for i in range(4)]
    np.testing.assert_allclose(x.grad.numpy(), cof, atol=1e-12)
    assert np.abs(cof).max() > 0.1
    y = gt.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    gt.linalg.slogdet(y).logabsdet.backward()  # LU fails; the SVD's inverse blows up instead
    g = y.grad.numpy()
    assert not np.isfinite(g).all() or np.abs(g).min() > 1e6


def test_array_api_names_and_top_level_outer():
    x = np.random.default_rng(6).standard_normal((2, 3, 3))
    t = gt.tensor(x)
    np.testing.assert_allclose(gt.linalg.trace(t, offset=1).numpy(),
                               np.trace(x, 1, axis1=-2, axis2=-1))
    assert gt.linalg.matrix_transpose(t).tolist() == x.transpose(0, 2, 1).tolist()
    np.testing.assert_allclose(gt.linalg.vector_norm(t, axis=(1, 2), keepdims=True).numpy(),
                               np.sqrt((x * x).sum((1, 2), keepdims=True)))
    np.testing.assert_allclose(gt.linalg.cross(t, t.flip(2), axis=-1).numpy(),
                               np.cross(x, x[..., ::-1]))
    np.testing.assert_allclose(gt.linalg.tensordot(t, t.permute(2, 1, 0), axes=1).numpy(),
                               np.tensordot(x, x.transpose(2, 1, 0), axes=1))
    assert gt.outer(gt.tensor([1, 2]), gt.tensor([3, 4])).tolist() == [[3, 4], [6, 8]]
    assert gt.linalg.inv(gt.zeros(0, 3, 3)).shape == (0, 3, 3)


def test_cholesky_names_the_batch_element_and_the_minor(device):
    a = np.stack([np.eye(3), [[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]])
    msg = (r"\[linalg.cholesky\] \(batch element 1\) the input is not positive-definite "
           r"\(the leading minor of order 2 is not positive\)")
    with pytest.raises(gt.linalg.LinAlgError, match=msg):
        gt.linalg.cholesky(gt.tensor(a, device=device))
    with pytest.raises(torch.linalg.LinAlgError, match="order 2"):
        torch.linalg.cholesky(torch.tensor(a))


def test_errors_name_the_op():
    singular = gt.tensor([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(gt.linalg.LinAlgError, match=r"^\[linalg.inv\] the diagonal element 2 is "
                       "zero, the inversion could not be completed because the input matrix is "
                       "singular$"):
        gt.linalg.inv(singular)
    assert issubclass(gt.linalg.LinAlgError, RuntimeError)
    with pytest.raises(gt.linalg.LinAlgError, match=r"\[linalg.solve\] the diagonal element 2"):
        gt.linalg.solve(singular, gt.ones(2))
    with pytest.raises(gt.ShapeError, match=r"\[linalg.solve\] shapes \(2, 2\) and \(3,\) are "
                       "incompatible for the equation AX = B"):
        gt.linalg.solve(singular, gt.ones(3))
    with pytest.raises(gt.ShapeError, match=r"\[linalg.det\] A must be batches of square "
                       "matrices, but they are 2 by 3 matrices"):
        gt.linalg.det(gt.ones(2, 3))
    with pytest.raises(gt.DTypeError, match=r"\[linalg.inv\] expected a float32, float64, "
                       "complex64 or complex128 tensor, got int64"):
        gt.linalg.inv(gt.tensor([[1, 0], [0, 1]]))
    with pytest.raises(ValueError, match=r"\[linalg.matrix_norm\] order 3 not supported"):
        gt.linalg.matrix_norm(singular, 3)
    with pytest.raises(gt.ShapeError, match=r"\[linalg.norm\] .* must be 1-D or 2-D"):
        gt.linalg.norm(gt.ones(2, 2, 2), 2)
    with pytest.raises(gt.ShapeError, match=r"\[linalg.cross\] inputs dimension 1 must have "
                       "length 3"):
        gt.linalg.cross(gt.ones(2, 2), gt.ones(2, 2))
    q, r = gt.linalg.qr(gt.ones(2, 2, requires_grad=True), mode="r")
    with pytest.raises(RuntimeError, match=r"\[linalg.qr\] the derivative of linalg.qr depends "
                       "on Q"):
        r.sum().backward()


def test_matrix_norms_of_empty_matrices(device):
    a = gt.zeros(2, 0, 3, device=device)
    for ord in ("fro", "nuc", 1, 2, math.inf):
        assert gt.linalg.matrix_norm(a, ord).tolist() == [0.0, 0.0]
    assert gt.linalg.matrix_norm(a, 2, keepdim=True).shape == (2, 1, 1)
    for ord in (-1, -2, -math.inf):
        with pytest.raises(IndexError, match=r"^\[linalg.matrix_norm\]"):
            gt.linalg.matrix_norm(a, ord)


def test_vander_matches_torch_with_gradients(device):
    x = np.array([[0.0, 2.0, -1.0], [1.5, 0.5, 3.0]])
    g = gt.tensor(x, device=device, requires_grad=True)
    t = torch.tensor(x, requires_grad=True)
    got, want = gt.linalg.vander(g, N=4), torch.linalg.vander(t, N=4)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy())
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(g.grad.cpu().numpy(), t.grad.numpy())
    assert gt.linalg.vander(gt.tensor([1, 2], dtype=gt.int32, device=device)).dtype is gt.int64
    with pytest.raises(ValueError, match=r"^\[linalg.vander\] N must be greater than 1"):
        gt.linalg.vander(gt.ones(1, device=device))


@pytest.mark.parametrize("p", [None, -2, "fro", "nuc", 1, -math.inf])
def test_cond_matches_torch_with_gradients(device, p):
    a = np.random.default_rng(0).standard_normal((2, 3, 3))
    g = gt.tensor(a, device=device, requires_grad=True)
    t = torch.tensor(a, requires_grad=True)
    got, want = gt.linalg.cond(g, p), torch.linalg.cond(t, p)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=1e-9)
    if p not in (None, -2, "nuc"):  # torch's cond cannot differentiate these orders
        want = torch.linalg.matrix_norm(t, p) * torch.linalg.matrix_norm(torch.linalg.inv(t), p)
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(g.grad.cpu().numpy(), t.grad.numpy(), rtol=1e-7, atol=1e-9)


def test_cond_of_a_singular_matrix_is_inf(device):
    a = gt.tensor([[[1.0, 0.0], [0.0, 2.0]], [[1.0, 2.0], [2.0, 4.0]]], device=device)
    assert gt.linalg.cond(a, 1).tolist() == [2.0, math.inf]
    with pytest.raises(ValueError, match=r"^\[linalg.cond\] order 3 not supported"):
        gt.linalg.cond(a, 3)


@pytest.mark.parametrize(("left", "adjoint"), [(True, True), (False, False)])
def test_linalg_lu_solve_matches_torch_with_gradients(device, left, adjoint):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3, 2))
    b = b if left else b.swapaxes(-1, -2)
    ga, gb = (gt.tensor(v, device=device, requires_grad=True) for v in (a, b))
    ta, tb = (torch.tensor(v, requires_grad=True) for v in (a, b))
    got = gt.linalg.lu_solve(*gt.linalg.lu_factor(ga), gb, left=left, adjoint=adjoint)
    want = torch.linalg.lu_solve(*torch.linalg.lu_factor(ta), tb, left=left, adjoint=adjoint)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=1e-9)
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(ga.grad.cpu().numpy(), ta.grad.numpy(), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gb.grad.cpu().numpy(), tb.grad.numpy(), rtol=1e-7, atol=1e-9)


def test_ex_forms_report_singular_matrices_in_info(device):
    a = gt.tensor([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]], device=device)
    inverse, info = gt.linalg.inv_ex(a)
    assert info.dtype is gt.int32 and info.tolist() == [0, 2]
    assert inverse[0].tolist() == [[0.5, 0.0], [0.0, 0.25]]
    assert gt.linalg.lu_factor_ex(a).info.tolist() == [0, 2]
    result, info = gt.linalg.solve_ex(a, gt.ones(2, 2, device=device))
    assert info.tolist() == [0, 2] and result[0].tolist() == [0.5, 0.25]
    spd = gt.tensor([[[4.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 1.0]]], device=device)
    factor, info = gt.linalg.cholesky_ex(spd)
    assert info.tolist() == [0, 2] and factor[0].tolist() == [[2.0, 0.0], [0.0, 2.0]]
    with pytest.raises(gt.linalg.LinAlgError, match=r"^\[linalg.inv\]"):
        gt.linalg.inv_ex(a, check_errors=True)


def test_tensorinv_and_tensorsolve_match_torch_with_gradients(device):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((6, 2, 3)), rng.standard_normal((2, 3))
    ga, gb = (gt.tensor(v, device=device, requires_grad=True) for v in (a, b))
    ta, tb = (torch.tensor(v, requires_grad=True) for v in (a, b))
    got = gt.linalg.tensorsolve(ga, gb, dims=(0,)) + gt.linalg.tensorinv(ga, ind=1).sum((0, 1))
    want = (torch.linalg.tensorsolve(ta, tb, dims=(0,))
            + torch.linalg.tensorinv(ta, ind=1).sum((0, 1)))
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=1e-9)
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(ga.grad.cpu().numpy(), ta.grad.numpy(), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gb.grad.cpu().numpy(), tb.grad.numpy(), rtol=1e-7, atol=1e-9)
    with pytest.raises(gt.ShapeError, match=r"^\[linalg.tensorinv\]"):
        gt.linalg.tensorinv(ga, ind=2)


def test_householder_product_matches_torch_with_gradients(device):
    rng = np.random.default_rng(3)
    a, tau = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 2))
    ga, gtau = (gt.tensor(v, device=device, requires_grad=True) for v in (a, tau))
    ta, ttau = (torch.tensor(v, requires_grad=True) for v in (a, tau))
    got, want = gt.linalg.householder_product(ga, gtau), torch.linalg.householder_product(ta, ttau)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=1e-10)
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(ga.grad.cpu().numpy(), ta.grad.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gtau.grad.cpu().numpy(), ttau.grad.numpy(), rtol=1e-9, atol=1e-12)
