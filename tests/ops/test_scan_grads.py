"""cumsum/cumprod gradients: exact with zeros (first and higher order), no cancellation."""

import math

import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck, gradgradcheck


def leaf(values, device):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=True)


def cumprod_grad(values, device, dim=0, weights=None):
    x = leaf(values, device)
    y = x.cumprod(dim)
    if weights is not None:
        y = y * gt.tensor(weights, dtype=gt.float64, device=device)
    y.sum().backward()
    return x.grad.tolist()


@pytest.mark.parametrize(("values", "want"), [
    ([2.0, 0.0, 3.0, 4.0], [1.0, 32.0, 0.0, 0.0]),
    ([0.0, 2.0, 0.0, 3.0], [3.0, 0.0, 0.0, 0.0]),
    ([1.0, 2.0, 3.0], [9.0, 4.0, 2.0]),
    ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
    ([5.0, 0.0], [1.0, 5.0]),
])
def test_cumprod_gradient_with_zeros_is_exact(device, values, want):
    assert cumprod_grad(values, device) == want


def test_cumprod_gradient_with_zeros_along_inner_dim(device):
    got = cumprod_grad([[2.0, 0.0, 3.0], [0.0, 1.0, 0.0]], device, dim=1,
                       weights=[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    # row 0: d/dx0 = 1 + 2*0 + 3*0 = 1, d/dx1 = 2*2 + 3*2*3 = 22, d/dx2 = 0
    # row 1: d/dx0 = 1 + 2*1 + 3*1*0 = 3, after the first zero everything is 0
    assert got == [[1.0, 22.0, 0.0], [3.0, 0.0, 0.0]]


def test_cumprod_zero_and_inf(device):
    # before the first zero, reversed sums of g*y divided by x: inf / inf is nan (PyTorch)
    got = cumprod_grad([2.0, math.inf, 0.0], device)
    assert got[0] == math.inf and math.isnan(got[1]) and got[2] == math.inf


def test_cumprod_double_backward_with_zeros(device):
    x = leaf([[2.0, 0.0, 3.0, 0.5], [0.0, 1.5, 0.0, 2.0]], device)
    assert gradcheck(lambda t: t.cumprod(1), (x,))
    if device == "cpu":  # the same composition of ops on both; the values below check cuda
        assert gradgradcheck(lambda t: t.cumprod(1), (x,))
    x = leaf([0.0, 2.0, 0.0, 3.0], device)
    (g,) = gt.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 0.0, 0.0, 0.0]
    (gg,) = gt.autograd.grad(g.sum(), x)
    # g = [1 + x1 + x1 x2 + x1 x2 x3, x0 (1 + x2 + x2 x3), x0 x1 (1 + x3), x0 x1 x2]
    assert gg.tolist() == [9.0, 1.0, 8.0, 0.0]


def test_cumsum_gradient_has_no_cancellation(device):
    x = leaf([1.0, 2.0, 3.0], device)
    w = gt.tensor([1e20, 1.0, 1.0], dtype=gt.float64, device=device)
    (x.cumsum(0) * w).sum().backward()
    assert x.grad.tolist() == [1e20 + 2.0, 2.0, 1.0]
    x = leaf([1.0, 2.0], device)
    (x.cumsum(0) * gt.tensor([1.0, math.inf], dtype=gt.float64, device=device)).sum().backward()
    assert x.grad.tolist() == [math.inf, math.inf]


def test_cumprod_gradients_against_torch(device):
    torch = pytest.importorskip("torch")
    values = [[0.0, 2.0, -1.0, 0.0], [3.0, 0.0, 0.0, 2.0], [1.0, -2.0, 0.5, 4.0]]
    for dim in (0, 1):
        for create_graph in (False, True):
            x = leaf(values, device)
            (g,) = gt.autograd.grad((x.cumprod(dim) ** 2).sum(), x, create_graph=create_graph)
            t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
            (tg,) = torch.autograd.grad((t.cumprod(dim) ** 2).sum(), t,
                                        create_graph=create_graph)
            assert g.reshape(-1).tolist() == pytest.approx(tg.reshape(-1).tolist())
