"""Foreign NumPy memory: read-only buffers give read-only tensors; other byte orders are copied."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import gtensor as gt
from gtensor.cuda import runtime
from gtensor.errors import GTensorError
from gtensor.ops.interop import from_cuda_array_interface

RAW = np.arange(4, dtype=np.float32).tobytes()

WRITES: dict[str, Callable[[gt.Tensor], object]] = {
    "add_": lambda t: t.add_(1.0),
    "mul_": lambda t: t.mul_(gt.ones(4)),
    "neg_": lambda t: t.neg_(),
    "clamp_": lambda t: t.clamp_(0.0, 1.0),
    "masked_fill_": lambda t: t.masked_fill_(gt.ones(4, dtype=gt.bool), 7.0),
    "index_add_": lambda t: t.index_add_(0, gt.tensor([0]), gt.ones(1)),
    "copy_": lambda t: t.copy_(gt.ones(4)),
    "fill_": lambda t: t.fill_(3.0),
    "uniform_": lambda t: t.uniform_(),
    "setitem": lambda t: t.__setitem__(slice(0, 2), 5.0),
    "setitem_advanced": lambda t: t.__setitem__(gt.tensor([0, 2]), 5.0),
    "index_put_": lambda t: t.index_put_((gt.tensor([1]),), gt.tensor(5.0)),
    "view_setitem": lambda t: t.view(2, 2).__setitem__(0, 1.0),
    "iadd": lambda t: t.__iadd__(1.0),
    "out_binary": lambda t: gt.add(gt.ones(4), 1.0, out=t),
    "out_unary": lambda t: gt.exp(gt.ones(4), out=t),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_writes_into_a_bytes_backed_tensor_are_refused(write):
    buf = np.arange(4, dtype=np.float32).tobytes()  # a fresh immutable object per test
    t = gt.from_numpy(np.frombuffer(buf, dtype=np.float32))
    with pytest.raises(GTensorError, match=r"^\[\w+\] cannot write into a read-only tensor"):
        WRITES[write](t)
    assert buf == RAW
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_read_only_memory_map_is_refused_and_readable(tmp_path: Path, device):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(6, dtype=np.float64).reshape(2, 3))
    t = gt.from_numpy(np.load(path, mmap_mode="r"))
    with pytest.raises(GTensorError, match=r"^\[add_\] .*read-only"):
        t.add_(1.0)
    with pytest.raises(GTensorError, match=r"^\[setitem\] .*read-only"):
        t[0, 0] = 9.0
    assert (t.to(device) * 2).tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert t.sum().item() == 15.0
    np.testing.assert_array_equal(np.load(path), np.arange(6.0).reshape(2, 3))


def test_copies_of_a_read_only_tensor_are_writable(device):
    t = gt.from_numpy(np.frombuffer(RAW, dtype=np.float32))
    for copy in (t.clone(), t.to(device, copy=True), gt.tensor(t, device=device)):
        copy.add_(1.0)
        assert copy.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_read_only_tensor_exports_a_read_only_array():
    arr = gt.from_numpy(np.frombuffer(RAW, dtype=np.float32)).numpy()
    assert not arr.flags.writeable
    assert gt.from_numpy(np.zeros(2)).numpy().flags.writeable


def test_read_only_tensor_is_a_valid_source(device):
    t = gt.from_numpy(np.frombuffer(RAW, dtype=np.float32))
    dst = gt.zeros(4, device=device)
    dst.copy_(t)
    assert dst.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert gt.as_tensor(np.frombuffer(RAW, dtype=np.float32), device=device).tolist() == [
        0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("make", ["from_numpy", "as_tensor", "tensor"])
@pytest.mark.parametrize("order", [">", "<"])
def test_non_native_byte_order_is_read_correctly(make, order, device):
    a = (np.arange(3) * 1.5).astype(f"{order}f4")
    assert a.dtype.str == f"{order}f4"
    t = getattr(gt, make)(a)
    assert t.dtype is gt.float32
    assert t.to(device).tolist() == [0.0, 1.5, 3.0]
    assert (t.to(device) + 1).tolist() == [1.0, 2.5, 4.0]


def test_big_endian_integers_are_read_correctly():
    a = np.array([[1, -2], [300, 70000]], dtype=">i8")
    np.testing.assert_array_equal(gt.from_numpy(a).numpy(), a)
    np.testing.assert_array_equal(gt.from_numpy(a.T).numpy(), a.T)


class _ReadOnlyInterface:
    """Host memory described as read-only device memory (valid on the simulated device only)."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        self.__cuda_array_interface__ = {
            "shape": values.shape, "typestr": values.dtype.str, "strides": None,
            "data": (values.ctypes.data, True), "version": 3,
        }


@pytest.mark.skipif(not runtime.is_simulated(), reason="wraps host memory as device memory")
def test_read_only_cuda_array_interface_gives_a_read_only_tensor():
    values = np.arange(3.0)
    t = from_cuda_array_interface(_ReadOnlyInterface(values))
    with pytest.raises(GTensorError, match=r"^\[add_\] .*read-only"):
        t.add_(1.0)
    assert (t * 2).tolist() == [0.0, 2.0, 4.0]
    np.testing.assert_array_equal(values, [0.0, 1.0, 2.0])
