"""einsum: repeated labels, ellipsis, implicit output and 3+ operands, against NumPy; gradients."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck

CASES = [
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("iji->j", [(2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 2)]),
    ("...ij,...jk", [(2, 2, 3), (3, 2)]),
    ("i...->...", [(2, 3, 2)]),
    ("a...,...b->ab...", [(2, 3), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("bij,bjk,bkl", [(2, 2, 3), (2, 3, 2), (2, 2, 2)]),
    ("ba,ab", [(3, 2), (2, 3)]),
    ("ijk,ikj->", [(2, 3, 3), (2, 3, 3)]),
    ("i,->i", [(3,), ()]),
]


@pytest.mark.parametrize(("eq", "shapes"), CASES)
def test_einsum_forms_match_numpy(device, rng, eq, shapes):
    arrays = [rng.standard_normal(s) for s in shapes]
    got = gt.einsum(eq, *[gt.tensor(a, device=device) for a in arrays])
    want = np.einsum(eq, *arrays)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("eq", "shapes"), [
    ("ii->i", [(3, 3)]), ("ii", [(2, 2)]), ("iij->j", [(2, 2, 3)]),
    ("...ij,...jk->...ik", [(2, 1, 1, 2), (2, 2, 1)]), ("ij,jk,kl->il", [(2, 2), (2, 1), (1, 2)]),
])
def test_einsum_gradients(device, rng, eq, shapes):
    ts = tuple(gt.tensor(rng.standard_normal(s), device=device, requires_grad=True)
               for s in shapes)
    assert gradcheck(lambda *a: gt.einsum(eq, *a), ts)


def test_einsum_trace_gradient_is_identity(device, rng):
    x = gt.tensor(rng.standard_normal((3, 3)), device=device, requires_grad=True)
    gt.einsum("ii", x).backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), np.eye(3))


@pytest.mark.parametrize(("eq", "shapes", "exc", "text"), [
    ("ii", [(2, 3)], gt.ShapeError, "label 'i' is repeated with sizes 2 and 3"),
    ("ij,jk", [(2, 3), (4, 2)], gt.ShapeError, "label 'j' has sizes 3 and 4"),
    ("ij", [(2, 3, 4)], gt.ShapeError, "has 3 dims but 'ij' names 2"),
    ("i->j", [(2,)], ValueError, "output label 'j' does not appear"),
    ("i1", [(2, 2)], ValueError, "labels must be letters"),
    ("i,i", [(2,)], ValueError, "names 2 operands but 1 were given"),
])
def test_einsum_errors(device, eq, shapes, exc, text):
    with pytest.raises(exc, match=r"^\[einsum\] .*" + text.replace("(", r"\(")):
        gt.einsum(eq, *[gt.ones(*s, device=device) for s in shapes])


def test_einsum_sublist_form(device, rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 2))
    ta, tb = gt.tensor(a, device=device), gt.tensor(b, device=device)
    np.testing.assert_allclose(gt.einsum(ta, [0, 1], tb, [1, 2], [0, 2]).cpu().numpy(), a @ b)
    np.testing.assert_allclose(gt.einsum(ta, [Ellipsis, 0], [0]).cpu().numpy(), a.sum(0))
    with pytest.raises(ValueError, match=r"^\[einsum\] sublist labels must be ints in \[0, 52\)"):
        gt.einsum(ta, [0, 52])
