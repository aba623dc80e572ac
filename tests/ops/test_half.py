"""float16 and bfloat16 as compute dtypes, against PyTorch's CPU results in the same dtype.

PyTorch computes half types in float32 and rounds each result once, as gtensor's
kernels do, so most results agree to the bit; transcendental functions may
differ by one unit in the last place (their float32 libraries differ).
"""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

HALVES = ("float16", "bfloat16")
ULP = {"float16": 2.0**-10, "bfloat16": 2.0**-7}
# cpu kernels compile per half type (seconds each from an empty cache); the broad op-family
# tests run bfloat16 on the cpu and float16 on the simulated device (which compiles nothing)
PAIRS = [("cpu", "bfloat16"), ("cuda", "float16"), ("cuda", "bfloat16")]


def _pair(half: str, device: str, shape: tuple[int, ...] = (3, 5), seed: int = 0):  # noqa: ANN202
    rng = np.random.default_rng(seed)
    ref = torch.tensor(rng.uniform(-3, 3, shape).astype(np.float32)).to(getattr(torch, half))
    return gt.tensor(ref.float().numpy(), device=device).to(getattr(gt, half)), ref


def _same(got: gt.Tensor, want: torch.Tensor, ulps: float = 0.0) -> None:
    assert got.dtype.name == str(want.dtype).removeprefix("torch."), (got.dtype, want.dtype)
    got, want = got.detach(), want.detach()
    g = got.float().cpu().numpy() if got.dtype.is_floating_point else got.cpu().numpy()
    w = want.float().numpy() if want.dtype.is_floating_point else want.numpy()
    tol = ulps * ULP.get(got.dtype.name, 0.0)
    np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-3)


@pytest.mark.parametrize("half", HALVES)
def test_promotion_follows_pytorch(half: str) -> None:
    h, th = getattr(gt, half), getattr(torch, half)
    assert gt.promote_types(gt.bfloat16, gt.float16) is gt.float32
    for other, t_other in ((gt.float32, torch.float32), (gt.int64, torch.int64),
                           (gt.bool, torch.bool), (gt.float64, torch.float64)):
        assert gt.promote_types(h, other).name == str(
            torch.promote_types(th, t_other)).removeprefix("torch.")
    x = gt.ones(2, dtype=h)
    assert (x + 2.5).dtype is h and (x * 3).dtype is h
    assert (x + gt.tensor(2.0)).dtype is h  # a 0-d float32 tensor does not widen
    assert (x + gt.ones(2)).dtype is gt.float32


@pytest.mark.parametrize(("device", "half"), PAIRS)
def test_elementwise(device: str, half: str) -> None:
    x, tx = _pair(half, device)
    y, ty = _pair(half, device, seed=1)
    _same(x + y, tx + ty)
    _same(x * 0.3 - y, tx * 0.3 - ty)
    _same(x / y, tx / ty)
    _same(x.T[:3] + y[:, :3], tx.T[:3] + ty[:, :3])  # strided, through the strided kernels
    _same(x + y[0], tx + ty[0])  # broadcast
    _same(gt.maximum(x, y), torch.maximum(tx, ty))
    _same(x < y, tx < ty)
    _same(gt.where(x > 0, x, 0.5), torch.where(tx > 0, tx, 0.5))
    _same(x.clamp(-1, 1), tx.clamp(-1, 1))
    _same(x.relu(), tx.relu())
    for fn in ("exp", "tanh", "sigmoid"):
        _same(getattr(x, fn)(), getattr(tx, fn)(), ulps=1)
    _same(x.abs().sqrt(), tx.abs().sqrt(), ulps=1)
    z, tz = x.clone(), tx.clone()
    z.mul_(y).add_(1.5)
    _same(z, tz.mul_(ty).add_(1.5))


@pytest.mark.parametrize(("device", "half"), PAIRS)
def test_reductions_and_softmax(device: str, half: str) -> None:
    x, tx = _pair(half, device, (4, 6))
    _same(x.sum(), tx.sum(), ulps=1)
    _same(x.mean(1), tx.mean(1), ulps=1)
    _same(x.amax(0), tx.amax(0))
    _same(x.argmax(1), tx.argmax(1))
    _same(x.var(1), tx.var(1), ulps=1)
    _same(x.softmax(-1), tx.softmax(-1), ulps=1)
    _same(x.log_softmax(0), tx.log_softmax(0), ulps=1)
    _same(x.cumsum(1), tx.cumsum(1), ulps=1)
    _same(x.cumprod(0), tx.cumprod(0), ulps=1)
    _same(x.sort(1).values, tx.sort(1).values)


@pytest.mark.parametrize(("device", "half"), PAIRS)
def test_indexing_copies_and_casts(device: str, half: str) -> None:
    x, tx = _pair(half, device, (4, 3))
    idx = [2, 0, 3]
    _same(x[gt.tensor(idx, device=device)], tx[torch.tensor(idx)])
    _same(x.gather(1, gt.tensor([[0], [2], [1], [0]], device=device)),
          tx.gather(1, torch.tensor([[0], [2], [1], [0]])))
    _same(x.masked_fill(x > 1, -0.1), tx.masked_fill(tx > 1, -0.1))
    _same(gt.cat([x, x.flip(0)]), torch.cat([tx, tx.flip(0)]))
    _same(gt.cat([x, x.float()]), torch.cat([tx, tx.float()]))  # converted on the way
    _same(x.T.contiguous(), tx.T.contiguous())
    z, tz = x.clone(), tx.clone()
    z[1] = 0.1
    tz[1] = 0.1
    _same(z, tz)
    rows, trows = gt.tensor([0, 2, 0], device=device), torch.tensor([0, 2, 0])
    _same(x.index_add(0, rows, x[:3]), tx.index_add(0, trows, tx[:3]))  # repeated rows add
    _same(x.scatter_reduce(0, rows.view(3, 1).expand(3, 3), x[:3], "mean"),
          tx.scatter_reduce(0, trows.view(3, 1).expand(3, 3), tx[:3], "mean"))
    _same((x * 0).nonzero(), (tx * 0).nonzero())  # -0.0 is zero
    _same(gt.nn.functional.pad(x, (1, 0), value=2.5), torch.nn.functional.pad(tx, (1, 0),
                                                                               value=2.5))
    h, th = getattr(gt, half), getattr(torch, half)
    _same(gt.arange(0.5, 2, 0.25, dtype=h, device=device), torch.arange(0.5, 2, 0.25, dtype=th))
    _same(gt.linspace(-1, 1, 5, dtype=h, device=device), torch.linspace(-1, 1, 5, dtype=th))
    for other in ("float32", "float64", "int32", "bool", "float16", "bfloat16"):
        _same(x.to(getattr(gt, other)), tx.to(getattr(torch, other)))
        _same((x * 7).to(getattr(gt, other)).to(x.dtype), (tx * 7).to(getattr(torch, other)).to(
            tx.dtype))


@pytest.mark.parametrize(("device", "half"), PAIRS)
def test_matmul_and_gradients(device: str, half: str) -> None:
    x, tx = _pair(half, device, (2, 3))
    w, tw = _pair(half, device, (4, 3), seed=2)
    x.requires_grad_()
    w.requires_grad_()
    tx.requires_grad_()
    tw.requires_grad_()
    out = gt.nn.functional.linear(x, w).tanh().sum()
    tout = torch.nn.functional.linear(tx, tw).tanh().sum()
    _same(out, tout, ulps=2)
    out.backward()
    tout.backward()
    assert x.grad.dtype is x.dtype and w.grad.dtype is w.dtype
    _same(w.grad, tw.grad, ulps=4)


@pytest.mark.parametrize("half", HALVES)
def test_random_interop_and_save(half: str) -> None:
    h = getattr(gt, half)
    gt.manual_seed(0)
    u = gt.rand(1000, dtype=h)
    assert u.dtype is h and 0 <= float(u.min()) and float(u.max()) <= 1
    assert abs(float(gt.randn(1000, dtype=h).float().mean())) < 0.2
    arr = np.array([1.5, -2.25], ml_dtypes.bfloat16 if half == "bfloat16" else np.float16)
    t = gt.tensor(arr)
    assert t.dtype is h and t.numpy().dtype == arr.dtype and repr(t).endswith(f"{half})")
    buf = io.BytesIO()
    gt.save({"t": t}, buf)
    buf.seek(0)
    back = gt.load(buf)["t"]
    assert back.dtype is h and back.tolist() == [1.5, -2.25]
