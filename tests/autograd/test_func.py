import numpy as np

import gtensor as gt
from gtensor import func


def t64(values, device="cpu"):
    return gt.tensor(values, dtype=gt.float64, device=device)


def test_grad_and_value_and_grad(device):
    f = lambda x: (x * x * x).sum()  # noqa: E731
    x = t64([1.0, 2.0], device)
    assert func.grad(f)(x).tolist() == [3.0, 12.0]
    v, g = func.value_and_grad(f)(x)
    assert v.item() == 9.0 and g.tolist() == [3.0, 12.0]
    h = lambda a, b: ((a * b).sum(), a * 2)  # noqa: E731
    (val, aux), (ga, gb) = func.value_and_grad(h, argnums=(0, 1), has_aux=True)(
        x, t64([3.0, 4.0], device))
    assert val.item() == 11.0 and aux.tolist() == [2.0, 4.0]
    assert ga.tolist() == [3.0, 4.0] and gb.tolist() == [1.0, 2.0]
    g, v = func.grad_and_value(f)(x)
    assert v.item() == 9.0 and g.tolist() == [3.0, 12.0]
    g, (v, aux) = func.grad_and_value(h, has_aux=True)(x, t64([3.0, 4.0], device))
    assert g.tolist() == [3.0, 4.0] and v.item() == 11.0 and aux.tolist() == [2.0, 4.0]
    assert not x.requires_grad  # inputs are left untouched


def test_nested_grad_gives_higher_derivatives():
    f = lambda x: (x * x * x).sum()  # noqa: E731
    x = t64([2.0])
    d2 = func.grad(lambda y: func.grad(f)(y).sum())(x)
    d3 = func.grad(lambda y: func.grad(lambda z: func.grad(f)(z).sum())(y).sum())(x)
    assert d2.tolist() == [12.0] and d3.tolist() == [6.0]


def test_vjp_and_jvp():
    x = t64([1.0, 2.0, 3.0])
    out, pullback = func.vjp(lambda a: a * a, x)
    assert out.tolist() == [1.0, 4.0, 9.0]
    (g,) = pullback(t64([1.0, 1.0, 1.0]))
    assert g.tolist() == [2.0, 4.0, 6.0]
    out, tangent = func.jvp(lambda a: a * a, (x,), (t64([1.0, 0.0, 1.0]),))
    assert tangent.tolist() == [2.0, 0.0, 6.0]


def test_jacobian_and_hessian_against_finite_differences():
    def f(x):
        return (x * x).tanh() * x

    x = t64([0.3, -0.7, 1.1])
    jac = func.jacobian(f)(x).numpy()
    eps = 1e-6
    base = x.numpy()
    num = np.stack([(np.tanh((base + eps * e) ** 2) * (base + eps * e)
                     - np.tanh((base - eps * e) ** 2) * (base - eps * e)) / (2 * eps)
                    for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(jac, num, rtol=1e-6, atol=1e-8)

    def s(x):
        return (x * x * x).sum() + (x[0] * x[1])

    hess = func.hessian(s)(x).numpy()
    expected = np.diag(6 * base)
    expected[0, 1] = expected[1, 0] = 1.0
    np.testing.assert_allclose(hess, expected, atol=1e-9)
