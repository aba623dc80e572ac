import numpy as np
import pytest

import gtensor as gt


def test_numpy_round_trip_shares_memory():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = gt.from_numpy(a)
    b = t.numpy()
    b[1, 2] = -1.0
    assert a[1, 2] == -1.0 and np.shares_memory(a, b)
    assert np.asarray(t).dtype == np.float32
    assert np.array(t, dtype=np.float64).dtype == np.float64


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64",
                                   "float16", "float32", "float64"])
def test_dlpack_numpy_zero_copy(dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    t = gt.from_dlpack(a)
    assert t.dtype.name == dtype and t.data_ptr() == a.ctypes.data
    back = np.from_dlpack(t)
    assert np.shares_memory(back, a)
    np.testing.assert_array_equal(back, a)
    strided = gt.from_dlpack(a[:, ::2])
    assert strided.stride() == (4, 2)
    assert t.__dlpack_device__() == (1, 0)


def test_from_dlpack_of_a_tensor_is_a_view(device):
    t = gt.arange(4, device=device)
    v = gt.from_dlpack(t)
    assert v._storage is t._storage and v.device == t.device


def test_cuda_array_interface(device):
    t = gt.arange(6, dtype=gt.float32, device=device).view(2, 3).T
    if device == "cpu":
        with pytest.raises(AttributeError, match=r"^\[__cuda_array_interface__\]"):
            _ = t.__cuda_array_interface__
        return
    cai = t.__cuda_array_interface__
    assert cai["shape"] == (3, 2) and cai["strides"] == (4, 12) and cai["typestr"] == "<f4"
    assert cai["data"][0] == t.data_ptr() and cai["version"] == 3
    back = gt.as_tensor(t)
    assert back is t
    wrapped = gt.ops.interop.from_cuda_array_interface(t)
    assert wrapped.tolist() == t.tolist() and wrapped.data_ptr() == t.data_ptr()


def test_dlpack_errors():
    with pytest.raises(TypeError, match=r"^\[from_dlpack\] list does not implement"):
        gt.from_dlpack([1, 2])
    with pytest.raises(RuntimeError, match=r"^\[__dlpack__\] can't export a tensor that"):
        gt.ones(2, requires_grad=True).__dlpack__()


def test_torch_round_trip():
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    t = gt.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr() and t.tolist() == x.tolist()
    y = torch.from_dlpack(t)
    y[0, 0] = 42.0
    assert t[0, 0].item() == 42.0


@pytest.mark.gpu
def test_cupy_round_trip_on_gpu():
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(6, dtype=cupy.float32).reshape(2, 3)
    t = gt.from_dlpack(c)
    assert t.device.type == "cuda" and t.data_ptr() == c.data.ptr
    back = cupy.from_dlpack(t)
    back[0, 0] = 7
    assert t[0, 0].item() == 7.0
    assert gt.as_tensor(c).data_ptr() == c.data.ptr


@pytest.mark.gpu
def test_torch_cuda_round_trip_on_gpu():
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32, device="cuda").reshape(2, 3)[:, ::2]
    t = gt.from_dlpack(x)
    assert t.device.type == "cuda" and t.data_ptr() == x.data_ptr()
    assert t.stride() == x.stride() and t.tolist() == x.tolist()
    y = torch.from_dlpack(t)
    assert y.device.type == "cuda" and y.data_ptr() == t.data_ptr()
    y[0, 0] = 42.0
    assert t[0, 0].item() == 42.0
    z = torch.as_tensor(gt.arange(4.0, device="cuda"), device="cuda")  # the array interface
    assert z.tolist() == [0.0, 1.0, 2.0, 3.0]
    w = gt.as_tensor(z)
    assert w.data_ptr() == z.data_ptr()


@pytest.mark.gpu
def test_exports_are_ordered_after_work_on_a_side_stream():
    torch = pytest.importorskip("torch")
    side = gt.cuda.Stream()
    n = 1 << 24
    with gt.cuda.stream(side):
        x = gt.ones(n, device="cuda")
        for _ in range(20):  # enough queued work that an unordered read would see it unfinished
            x = x * 1.0 + 1.0
        y = torch.from_dlpack(x)  # consumer: torch's current (legacy default) stream
        total = float(y.sum().item())
    assert total == 21.0 * n
    produced = torch.full((n,), 2.0, device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        produced.mul_(3.0)
        t = gt.as_tensor(produced)  # __cuda_array_interface__ names torch's stream
    assert float(t.sum().item()) == 6.0 * n
