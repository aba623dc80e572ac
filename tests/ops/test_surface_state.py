"""Factories (logspace, asarray, frombuffer, empty_permuted...), normal's overloads,
randint_like, unravel_index and the process state (rng state, default device, threads)."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")


def same(got, want, **tol):
    want = want.detach() if hasattr(want, "detach") else want
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), np.asarray(want), **tol)


def test_factories(device):
    same(gt.logspace(-1, 2, 4, base=2, device=device), torch.logspace(-1, 2, 4, base=2),
         rtol=1e-6)
    same(gt.logspace(0, 2, 3, dtype=gt.int64, device=device),
         torch.logspace(0, 2, 3, dtype=torch.int64))
    s = gt.scalar_tensor(3, device=device)
    assert s.shape == () and s.dtype == gt.float32 and s.item() == 3.0
    e = gt.empty_permuted((2, 3, 4), (0, 2, 1), device=device)
    assert e.shape == (2, 3, 4) and e.stride() == torch.empty_permuted((2, 3, 4),
                                                                       (0, 2, 1)).stride()
    with pytest.raises(gt.ShapeError, match=r"\[empty_permuted\]"):
        gt.empty_permuted((2, 3), (0, 0))
    n = gt.ones(1, device=device, dtype=gt.float64).new_empty_strided((2, 3), (1, 2))
    assert n.stride() == (1, 2) and n.dtype == gt.float64 and n.device.type == device


def test_frombuffer_and_asarray_share_memory():
    buf = bytearray(np.arange(4, dtype=np.float32).tobytes())
    t = gt.frombuffer(buf, dtype=gt.float32, count=2, offset=4)
    assert t.tolist() == [1.0, 2.0]
    t[0] = 9.0
    assert np.frombuffer(buf, np.float32).tolist() == [0.0, 9.0, 2.0, 3.0]
    with pytest.raises(ValueError, match=r"\[frombuffer\]"):
        gt.frombuffer(bytearray(3), dtype=gt.float32)
    a = np.zeros(3, np.float32)
    shared = gt.asarray(a)
    a[0] = 1.0
    assert shared.tolist() == [1.0, 0.0, 0.0]
    assert gt.asarray(a, copy=True)._storage is not shared._storage
    assert gt.asarray(shared) is shared
    assert gt.asarray(shared, requires_grad=True).requires_grad
    assert gt.asarray([1, 2]).tolist() == torch.asarray([1, 2]).tolist()
    with pytest.raises(ValueError, match=r"\[asarray\] copy=False"):
        gt.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match=r"\[asarray\] copy=False"):
        gt.asarray(a, dtype=gt.float64, copy=False)


def test_unravel_index(device):
    idx = [4, -1, 6, 0]
    got = gt.unravel_index(gt.tensor(idx, device=device), (2, 3))
    want = torch.unravel_index(torch.tensor(idx), (2, 3))
    for g, w in zip(got, want, strict=True):
        same(g, w)
    with pytest.raises(gt.DTypeError, match=r"\[unravel_index\]"):
        gt.unravel_index(gt.tensor([1.0], device=device), (2, 3))


def test_normal_overloads_and_randint_like(device):
    gt.manual_seed(0)
    mean = gt.zeros(2, 1, device=device, requires_grad=True)
    std = gt.full((3,), 2.0, device=device)
    out = gt.normal(mean, std)
    assert out.shape == (2, 3) and out.requires_grad
    out.sum().backward()
    assert mean.grad.tolist() == [[0.0], [0.0]]
    assert gt.normal(mean.detach(), 0.5).shape == (2, 1)
    assert gt.normal(1.0, std).shape == (3,)
    big = gt.normal(3.0, 0.5, (4000,), device=device, dtype=gt.float64)
    assert big.dtype == gt.float64 and abs(big.mean().item() - 3.0) < 0.05
    assert abs(big.std().item() - 0.5) < 0.05
    with pytest.raises(TypeError, match=r"\[normal\] size"):
        gt.normal(0.0, 1.0)
    with pytest.raises(ValueError, match=r"\[normal\] std"):
        gt.normal(mean, -1.0)
    r = gt.randint_like(gt.zeros(2, 3, device=device), 3, 5)
    assert r.shape == (2, 3) and r.dtype == gt.float32 and r.device.type == device
    assert set(r.flatten().tolist()) <= {3.0, 4.0}


def test_rng_state_seed_and_threads():
    gt.manual_seed(7)
    state = gt.get_rng_state()
    first = gt.rand(3).tolist()
    gt.set_rng_state(state)
    assert gt.rand(3).tolist() == first
    assert gt.seed() == gt.initial_seed()
    gt.manual_seed(0)
    before = gt.get_num_threads()
    gt.set_num_threads(1)
    assert gt.get_num_threads() == 1
    gt.set_num_threads(before)
    with pytest.raises(ValueError, match=r"\[set_num_threads\]"):
        gt.set_num_threads(0)


def test_default_device():
    assert gt.get_default_device() == gt.device("cpu")
    gt.set_default_device("cuda")
    try:
        assert gt.get_default_device() == gt.device("cuda", 0)
        assert gt.zeros(2).device == gt.device("cuda", 0)
        assert gt.tensor([1.0]).device.type == "cuda"
        assert gt.arange(3).device.type == "cuda"
        assert gt.zeros(1, device="cpu").device == gt.device("cpu")
    finally:
        gt.set_default_device(None)
    assert gt.zeros(1).device == gt.device("cpu")


@pytest.mark.parametrize("lam", [0.5, 4.0, 30.0, 500.0])
def test_poisson_moments(lam):
    gt.manual_seed(1)
    x = gt.poisson(gt.full((4000,), lam, dtype=gt.float64))
    sd = lam ** 0.5
    assert abs(x.mean().item() - lam) < 4 * sd / 4000 ** 0.5
    assert abs(x.var().item() / lam - 1) < 0.15
    assert x.min().item() >= 0 and (x == x.round()).all().item()


@pytest.mark.parametrize("n, p", [(5, 0.3), (20, 0.9), (100, 0.5), (1000, 0.97)])
def test_binomial_moments(n, p):
    gt.manual_seed(2)
    x = gt.binomial(gt.full((4000,), float(n)), gt.full((4000,), p))
    var = n * p * (1 - p)
    assert x.dtype == gt.float32
    assert abs(x.mean().item() - n * p) < 4 * (var / 4000) ** 0.5
    assert abs(x.var().item() / var - 1) < 0.15
    assert 0 <= x.min().item() and x.max().item() <= n


def test_counts_same_on_each_device_and_refusals(device):
    rates = gt.tensor([0.0, 0.5, 3.0, 12.0, 80.0], device=device)
    gt.manual_seed(3)
    got = gt.poisson(rates).tolist()
    gt.manual_seed(3)
    assert gt.poisson(rates.cpu()).tolist() == got
    assert got[0] == 0.0
    counts = gt.tensor([0.0, 7.0, 60.0], device=device)
    probs = gt.tensor([0.5, 1.0, 0.4], device=device)
    gt.manual_seed(4)
    b = gt.binomial(counts, probs).tolist()
    gt.manual_seed(4)
    assert gt.binomial(counts.cpu(), probs.cpu()).tolist() == b
    assert b[:2] == [0.0, 7.0]
    with pytest.raises(ValueError, match=r"\[poisson\]"):
        gt.poisson(gt.tensor([-1.0], device=device))
    with pytest.raises(gt.DTypeError, match=r"\[poisson\]"):
        gt.poisson(gt.tensor([1], device=device))
    with pytest.raises(ValueError, match=r"\[binomial\] prob"):
        gt.binomial(counts, probs + 1)
    with pytest.raises(ValueError, match=r"\[binomial\] count"):
        gt.binomial(counts + 0.5, probs)


def test_deterministic_algorithms(device):
    assert not gt.are_deterministic_algorithms_enabled()
    x = gt.zeros(3, device=device)
    idx = gt.tensor([0, 0], device=device)
    gt.use_deterministic_algorithms(True)
    try:
        assert gt.are_deterministic_algorithms_enabled()
        counts = gt.zeros(3, dtype=gt.int64, device=device)
        counts.index_add_(0, idx, gt.ones(2, dtype=gt.int64, device=device))
        assert counts.tolist() == [2, 0, 0]
        if device == "cpu":
            x.index_add_(0, idx, gt.ones(2))
            assert x.tolist() == [2.0, 0.0, 0.0]
            return
        with pytest.raises(RuntimeError, match=r"\[scatter_add\].*deterministic"):
            x.index_add_(0, idx, gt.ones(2, device=device))
        assert x.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(RuntimeError, match=r"\[bincount\]"):
            gt.bincount(idx, weights=gt.ones(2, device=device))
        gt.use_deterministic_algorithms(True, warn_only=True)
        assert gt.is_deterministic_algorithms_warn_only_enabled()
        with pytest.warns(UserWarning, match="deterministic"):
            x.index_add_(0, idx, gt.ones(2, device=device))
        assert x.tolist() == [2.0, 0.0, 0.0]
    finally:
        gt.use_deterministic_algorithms(False)
    assert not gt.is_deterministic_algorithms_warn_only_enabled()
