"""Linear-algebra shortcuts (addmm, mv, ger, inner, cross, dist, kron, tensordot,
matrix_power, slogdet, logdet, det) and unique_consecutive against torch."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(5)
M = RNG.standard_normal((3, 3))
V = RNG.standard_normal(3)


def same(got, want, **tol):
    want = want.detach()
    assert got.shape == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), rtol=1e-10, atol=1e-12,
                               **tol)


def grads(fn, tfn, *arrays, device="cpu"):
    xs = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    txs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = fn(*xs), tfn(*txs)
    same(out, tout)
    w = np.random.default_rng(2).standard_normal(tuple(tout.shape))
    (out * gt.tensor(w, device=device)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    for x, tx in zip(xs, txs, strict=True):
        same(x.grad, tx.grad)


def test_representative_subset_on_each_device(device):
    grads(lambda a, b, c: gt.addmm(a, b, c, beta=0.5, alpha=2.0),
          lambda a, b, c: torch.addmm(a, b, c, beta=0.5, alpha=2.0), M, M, M.T.copy(),
          device=device)
    grads(gt.kron, torch.kron, M[:2], V[:2], device=device)
    grads(gt.logdet, torch.logdet, M @ M.T + np.eye(3), device=device)


@pytest.mark.parametrize("name, arrays", [
    ("mv", (M, V)), ("ger", (V, V[:2])), ("outer", (V, V)), ("inner", (M, V)),
    ("inner", (M, M)), ("dist", (M, V)), ("kron", (M[:2], M)), ("cross", (M, M[::-1].copy())),
    ("slogdet", (M,)), ("det", (M,)),
])
def test_functions_and_methods(name, arrays):
    def fn(*xs):
        out = getattr(gt, name)(*xs)
        return out[1] if name == "slogdet" else out

    def tfn(*xs):
        out = getattr(torch, name)(*xs)
        return out[1] if name == "slogdet" else out

    grads(fn, tfn, *arrays)
    method = getattr(gt.tensor(arrays[0]), name)(*(gt.tensor(a) for a in arrays[1:]))
    tmethod = getattr(torch.tensor(arrays[0]), name)(*(torch.tensor(a) for a in arrays[1:]))
    same(method[1] if name == "slogdet" else method, tmethod[1] if name == "slogdet" else tmethod)


def test_more_shapes():
    grads(lambda a: a.matrix_power(3), lambda a: a.matrix_power(3), M)
    grads(lambda a, b: gt.dist(a, b, 1), lambda a, b: torch.dist(a, b, 1), M, V)
    grads(lambda a, b: gt.tensordot(a, b, ([0], [1])),
          lambda a, b: torch.tensordot(a, b, ([0], [1])),
          M, M)
    grads(lambda a, b: gt.cross(a, b, dim=0), lambda a, b: torch.cross(a, b, dim=0), M, M.T.copy())
    grads(gt.kron, torch.kron, RNG.standard_normal((2, 1, 2)), M)
    same(gt.inner(gt.tensor(2.0), gt.tensor(V)), torch.inner(torch.tensor(2.0), torch.tensor(V)))
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    negative = np.array([[0.0, 1.0], [1.0, 0.0]])
    for a in (singular, negative):
        same(gt.logdet(gt.tensor(a)), torch.logdet(torch.tensor(a)))
    x = gt.ones(2, 2)
    assert x.addmm_(gt.eye(2), gt.eye(2)).tolist() == [[2.0, 1.0], [1.0, 2.0]]


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_unique_consecutive(dim, device):
    a = np.array([[1, 1, 2, 2], [1, 1, 2, 3], [1, 1, 2, 3], [0, 0, 0, 0]])
    got = gt.unique_consecutive(gt.tensor(a, device=device), return_inverse=True,
                                return_counts=True, dim=dim)
    want = torch.unique_consecutive(torch.tensor(a), return_inverse=True, return_counts=True,
                                    dim=dim)
    for g, w in zip(got, want, strict=True):
        same(g, w)
    f = np.array([1.0, np.nan, np.nan, 2.0])
    same(gt.tensor(f).unique_consecutive(), torch.tensor(f).unique_consecutive())
    empty = gt.unique_consecutive(gt.tensor([], dtype=gt.int64), return_counts=True)
    assert [t.shape for t in empty] == [(0,), (0,)]


@pytest.mark.parametrize("call, error", [
    (lambda: gt.addmm(gt.ones(2, 2), gt.ones(2, 3), gt.ones(2, 2)), "addmm"),
    (lambda: gt.mv(gt.ones(2, 3), gt.ones(2)), "mv"),
    (lambda: gt.mv(gt.ones(3), gt.ones(3)), "mv"),
    (lambda: gt.inner(gt.ones(2), gt.ones(3)), "inner"),
    (lambda: gt.cross(gt.ones(2, 2), gt.ones(2, 2)), "cross"),
    (lambda: gt.dist(gt.ones(2), gt.ones(3)), "dist"),
    (lambda: gt.kron(gt.ones(2), [1.0]), "kron"),
    (lambda: gt.ger(gt.ones(2, 2), gt.ones(2)), "outer"),
])
def test_bad_input_names_the_op(call, error):
    with pytest.raises((gt.GTensorError, ValueError, TypeError), match=rf"^\[{error}\]"):
        call()
