"""Gradients of random op compositions against PyTorch, and second derivatives."""

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd import gradgradcheck

UNARY = ["tanh", "sigmoid", "exp", "sin", "relu", "abs"]
BINARY = ["add", "sub", "mul", "div", "maximum"]


def _compose(lib, x, w, ops):
    y = x
    for kind, name in ops:
        if kind == "u":
            y = getattr(lib, name)(y)
        elif kind == "b":
            y = getattr(lib, name)(y, w)
        elif kind == "m":
            y = y @ w.T
        else:
            y = lib.softmax(y, dim=-1)
    return (y * y).sum()


@pytest.mark.parametrize("seed", range(12))
def test_random_compositions_match_torch(seed):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    ops = []
    for _ in range(rng.integers(2, 6)):
        kind = rng.choice(["u", "b", "m", "s"])
        ops.append((kind, rng.choice(UNARY) if kind == "u" else rng.choice(BINARY)))
    xv = rng.uniform(0.5, 1.5, (3, 3))
    wv = rng.uniform(0.5, 1.5, (3, 3))
    x = gt.tensor(xv, requires_grad=True)
    w = gt.tensor(wv, requires_grad=True)
    _compose(gt, x, w, ops).backward()
    tx = torch.tensor(xv, requires_grad=True)
    tw = torch.tensor(wv, requires_grad=True)
    _compose(torch, tx, tw, ops).backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("fn", [
    lambda a, b: (a * b).tanh(),
    lambda a, b: a * b,
    lambda a, b: a @ b,
    lambda a, b: gt.softmax(a * b, dim=-1),
    lambda a, b: a.abs() ** b,
    lambda a, b: gt.conv2d(a.reshape(1, 1, 3, 3), b.reshape(1, 1, 3, 3)[..., :2, :2]),
], ids=["tanh", "mul", "matmul", "softmax", "pow", "conv2d"])
def test_second_derivatives(fn):
    gt.manual_seed(3)
    a = (gt.rand(3, 3, dtype=gt.float64) + 0.5).requires_grad_()
    b = (gt.rand(3, 3, dtype=gt.float64) + 0.5).requires_grad_()
    assert gradgradcheck(fn, (a, b))


def test_pow_and_clamp_at_their_edges():
    x = gt.tensor([0.0, 0.0, 2.0], dtype=gt.float64, requires_grad=True)
    e = gt.tensor([0.0, 2.0, 0.0], dtype=gt.float64, requires_grad=True)
    (x ** e).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]  # d/dx x**0 = 0, d/dx x**2 at 0 = 0
    assert e.grad.tolist()[:2] == [0.0, 0.0]  # 0 ** e with e >= 0: no gradient through log(0)
    c = gt.tensor([-1.0, 0.0, 1.0, 2.0], dtype=gt.float64, requires_grad=True)
    c.clamp(0.0, 1.0).sum().backward()
    assert c.grad.tolist() == [0.0, 1.0, 1.0, 0.0]  # bounds are inclusive, as in PyTorch
    c.grad = None
    c.clamp(0.0, 1.0).backward(gt.tensor([float("nan"), 1.0, 1.0, float("inf")], dtype=gt.float64))
    assert c.grad.tolist() == [0.0, 1.0, 1.0, 0.0]  # a nan or inf outside the range stays out
    m = gt.tensor([1.0, 2.0], dtype=gt.float64, requires_grad=True)
    n = gt.tensor([1.0, 1.0], dtype=gt.float64, requires_grad=True)
    gt.maximum(m, n).sum().backward()
    assert m.grad.tolist() == [0.5, 1.0] and n.grad.tolist() == [0.5, 0.0]  # ties split
    r = gt.tensor([[1.0, 3.0, 3.0]], dtype=gt.float64, requires_grad=True)
    r.amax(dim=1).sum().backward()
    assert r.grad.tolist() == [[0.0, 0.5, 0.5]]


def test_split_and_chunk_are_one_node_whose_unused_pieces_get_zeros():
    torch = pytest.importorskip("torch")
    values = np.arange(1.0, 13.0).reshape(3, 4)
    grads = []
    for lib in (gt, torch):
        x = lib.tensor(values, requires_grad=True)
        a, _, c = x.chunk(3, dim=0)
        p, q = x.split([1, 3], dim=1)
        (a * c * 2).sum().backward(retain_graph=True)
        (q.exp().sum() + p.sum()).backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)
    x = gt.tensor(values, requires_grad=True)
    pieces = x.chunk(2, dim=1)
    assert pieces[0].grad_fn is pieces[1].grad_fn
    assert gradgradcheck(lambda t: t.split(1, dim=0)[1].sin() * t.chunk(2, dim=1)[0].sum(),
                         (x,))
