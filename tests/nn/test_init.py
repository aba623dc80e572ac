"""nn.init: bounds and spreads of each initialiser, orthogonality, seeding, fan computation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gtensor as gt
from gtensor.nn import init


def _draw(fn, shape=(64, 128), **kw) -> np.ndarray:
    t = gt.nn.Parameter(gt.empty(*shape))
    out = fn(t, **kw)
    assert out is t and t.requires_grad
    return t.detach().numpy().copy()


def test_uniform_and_normal() -> None:
    gt.manual_seed(0)
    u = _draw(init.uniform_, a=-2.0, b=3.0)
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.05
    n = _draw(init.normal_, mean=1.0, std=2.0)
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 2.0) < 0.05


def test_constants() -> None:
    assert (_draw(init.zeros_) == 0).all() and (_draw(init.ones_) == 1).all()
    assert (_draw(init.constant_, val=0.25) == 0.25).all()


def test_xavier_and_kaiming_spreads() -> None:
    gt.manual_seed(1)
    fan_in, fan_out = 128 * 9, 64 * 9
    bound = math.sqrt(6 / (fan_in + fan_out))
    x = _draw(init.xavier_uniform_, shape=(64, 128, 3, 3))
    assert np.abs(x).max() <= bound and np.abs(x).max() > 0.95 * bound
    x = _draw(init.xavier_normal_, shape=(64, 128, 3, 3), gain=2.0)
    assert x.std() == pytest.approx(2.0 * math.sqrt(2 / (fan_in + fan_out)), rel=0.03)
    k = _draw(init.kaiming_uniform_, shape=(64, 128), nonlinearity="relu")
    assert np.abs(k).max() <= math.sqrt(6 / 128)
    k = _draw(init.kaiming_normal_, shape=(256, 64), mode="fan_out", nonlinearity="relu")
    assert k.std() == pytest.approx(math.sqrt(2 / 256), rel=0.03)


@pytest.mark.parametrize("shape", [(5, 8), (8, 5), (4, 2, 3)])
def test_orthogonal(shape: tuple[int, ...]) -> None:
    gt.manual_seed(2)
    w = _draw(init.orthogonal_, shape=shape, gain=1.5).reshape(shape[0], -1)
    small = w @ w.T if w.shape[0] <= w.shape[1] else w.T @ w
    np.testing.assert_allclose(small, 1.5**2 * np.eye(min(w.shape)), atol=1e-5)


def test_same_seed_same_values_on_each_device(device: str) -> None:
    gt.manual_seed(3)
    a = init.kaiming_uniform_(gt.empty(4, 6))
    gt.manual_seed(3)
    b = init.kaiming_uniform_(gt.empty(4, 6, device=device))
    np.testing.assert_array_equal(a.numpy(), b.cpu().numpy())
    g = gt.Generator().manual_seed(9)
    c = init.normal_(gt.empty(3), generator=g).numpy().copy()
    g.manual_seed(9)
    np.testing.assert_array_equal(init.normal_(gt.empty(3), generator=g).numpy(), c)


def test_gain_and_errors() -> None:
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    with pytest.raises(ValueError, match="unsupported nonlinearity"):
        init.calculate_gain("swish")
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        init.xavier_uniform_(gt.empty(3))
    with pytest.raises(ValueError, match="mode"):
        init.kaiming_normal_(gt.empty(3, 3), mode="fan")
