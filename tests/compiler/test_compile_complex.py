"""gt.compile on complex64/complex128: elementwise chains fused, fft, linalg and matmul library
calls in the trace, gradients through the compiled backward equal to ``torch.autograd``'s."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

TOL = {"complex64": 1e-4, "complex128": 1e-10}
RNG = np.random.default_rng(11)
A = RNG.uniform(-1, 1, (2, 3)) + 1j * RNG.uniform(-1, 1, (2, 3))
B = RNG.uniform(-1, 1, (3,)) + 1j * RNG.uniform(-1, 1, (3,))
R = RNG.uniform(-1, 1, (3,))
M = RNG.uniform(-1, 1, (3, 3)) + 1j * RNG.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
# cpu kernels compile per dtype (seconds each): complex64 on the cpu, complex128 on the simulated
# device (which compiles nothing); the sm_90 replay compiles the cuda kernels of both
PAIRS = [("cpu", "complex64"), ("cuda", "complex128")]


def _chain(a, b):  # noqa: ANN001, ANN202 - gtensor or torch tensors
    return (a * b + 1j).exp() * a.conj() / (b.abs() + 1) + a.sgn() - a.angle() * 1j


def _chain_and_casts(a, b):  # noqa: ANN001, ANN202 - one kernel: every output has one shape
    c = _chain(a, b) * 3
    return (c * complex("nan+1j") ** (b.real > 0), (c * (b.real > 0)).to(gt.bool),
            c.to(gt.int32), c.imag > 0, c.to(gt.float64))


def _program(f):  # noqa: ANN001, ANN202
    (program,) = f._programs.values()
    assert hasattr(program, "kernels"), "ran eagerly"
    return program


@pytest.mark.filterwarnings("ignore:.*discards the imaginary part")
@pytest.mark.parametrize(("device", "dtype"), PAIRS)
def test_complex_chain_is_one_kernel_equal_to_eager(device: str, dtype: str):
    a, b = (gt.tensor(v, dtype=dtype, device=device) for v in (A, B))
    f = gt.compile(_chain_and_casts, fullgraph=True)
    for _ in range(2):
        for got, expected in zip(f(a, b), _chain_and_casts(a, b), strict=True):
            assert got.dtype is expected.dtype
            np.testing.assert_allclose(got.cpu().numpy(), expected.cpu().numpy(),
                                       rtol=TOL[dtype], atol=TOL[dtype])
    assert len(_program(f).kernels) == 1


def _loss(ns, a, b, r):  # noqa: ANN001, ANN202 - a real loss through fused ops, parts, sums,
    z = _chain(a, b) * r  # a matmul and an fft (library calls between fused loops)
    spectrum = ns.fft.fft(z @ b.conj()[:, None] * 0.5, dim=0)
    return ((z * z.conj()).real.sum() + (z.imag * r).mean(0).sum() + spectrum.abs().sum()
            + ns.fft.irfft(spectrum[:, 0] * 2, n=3).sum())


@pytest.mark.parametrize(("device", "dtype"), PAIRS)
def test_complex_gradients_through_the_compiled_backward(device: str, dtype: str):
    real = "float32" if dtype == "complex64" else "float64"
    values = ((A, dtype), (B, dtype), (R, real))
    xs = [gt.tensor(v, dtype=dt, device=device, requires_grad=True) for v, dt in values]
    ts = [torch.tensor(v, dtype=getattr(torch, dt), requires_grad=True) for v, dt in values]
    want = _loss(torch, *ts)
    want.backward()
    f = gt.compile(lambda a, b, r: _loss(gt, a, b, r), fullgraph=True)
    for _ in range(2):  # traced, then replayed
        for x in xs:
            x.grad = None
        got = f(*xs)
        got.backward()
        np.testing.assert_allclose(got.item(), want.item(), rtol=TOL[dtype])
        for x, t in zip(xs, ts, strict=True):
            assert x.grad.dtype is x.dtype
            np.testing.assert_allclose(x.grad.cpu().numpy(), t.grad.numpy(), rtol=TOL[dtype],
                                       atol=TOL[dtype])
    assert _program(f).backward is not None


def _solves(ns, m, b):  # noqa: ANN001, ANN202 - linalg calls whose backward is traced too
    x = ns.linalg.solve(m, b[:, None] * 2)
    return ((x * x.conj()).real.sum() + ns.linalg.inv(m).abs().sum() + ns.linalg.det(m).abs()
            + ns.linalg.slogdet(m)[1])


def _factors(m, b):  # noqa: ANN001, ANN202
    h = m @ m.mH
    return (gt.linalg.cholesky(h), *gt.linalg.qr(m * 2), gt.linalg.eigvalsh(h),
            *gt.linalg.svd(b[:, None] * m), gt.linalg.solve_triangular(m, b[:, None], upper=True))


@pytest.mark.parametrize(("device", "dtype"), PAIRS)
def test_complex_linalg_calls_in_the_trace(device: str, dtype: str):
    m, b = (gt.tensor(v, dtype=dtype, device=device) for v in (M, B))
    f = gt.compile(_factors, fullgraph=True)
    for got, want in zip(f(m, b), _factors(m, b), strict=True):
        assert got.dtype is want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.cpu().numpy(), want.cpu().numpy(), rtol=TOL[dtype],
                                   atol=TOL[dtype])
    xs = [gt.tensor(v, dtype=dtype, device=device, requires_grad=True) for v in (M, B)]
    ts = [torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=True) for v in (M, B)]
    solves = gt.compile(lambda m, b: _solves(gt, m, b), fullgraph=True)
    solves(*xs).backward()
    _solves(torch, *ts).backward()
    for x, t in zip(xs, ts, strict=True):
        np.testing.assert_allclose(x.grad.cpu().numpy(), t.grad.numpy(), rtol=TOL[dtype],
                                   atol=TOL[dtype])
    assert _program(solves).backward is not None


def test_writes_through_complex_views_run_eagerly():
    def write(z):  # noqa: ANN001, ANN202
        z = z * 2
        z.real.mul_(3)
        return z

    def pairs(z):  # noqa: ANN001, ANN202
        return gt.view_as_real(z * 2) + 1

    z = gt.tensor(A, dtype=gt.complex64)
    for fn, why in ((write, "write through the real or imaginary parts"),
                    (pairs, "view of a tensor as another dtype")):
        with pytest.warns(UserWarning, match=why):
            got = gt.compile(fn)(z)
        assert gt.equal(got, fn(z))
