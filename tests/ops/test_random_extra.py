"""Device random ops: distribution checks on cpu, identical values on cpu and cuda per seed."""

import math

import numpy as np
import pytest

import gtensor as gt


def _chi2_ok(observed, expected):
    """Chi-square statistic below a 99.9% bound (Wilson-Hilferty) for len - 1 dof."""
    observed, expected = np.asarray(observed, float), np.asarray(expected, float)
    stat = float(((observed - expected) ** 2 / expected).sum())
    k = len(observed) - 1
    bound = k * (1 - 2 / (9 * k) + 3.09 * math.sqrt(2 / (9 * k))) ** 3
    return stat < bound


def test_bernoulli_tensor_p_moments_and_chi2():
    gt.manual_seed(3)
    p = np.linspace(0.05, 0.95, 10)
    probs = gt.tensor(np.tile(p, (4000, 1)), dtype=gt.float64)
    draws = probs.bernoulli().numpy()
    assert set(np.unique(draws)) <= {0.0, 1.0}
    hits = draws.sum(0)
    sd = np.sqrt(4000 * p * (1 - p))
    assert np.all(np.abs(hits - 4000 * p) < 4.5 * sd)
    assert _chi2_ok(np.stack([hits, 4000 - hits]).ravel(),
                    np.stack([4000 * p, 4000 * (1 - p)]).ravel())


def test_randperm_is_uniform_permutation():
    gt.manual_seed(5)
    counts = np.zeros((4, 4))
    for _ in range(600):
        perm = gt.randperm(4).numpy()
        assert sorted(perm.tolist()) == [0, 1, 2, 3]
        counts[np.arange(4), perm] += 1
    assert _chi2_ok(counts.ravel(), np.full(16, 600 / 4))
    assert gt.randperm(0).shape == (0,)


@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_frequencies(replacement):
    gt.manual_seed(11)
    w = np.array([1.0, 0.0, 2.0, 5.0, 2.0])
    if replacement:
        draws = gt.tensor(np.tile(w, (50, 1))).multinomial(400, replacement=True).numpy()
        freq = np.bincount(draws.ravel(), minlength=5)
        assert freq[1] == 0
        nz = w > 0
        assert _chi2_ok(freq[nz], 20000 * w[nz] / w.sum())
    else:
        draws = gt.tensor(np.tile(w, (4000, 1))).multinomial(1).numpy()[:, 0]
        freq = np.bincount(draws, minlength=5)
        nz = w > 0
        assert freq[1] == 0 and _chi2_ok(freq[nz], 4000 * w[nz] / w.sum())
        rows = gt.tensor(np.tile(w, (50, 1))).multinomial(4).numpy()
        assert all(len(set(r)) == 4 and 1 not in r for r in rows)


def test_dropout_mask_moments_and_ks():
    gt.manual_seed(2)
    m = gt.dropout_mask(20000, p=0.3, dtype=gt.float64).numpy()
    assert set(np.unique(m)) <= {0.0, 1 / 0.7}
    keep = (m > 0).mean()
    assert abs(keep - 0.7) < 4.5 * math.sqrt(0.21 / 20000)
    assert abs(m.mean() - 1.0) < 0.03
    u = gt.rand(5000, dtype=gt.float64).numpy()
    xs = np.sort(u)
    ks = np.max(np.maximum(np.arange(1, 5001) / 5000 - xs, xs - np.arange(5000) / 5000))
    assert ks < 1.95 / math.sqrt(5000)
    assert set(np.unique(gt.dropout_mask(50, p=0.5, scale=False).numpy())) <= {0.0, 1.0}


def _draws(device):
    gt.manual_seed(1234)
    p = gt.tensor(np.linspace(0, 1, 24).reshape(4, 6), dtype=gt.float64, device=device)
    w = gt.tensor([[0.5, 0.0, 1.0, 3.0], [1.0, 1.0, 1.0, 1.0]], device=device)
    return [p.bernoulli(), gt.randperm(20, device=device), w.multinomial(6, replacement=True),
            w.multinomial(3), gt.dropout_mask(3, 5, p=0.4, device=device),
            gt.zeros(8, device=device).bernoulli_(0.5)]


def test_same_values_on_cpu_and_cuda_for_one_seed():
    for a, b in zip(_draws("cpu"), _draws("cuda"), strict=True):
        np.testing.assert_array_equal(a.numpy(), b.cpu().numpy())


def test_errors(device):
    with pytest.raises(ValueError, match=r"^\[bernoulli\] probabilities must be in \[0, 1\]"):
        gt.tensor([0.5, 1.5], device=device).bernoulli()
    with pytest.raises(TypeError, match=r"^\[bernoulli\] expected floating probabilities"):
        gt.tensor([0, 1], device=device).bernoulli()
    with pytest.raises(ValueError, match=r"^\[multinomial\] cannot draw 3 samples"):
        gt.tensor([1.0, 1.0], device=device).multinomial(3)
    with pytest.raises(ValueError, match=r"^\[multinomial\] a row has fewer than 2"):
        gt.tensor([1.0, 0.0], device=device).multinomial(2)
    with pytest.raises(ValueError, match=r"^\[multinomial\] weights must be finite"):
        gt.tensor([1.0, -1.0], device=device).multinomial(1)
    with pytest.raises(ValueError, match=r"^\[multinomial\] each row needs a positive total"):
        gt.tensor([[1.0, 1.0], [0.0, 0.0]], device=device).multinomial(1, replacement=True)
    with pytest.raises(gt.ShapeError, match=r"^\[multinomial\] expected a 1-D or 2-D"):
        gt.ones(1, 1, 2, device=device).multinomial(1)
    with pytest.raises(ValueError, match=r"^\[randperm\] n must be a non-negative int"):
        gt.randperm(-1, device=device)
    with pytest.raises(ValueError, match=r"^\[dropout_mask\] p must be in \[0, 1\]"):
        gt.dropout_mask(3, p=1.5, device=device)


def test_generator_must_match_device():
    with pytest.raises(RuntimeError, match=r"^\[randperm\] generator on cpu"):
        gt.randperm(3, device="cuda", generator=gt.Generator("cpu"))
