"""matmul / mm / bmm / @ / einsum against NumPy on cpu and cuda; VJPs by gradcheck."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck

SHAPES = [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)),
          ((2, 1, 2, 3), (4, 3, 2)), ((1, 2, 3), (2, 3, 2))]


@pytest.mark.parametrize(("sa", "sb"), SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_matmul_matches_numpy(device, rng, sa, sb, dtype):
    a = rng.integers(-3, 4, sa).astype(dtype)
    b = rng.integers(-3, 4, sb).astype(dtype)
    got = gt.tensor(a, device=device) @ gt.tensor(b, device=device)
    want = a @ b
    assert got.shape == want.shape
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-6)


def test_matmul_strided_inputs_and_out(device, rng):
    a = rng.standard_normal((3, 4))
    b = rng.standard_normal((5, 4))
    ta, tb = gt.tensor(a, device=device), gt.tensor(b, device=device)
    out = gt.empty(3, 5, dtype=gt.float64, device=device)
    gt.matmul(ta, tb.t(), out=out)
    np.testing.assert_allclose(out.cpu().numpy(), a @ b.T)
    np.testing.assert_allclose(gt.mm(ta.t(), ta).cpu().numpy(), a.T @ a)
    bat = rng.standard_normal((2, 3, 4))
    np.testing.assert_allclose(gt.bmm(gt.tensor(bat, device=device),
                                      gt.tensor(bat, device=device).mT).cpu().numpy(),
                               bat @ bat.transpose(0, 2, 1))


@pytest.mark.parametrize(("sa", "sb"), [((2, 3), (3, 2)), ((3,), (3, 2)), ((2, 2, 3), (3, 1))])
def test_matmul_gradients(device, rng, sa, sb):
    a = gt.tensor(rng.standard_normal(sa), device=device, requires_grad=True)
    b = gt.tensor(rng.standard_normal(sb), device=device, requires_grad=True)
    assert gradcheck(lambda x, y: x @ y, (a, b))


def test_gradients_of_transposed_operands_keep_their_layout(device, rng):
    """A column-major operand (a weight used as W.T) gets its gradient in its own layout:
    back through .T, the leaf's gradient is contiguous, and the values are the product's."""
    a = gt.tensor(rng.standard_normal((3, 4)), device=device, requires_grad=True)
    b = gt.tensor(rng.standard_normal((5, 3)), device=device, requires_grad=True)
    x = gt.tensor(rng.standard_normal((2, 4, 3)), device=device)
    g = rng.standard_normal((4, 5))
    (a.T @ b.T).backward(gt.tensor(g, device=device))
    (x @ b.T).backward(gt.ones(2, 4, 5, dtype=gt.float64, device=device))
    an, bn, xn = (t.detach().cpu().numpy() for t in (a, b, x))
    np.testing.assert_allclose(a.grad.cpu().numpy(), (g @ bn).T)
    np.testing.assert_allclose(b.grad.cpu().numpy(),
                               (an @ g).T + np.ones((5, 8)) @ xn.reshape(8, 3))
    assert a.grad.is_contiguous() and b.grad.is_contiguous()


def test_matmul_errors(device):
    with pytest.raises(gt.errors.ShapeError, match=r"\[matmul\] shapes \(2, 3\) and \(4, 5\) "
                       "cannot be multiplied"):
        gt.ones(2, 3, device=device) @ gt.ones(4, 5, device=device)
    with pytest.raises(gt.errors.DTypeError, match=r"\[matmul\]"):
        gt.ones(2, 2, device=device) @ gt.ones(2, 2, dtype=gt.float64, device=device)
    with pytest.raises(gt.errors.ShapeError, match=r"\[mm\]"):
        gt.mm(gt.ones(2, device=device), gt.ones(2, 2, device=device))
    with pytest.raises(gt.errors.ShapeError, match=r"\[bmm\]"):
        gt.bmm(gt.ones(2, 2, 2, device=device), gt.ones(3, 2, 2, device=device))


@pytest.mark.parametrize(("eq", "shapes"), [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij,j->i", [(2, 3), (3,)]), ("i,i->", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]),
    ("ij->ji", [(2, 3)]), ("ijk->j", [(2, 3, 2)]), ("bik,kj", [(2, 2, 3), (3, 2)]),
])
def test_einsum_matches_numpy(device, rng, eq, shapes):
    arrays = [rng.standard_normal(s) for s in shapes]
    got = gt.einsum(eq, *[gt.tensor(a, device=device) for a in arrays])
    np.testing.assert_allclose(got.cpu().numpy(), np.einsum(eq, *arrays), rtol=1e-10)
