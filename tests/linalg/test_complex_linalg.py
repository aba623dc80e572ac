"""gt.linalg on complex64/complex128 (and eig/eigvals on real input) against torch.linalg.

Each case is ``fn(la, *inputs)`` over ``gt.linalg`` or ``torch.linalg``. Outputs
that carry a phase (eigen- and singular vectors) enter as ``|v|^2`` or in a
product that cancels it; eig's outputs enter through sums over the eigenpairs,
since LAPACK builds may order them differently. Gradients: of the real loss
``sum(Re(out * c))`` for random complex ``c``, as torch.autograd gives them.
"""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

SHAPES = {"sq": (2, 3, 3), "tall": (2, 4, 3), "wide": (2, 3, 4), "rhs": (2, 3, 2),
          "vec": (3,), "rows": (2, 4)}


def _inputs(kind: str, rng: np.random.Generator, dtype: str) -> np.ndarray:
    shape = SHAPES.get(kind[:-2] if kind.endswith("_r") else kind, (2, 3, 3))
    a = rng.standard_normal(shape)
    if not kind.endswith("_r"):
        a = a + 1j * rng.standard_normal(shape)
    if kind == "hpd":
        a = a @ a.conj().swapaxes(-1, -2) + 3 * np.eye(3)
    elif kind == "herm":
        a = a + a.conj().swapaxes(-1, -2)
    real = {"complex64": np.float32, "complex128": np.float64}[dtype]
    return a.astype(real if kind.endswith("_r") else dtype)


def _abs2(*ts):
    return tuple((t * t.conj()).real for t in ts)


def _pairs(L, V):
    """Phase- and order-free functions of eigenpairs: ``sum L^2`` and ``sum_j |V_ij|^2 L_j``."""
    return (L * L).sum(-1), ((V * V.conj()).real * L.unsqueeze(-2)).sum(-1)


CASES = {
    "inv": (lambda la, a: la.inv(a), ["sq"]),
    "solve": (lambda la, a, b: la.solve(a, b), ["sq", "rhs"]),
    "solve_vector": (lambda la, a, b: la.solve(a, b), ["sq", "vec"]),
    "solve_triangular": (lambda la, a, b: la.solve_triangular(a, b, upper=True), ["sq", "rhs"]),
    "cholesky": (lambda la, a: la.cholesky(a), ["hpd"]),
    "cholesky_upper": (lambda la, a: la.cholesky(a, upper=True), ["hpd"]),
    "det": (lambda la, a: la.det(a), ["sq"]),
    "slogdet": (lambda la, a: la.slogdet(a), ["sq"]),
    "qr_tall": (lambda la, a: la.qr(a), ["tall"]),
    "qr_wide_complete": (lambda la, a: la.qr(a, mode="complete"), ["wide"]),
    "svd_tall": (lambda la, a: (lambda u, s, vh: (*_abs2(u, vh), s))(
        *la.svd(a, full_matrices=False)), ["tall"]),
    "svd_wide": (lambda la, a: (lambda u, s, vh: (*_abs2(u, vh), s))(
        *la.svd(a, full_matrices=False)), ["wide"]),
    "svd_polar": (lambda la, a: (lambda u, s, vh: (u @ vh, s))(*la.svd(a)), ["sq"]),
    "svdvals": (lambda la, a: la.svdvals(a), ["wide"]),
    "eigh": (lambda la, a: (lambda w, q: (w, *_abs2(q)))(*la.eigh(a, UPLO="U")), ["herm"]),
    "eigvalsh": (lambda la, a: la.eigvalsh(a), ["herm"]),
    "eig": (lambda la, a: _pairs(*la.eig(a)), ["sq"]),
    "eig_real": (lambda la, a: _pairs(*la.eig(a)), ["sq_r"]),
    "eigvals": (lambda la, a: (lambda w: ((w * w).sum(-1), (w * w * w).sum(-1)))(
        la.eigvals(a)), ["sq"]),
    "pinv": (lambda la, a: la.pinv(a), ["tall"]),
    "pinv_hermitian": (lambda la, a: la.pinv(a, hermitian=True), ["herm"]),
    "lstsq": (lambda la, a, b: la.lstsq(a, b, driver="gelsd"), ["tall", "tall"]),
    "lstsq_vector": (lambda la, a, b: la.lstsq(a, b).solution, ["tall", "rows"]),
    "matrix_rank": (lambda la, a: la.matrix_rank(a @ a.mH), ["tall"]),
    "matrix_power": (lambda la, a: (la.matrix_power(a, 3), la.matrix_power(a, -2)), ["sq"]),
    "norms": (lambda la, a: (*(la.matrix_norm(a, o) for o in ("fro", "nuc", 2, -1)),
                             la.norm(a[0]), la.vector_norm(a, 3)), ["wide"]),
}
FAST = ("solve", "cholesky", "det", "slogdet", "svd_polar", "eigh", "eig", "qr_tall")
RUNS = {("cpu", "complex128"): tuple(CASES), ("cpu", "complex64"): FAST,
        ("cuda", "complex128"): FAST, ("cuda", "complex64"): ("solve", "eig")}
PARAMS = [pytest.param(name, dev, dt, id=f"{name}-{dev}-{dt}")
          for (dev, dt), names in RUNS.items() for name in names]
TOL = {"complex128": (1e-8, 1e-9), "complex64": (2e-3, 2e-4)}


def _run(name, la, tensors):
    out = CASES[name][0](la, *tensors)
    return list(out) if isinstance(out, tuple) else [out]


def _loss(outs, weights, make):
    total = 0
    for o, c in zip(outs, weights, strict=True):
        total = total + (o * make(c)).real.sum()
    return total


@pytest.mark.parametrize(("name", "device", "dtype"), PARAMS)
def test_values_and_gradients_match_torch(name, device, dtype):
    rng = np.random.default_rng(11)
    arrays = [_inputs(k, rng, dtype) for k in CASES[name][1]]
    xs = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    got, want = _run(name, gt.linalg, xs), _run(name, torch.linalg, ts)
    rtol, atol = TOL[dtype]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.device.type == device
        assert (tuple(g.shape), g.dtype.name) == (tuple(w.shape), str(w.dtype)[6:])
        np.testing.assert_allclose(g.detach().cpu().numpy(), w.detach().numpy(), rtol=rtol,
                                   atol=atol)
    pairs = [(g, w) for g, w in zip(got, want, strict=True) if w.requires_grad]
    if not pairs:
        return
    weights = [rng.standard_normal((*w.shape, 2)) @ np.array([1, 1j]) for _, w in pairs]
    _loss([g for g, _ in pairs], weights, lambda c: gt.tensor(c, device=device)).backward()
    _loss([w for _, w in pairs], weights, torch.tensor).backward()
    for x, t in zip(xs, ts, strict=True):
        assert x.grad.dtype is x.dtype
        np.testing.assert_allclose(x.grad.cpu().numpy(), t.grad.numpy(), rtol=10 * rtol,
                                   atol=10 * atol)


def test_bad_input_and_phase_dependent_losses_name_the_op():
    a = gt.tensor(_inputs("sq", np.random.default_rng(12), "complex128")[0], requires_grad=True)
    with pytest.raises(gt.DTypeError, match=r"^\[linalg.solve\] expected all inputs to have the "
                       "same dtype, got complex64 and float64$"):
        gt.linalg.solve(a.detach().to(gt.complex64), gt.ones(3, dtype=gt.float64))
    with pytest.raises(gt.ShapeError, match=r"^\[linalg.eig\] A must be batches of square "
                       "matrices, but they are 2 by 3 matrices$"):
        gt.linalg.eig(gt.ones(2, 3, dtype=gt.complex64))
    with pytest.raises(gt.linalg.LinAlgError, match=r"^\[linalg.inv\] the diagonal element 2 is "
                       "zero"):
        gt.linalg.inv(gt.tensor([[1, 1j], [1j, -1]]))
    for op, out in [("eigh", lambda: gt.linalg.eigh(a).eigenvectors[1, 1]),
                    ("svd", lambda: gt.linalg.svd(a).U[1, 1]),
                    ("eig", lambda: gt.linalg.eig(a).eigenvectors[1, 1])]:
        with pytest.raises(RuntimeError, match=rf"^\[linalg.{op}\] the .* are specified up to "
                           r"multiplication by e\^\{i phi\}"):
            out().real.backward()
    assert gt.linalg.eig(gt.eye(2, dtype=gt.float32)).eigenvalues.dtype is gt.complex64


@pytest.mark.parametrize("case", ["eig", "eigvals", "eigvalsh", "svdvals", "det"])
def test_second_derivatives_match_torch(case):
    fn = {"eig": CASES["eig"][0], "det": CASES["det"][0],
          "eigvals": lambda la, a: la.eigvals(a) ** 3,
          "eigvalsh": lambda la, a: la.eigvalsh(a + a.mH),
          "svdvals": lambda la, a: la.svdvals(a.narrow(-1, 0, 2))}[case]
    a = _inputs("sq", np.random.default_rng(13), "complex128")
    grads = []
    for lib, x in ((gt, gt.tensor(a, requires_grad=True)),
                   (torch, torch.tensor(a, requires_grad=True))):
        outs = fn(lib.linalg, x)
        loss = sum(((o * o.conj()).real + (o * (1 + 2j)).real).sum()
                   for o in (outs if isinstance(outs, tuple) else (outs,)))
        (g,) = lib.autograd.grad(loss, [x], create_graph=True)
        (gg,) = lib.autograd.grad((g * g.conj()).real.sum(), [x])
        grads.append((g.detach().numpy(), gg.numpy()))
    for got, want in zip(*grads, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-9)
