import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd import functional as F


def t64(values, device="cpu"):
    return gt.tensor(values, dtype=gt.float64, device=device)


def test_jacobian_and_hessian_shapes_and_values(device):
    x, y = t64([1.0, 2.0], device), t64([3.0, 4.0], device)
    j = F.jacobian(lambda a: a * a * a.sum(), x)
    assert j.device.type == device
    np.testing.assert_allclose(j.tolist(), [[7.0, 1.0], [4.0, 16.0]])
    (jx, jy), (sx, sy) = F.jacobian(lambda a, b: (a * b, (a + b).sum()), (x, y))
    assert jx.tolist() == [[3.0, 0.0], [0.0, 4.0]] and jy.tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert sx.tolist() == [1.0, 1.0] and sy.tolist() == [1.0, 1.0]
    assert F.jacobian(lambda a: a.reshape(1, 2), x).shape == (1, 2, 2)
    h = F.hessian(lambda a: (a ** 3).sum(), x)
    assert h.tolist() == [[6.0, 0.0], [0.0, 12.0]] and not h.requires_grad
    with pytest.raises(RuntimeError, match=r"^\[hessian\]"):
        F.hessian(lambda a: a * a, x)
    with pytest.raises(RuntimeError, match=r"^\[jacobian\]"):
        F.jacobian(lambda a, b: a * 2, (x, y), strict=True)


def test_products_and_create_graph():
    x, v = t64([1.0, 2.0]), t64([1.0, -1.0])
    out, g = F.vjp(lambda a: a * a, x, v)
    assert out.tolist() == [1.0, 4.0] and g.tolist() == [2.0, -4.0]
    _, t = F.jvp(lambda a: a * a, x, v)
    assert t.tolist() == [2.0, -4.0]
    out, h = F.hvp(lambda a: (a ** 3).sum(), x, v)
    assert out.item() == 9.0 and h.tolist() == [6.0, -12.0]
    assert F.vhp(lambda a: (a ** 3).sum(), x, v)[1].tolist() == [6.0, -12.0]
    with pytest.raises(RuntimeError, match=r"^\[vjp\]"):
        F.vjp(lambda a: a * a, x)
    w = t64([1.0, 2.0]).requires_grad_()
    j = F.jacobian(lambda a: a ** 3, w, create_graph=True)
    j.sum().backward()
    assert j.requires_grad and w.grad.tolist() == [6.0, 12.0]
