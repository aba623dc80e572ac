"""uint16, uint32 and uint64 on cpu and cuda: one representative op per kernel family, vs NumPy.

Values reach the top of each range, where a kernel that computed in a signed
or a floating type (or read uint16 as half-precision bits) would differ.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import gtensor as gt

TOP = 2**64 - 1

# the CUDA simulator computes with NumPy scalars, which warn where the GPU wraps silently
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


def _draw(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Uniform over the whole range of ``dtype``, its largest value included."""
    info = np.iinfo(dtype)
    x = np.random.default_rng(seed).integers(0, info.max, shape, dtype=dtype, endpoint=True)
    x.flat[0] = info.max
    return x


def _same(got: gt.Tensor, want: np.ndarray) -> None:
    assert got.dtype.numpy == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.cpu().numpy(), want)


def test_uint16_is_integer_arithmetic_not_half_bits(device: str) -> None:
    # 15360 and 16384 are the float16 bits of 1.0 and 2.0: a half kernel would add the values
    a = np.array([15360, 15360, 65535, 7], np.uint16)
    b = np.array([15360, 16384, 2, 9], np.uint16)
    ta, tb = gt.tensor(a, device=device), gt.tensor(b, device=device)
    _same(ta + tb, a + b)
    _same(ta.sum(), np.array(a.sum(dtype=np.int64)))


def test_uint64_arithmetic_wraps_in_integers(device: str) -> None:
    a, b = _draw("uint64", (9,), 1), _draw("uint64", (9,), 2)
    shift = np.random.default_rng(3).integers(0, 64, 9).astype(np.uint64)
    ta, tb, ts = (gt.tensor(x, device=device) for x in (a, b, shift))
    _same(ta - tb, a - b)
    _same(ta * tb, a * b)
    _same(ta >> ts, a >> shift)
    _same(ta ** 3, a ** np.uint64(3))
    _same(gt.relu(ta), a)


def test_reductions_and_scans(device: str) -> None:
    a = _draw("uint64", (3, 4), 4)
    t = gt.tensor(a, device=device)
    with np.errstate(over="ignore"):
        _same(t.sum(1), a.astype(np.int64).sum(1))  # integers sum into int64 (PyTorch)
        _same(t.cumsum(1), a.astype(np.int64).cumsum(1))
    _same(t.argmin(1), a.argmin(1))


def test_sort_and_indexing(device: str) -> None:
    a = _draw("uint32", (2, 5), 6)  # values above 2**31 sort after the small ones
    t = gt.tensor(a, device=device)
    values, order = gt.sort(t, 1)
    _same(values, np.sort(a, 1))
    _same(order, np.argsort(a, 1, kind="stable"))
    index = np.array([[4, 0, 4, 1, 2], [3, 3, 0, 1, 2]])
    ti = gt.tensor(index, device=device)
    _same(gt.gather(t, 1, ti), np.take_along_axis(a, index, 1))
    want = np.zeros_like(a)
    for r in range(2):
        np.add.at(want[r], index[r], a[r])
    _same(gt.zeros(2, 5, dtype=gt.uint32, device=device).scatter_add(1, ti, t), want)


def test_casts_both_ways(device: str) -> None:
    a = _draw("uint64", (6,), 7)
    t = gt.tensor(a, device=device)
    _same(t.to(gt.int64), a.astype(np.int64))
    _same(t.to(gt.int64).to(gt.uint64), a)
    _same(t.to(gt.float64), a.astype(np.float64))
    f = np.random.default_rng(8).uniform(0, 65535, 6).astype(np.float32)
    _same(gt.tensor(f, device=device).to(gt.uint16), f.astype(np.uint16))
    small = np.array([1, 200, 3], np.uint16)  # as bfloat16 values, not bits
    bf = gt.tensor(small, device=device).to(gt.bfloat16)
    _same(bf.float(), small.astype(np.float32))
    _same(bf.to(gt.uint16), small)
    _same(gt.cat([gt.tensor(small.astype(np.uint8), device=device), t[:2].to(gt.uint16)]),
          np.concatenate([small, a[:2].astype(np.uint16)]))


def test_creation_and_random_integers(device: str) -> None:
    _same(gt.full((2, 2), TOP, dtype=gt.uint64, device=device), np.full((2, 2), TOP, np.uint64))
    _same(gt.arange(3, 60000, 19999, dtype=gt.uint16, device=device),
          np.arange(3, 60000, 19999, dtype=np.uint16))
    r = gt.randint(2**63, 2**64, (64,), dtype=gt.uint64, device=device)
    assert r.dtype is gt.uint64 and r.cpu().numpy().min() >= 2**63
    assert len(np.unique(r.cpu().numpy())) > 60


def test_host_exchange_save_and_names(device: str) -> None:
    a = _draw("uint32", (2, 3), 9)
    t = gt.tensor(a, device=device)
    assert t.dtype is gt.uint32 and t.type().endswith("UInt32Tensor")
    assert gt.tensor(TOP, dtype=gt.uint64, device=device).item() == TOP
    assert "dtype=gtensor.uint32" in repr(t) and str(int(a.flat[0])) in repr(t)
    buf = io.BytesIO()
    gt.save({"x": t}, buf)
    buf.seek(0)
    loaded = gt.load(buf)["x"]
    assert loaded.device == t.device
    _same(loaded, a)
    if device == "cpu":
        assert gt.from_numpy(a).data_ptr() == a.ctypes.data
        _same(gt.from_dlpack(np.from_dlpack(t)), a)
        assert gt.ones(1).type("gtensor.UInt16Tensor").dtype is gt.uint16


def test_array_api_dtypes() -> None:
    xp = gt.array_api
    info = xp.__array_namespace_info__()
    assert list(info.dtypes(kind="unsigned integer")) == ["uint8", "uint16", "uint32", "uint64"]
    assert xp.iinfo(xp.uint64).max == TOP and xp.iinfo(xp.uint16).bits == 16
    assert xp.result_type(xp.uint8, xp.uint16) is gt.uint16
    assert xp.result_type(xp.uint32, xp.int32) is gt.int64
    assert xp.can_cast(xp.uint16, xp.int32) and not xp.can_cast(xp.uint64, xp.int64)
    with pytest.raises(gt.DTypeError, match=r"^\[result_type\]"):
        xp.result_type(xp.uint64, xp.int8)
