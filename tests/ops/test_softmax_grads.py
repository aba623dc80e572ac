"""softmax / log_softmax: values, fused backward and second derivatives against PyTorch."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_values_and_grads_match_torch(device, dtype, op):
    rng = np.random.default_rng(0)
    xv = rng.normal(0.0, 3.0, (3, 9))
    xv[1, 2] = -np.inf  # a masked entry: probability 0, gradient 0
    gv = rng.normal(size=xv.shape)
    vv = rng.normal(size=xv.shape)
    tol = {"float32": (2e-6, 1e-6), "float64": (1e-12, 1e-13)}[dtype]
    for dim in (1, 0):  # the last axis (row kernels) and an inner axis (strided lines)
        x = gt.tensor(xv.astype(dtype), device=device, requires_grad=True)
        g = gt.tensor(gv.astype(dtype), device=device)
        tx = torch.tensor(xv, requires_grad=True)
        y = getattr(x, op)(dim)
        ty = getattr(tx, op)(dim)
        got = y.detach().cpu().numpy()
        ref = ty.detach().numpy()
        assert np.array_equal(np.isneginf(got), np.isneginf(ref))
        fin = np.isfinite(ref)
        np.testing.assert_allclose(got[fin], ref[fin], *tol)
        y.backward(g)  # the fused kernel (no create_graph)
        (tgrad,) = torch.autograd.grad(ty, tx, torch.tensor(gv))
        np.testing.assert_allclose(x.grad.cpu().numpy(), tgrad.numpy(), *tol)

        # second derivatives: d/dx <grad(y, x, g), v> and d/dg of it
        x2 = gt.tensor(xv.astype(dtype), device=device, requires_grad=True)
        g2 = gt.tensor(gv.astype(dtype), device=device, requires_grad=True)
        (gx,) = gt.autograd.grad(getattr(x2, op)(dim), x2, g2, create_graph=True)
        (gx * gt.tensor(vv.astype(dtype), device=device)).sum().backward()
        tg2 = torch.tensor(gv, requires_grad=True)
        (tgx,) = torch.autograd.grad(getattr(tx, op)(dim), tx, tg2, create_graph=True)
        tx.grad = None
        (tgx * torch.tensor(vv)).sum().backward()
        np.testing.assert_allclose(x2.grad.cpu().numpy(), tx.grad.numpy(), *tol)
        np.testing.assert_allclose(g2.grad.cpu().numpy(), tg2.grad.numpy(), *tol)


def test_softmax_rows_of_nan_inf_and_long_rows():
    x = gt.tensor([[0.0, float("nan"), 1.0], [0.0, float("inf"), 1.0],
                   [-float("inf")] * 3, [1.0, 2.0, 3.0]])
    for op in ("softmax", "log_softmax"):
        out = getattr(x, op)(1).numpy()
        assert np.isnan(out[:3]).all() and np.isfinite(out[3]).all()
        columns = getattr(gt.tensor(x.numpy().T.copy()), op)(0).numpy()  # the inner-axis kernel
        np.testing.assert_array_equal(columns, out.T)
    rng = np.random.default_rng(1)
    xv = rng.normal(0.0, 20.0, (4, 2051)).astype(np.float32)  # past the 8-wide max unrolling
    got = gt.tensor(xv).softmax(1).numpy()
    ref = torch.tensor(xv, dtype=torch.float64).softmax(1).numpy()
    np.testing.assert_allclose(got, ref, rtol=4e-6, atol=1e-30)
    got = gt.tensor(xv).log_softmax(1).numpy()
    ref = torch.tensor(xv, dtype=torch.float64).log_softmax(1).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=2e-6)
    got = gt.tensor(xv.reshape(4, 7, 293)).log_softmax(1).numpy()  # column blocks of 64 and 37
    ref = torch.tensor(xv.reshape(4, 7, 293), dtype=torch.float64).log_softmax(1).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=2e-6)
