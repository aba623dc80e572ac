import numpy as np
import pytest

import gtensor as gt


def test_same_seed_same_values_on_cpu_and_cuda():
    gt.manual_seed(123)
    a = gt.rand(40)
    n = gt.randn(3, 5)
    i = gt.randint(0, 10, (7,))
    gt.manual_seed(123)
    b = gt.rand(40, device="cuda")
    m = gt.randn(3, 5, device="cuda")
    j = gt.randint(0, 10, (7,), device="cuda")
    np.testing.assert_array_equal(a.numpy(), b.cpu().numpy())
    np.testing.assert_allclose(n.numpy(), m.cpu().numpy(), rtol=1e-6)
    np.testing.assert_array_equal(i.numpy(), j.cpu().numpy())


def test_streams_advance_and_restart():
    g = gt.Generator().manual_seed(7)
    first = gt.rand(5, generator=g)
    second = gt.rand(5, generator=g)
    assert not np.array_equal(first.numpy(), second.numpy())
    state = g.get_state()
    third = gt.rand(5, generator=g)
    g.set_state(state)
    np.testing.assert_array_equal(gt.rand(5, generator=g).numpy(), third.numpy())
    g.manual_seed(7)
    np.testing.assert_array_equal(gt.rand(5, generator=g).numpy(), first.numpy())
    assert g.initial_seed() == 7 and isinstance(g.seed(), int)


def test_distributions_and_dtypes(device):
    gt.manual_seed(0)
    n = 2000 if device == "cpu" else 128
    u = gt.rand(n, dtype=gt.float64, device=device).cpu().numpy()
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.1
    z = gt.randn(n, device=device).cpu().numpy()
    assert abs(z.mean()) < 0.3 and 0.7 < z.std() < 1.3
    r = gt.randint(3, 9, (n,), dtype=gt.int32, device=device)
    vals = r.cpu().numpy()
    assert r.dtype is gt.int32 and vals.min() >= 3 and vals.max() < 9
    strided = gt.zeros(4, 6, device=device).T
    strided.uniform_(-2, -1)
    s = strided.cpu().numpy()
    assert (s >= -2).all() and (s < -1).all()
    assert gt.randn_like(strided).shape == (6, 4)
    assert gt.rand(2, 3, requires_grad=True).requires_grad


def test_random_errors():
    with pytest.raises(TypeError, match=r"^\[uniform_\] expected a floating dtype"):
        gt.zeros(3, dtype=gt.int64).uniform_()
    with pytest.raises(ValueError, match=r"^\[random_\] expects low < high"):
        gt.randint(5, 5, (2,))
    with pytest.raises(TypeError, match=r"^\[manual_seed\] seed must be an int"):
        gt.manual_seed(1.5)
    with pytest.raises(RuntimeError, match=r"^\[random_uniform\] generator on cpu"):
        gt.rand(3, device="cuda", generator=gt.Generator("cpu"))
    with pytest.raises(ValueError, match=r"^\[set_state\] expected a 16-byte state"):
        gt.Generator().set_state(np.zeros(3, np.uint8))
