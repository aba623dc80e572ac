import numpy as np
import pytest

import gtensor as gt


def test_tensor_infers_dtypes(device):
    assert gt.tensor([1, 2], device=device).dtype is gt.int64
    assert gt.tensor([1.0, 2], device=device).dtype is gt.float32
    assert gt.tensor([True], device=device).dtype is gt.bool_
    assert gt.tensor(np.zeros(2, np.float64), device=device).dtype is gt.float64
    assert gt.tensor(np.zeros(2, np.int16), device=device).dtype is gt.int16
    assert gt.tensor(3, device=device).shape == ()
    t = gt.tensor([[1, 2]], dtype=gt.float16, device=device, requires_grad=True)
    assert t.dtype is gt.float16 and t.requires_grad


def test_tensor_copies_and_as_tensor_shares():
    a = np.arange(4.0)
    t = gt.tensor(a)
    a[0] = 100
    assert t[0].item() == 0.0
    s = gt.as_tensor(a)
    assert s.data_ptr() == a.ctypes.data
    f = gt.from_numpy(a[::-2])
    a[3] = -5
    assert f.tolist() == [-5.0, 1.0] and f.stride() == (-2,)
    assert gt.as_tensor(a, dtype=gt.float32).dtype is gt.float32


@pytest.mark.parametrize("dtype", [gt.bool_, gt.uint8, gt.int8, gt.int16, gt.int32, gt.int64,
                                   gt.float16, gt.float32, gt.float64])
def test_filled_constructors(device, dtype):
    np.testing.assert_array_equal(gt.zeros(2, 3, dtype=dtype, device=device).cpu().numpy(),
                                  np.zeros((2, 3), dtype.numpy))
    np.testing.assert_array_equal(gt.ones((3,), dtype=dtype, device=device).cpu().numpy(),
                                  np.ones(3, dtype.numpy))
    np.testing.assert_array_equal(gt.full((2, 2), 1, dtype=dtype, device=device).cpu().numpy(),
                                  np.full((2, 2), 1, dtype.numpy))
    e = gt.empty(4, dtype=dtype, device=device)
    assert e.shape == (4,) and e.dtype is dtype


def test_like_constructors(device):
    x = gt.zeros(2, 3, dtype=gt.float64, device=device)
    for fn in (gt.zeros_like, gt.ones_like, gt.empty_like):
        y = fn(x)
        assert (y.shape, y.dtype, y.device) == (x.shape, x.dtype, x.device)
    assert gt.full_like(x, 7).tolist() == [[7.0] * 3] * 2
    assert gt.ones_like(x, dtype=gt.int32).dtype is gt.int32
    assert gt.full((2,), 1.5).dtype is gt.float32 and gt.full((2,), 3).dtype is gt.int64


def test_numpy_scalars_and_tensors_in_lists_keep_their_dtype_in_tensor():
    assert gt.tensor(np.float64(1.5)).dtype is gt.float64  # as a 0-d array would
    assert gt.as_tensor(np.int32(2)).dtype is gt.int32
    assert gt.full((2,), np.float64(1.5)).dtype is gt.float32  # a fill value is a number
    assert gt.tensor([gt.tensor(1.0, dtype=gt.float64), 2.5]).dtype is gt.float64
    assert gt.tensor([gt.tensor(1, dtype=gt.int32), gt.tensor(2.5)]).dtype is gt.float32


def test_ranges(device):
    np.testing.assert_array_equal(gt.arange(5, device=device).cpu().numpy(), np.arange(5))
    np.testing.assert_allclose(gt.arange(1, 2.5, 0.5, device=device).cpu().numpy(),
                               np.arange(1, 2.5, 0.5))
    np.testing.assert_array_equal(gt.arange(10, 0, -3, device=device).cpu().numpy(),
                                  np.arange(10, 0, -3))
    assert gt.arange(0, dtype=gt.float32).shape == (0,)
    np.testing.assert_allclose(gt.linspace(-1, 1, 7, device=device).cpu().numpy(),
                               np.linspace(-1, 1, 7, dtype=np.float32), rtol=1e-6)
    assert gt.linspace(0, 1, 1).tolist() == [0.0]
    np.testing.assert_array_equal(gt.eye(3, 4, device=device).cpu().numpy(), np.eye(3, 4))
    np.testing.assert_array_equal(gt.eye(2, dtype=gt.int32).cpu().numpy(), np.eye(2))


def test_integer_ranges_from_float_arguments_follow_torch(device):
    # start and step truncate; int64 truncates end too, other integer dtypes count from it
    assert gt.arange(0.5, 10, 3.5, dtype=gt.int64, device=device).tolist() == [0, 3, 6, 9]
    assert gt.arange(2.5, dtype=gt.int64).tolist() == [0, 1]
    assert gt.arange(-2.5, 2, 1.0, dtype=gt.int32).tolist() == [-2, -1, 0, 1, 2]
    assert gt.arange(gt.tensor(3)).dtype is gt.int64  # a 0-d tensor counts as its value
    assert gt.linspace(1, 0, 4, dtype=gt.int64, device=device).tolist() == [1, 0, 0, 0]
    assert gt.linspace(-2.5, 2.5, 6, dtype=gt.int32).tolist() == [-2, -1, 0, 0, 1, 2]
    assert gt.linspace(0, 1, 1, dtype=gt.int64).tolist() == [0]
    z = gt.linspace(1j, -2, 3, device=device)  # complex ends: the default complex dtype
    assert z.dtype is gt.complex64 and z.tolist() == [1j, -1 + 0.5j, -2 + 0j]
    assert gt.logspace(0, 1j, 2).dtype is gt.complex64
    with pytest.raises(gt.DTypeError, match=r"^\[linspace\] complex ends need a complex"):
        gt.linspace(0, 1j, 2, dtype=gt.float32)


@pytest.mark.parametrize("call,err,msg", [
    (lambda: gt.zeros(-1), ValueError, r"^\[zeros\] negative dimension"),
    (lambda: gt.zeros(2.5), TypeError, r"^\[zeros\] shape entries must be ints"),
    (lambda: gt.arange(0, 5, 0), ValueError, r"^\[arange\] step must be nonzero"),
    (lambda: gt.arange(5, 0, 1), ValueError, r"^\[arange\] upper bound and step"),
    (lambda: gt.arange(0, 1, 0.25, dtype=gt.int64), ValueError, r"^\[arange\] step must be"),
    (lambda: gt.arange(0, float("inf")), ValueError, r"^\[arange\] unsupported range"),
    (lambda: gt.arange(float("nan"), dtype=gt.int64), ValueError, r"^\[arange\] unsupported"),
    (lambda: gt.tensor("abc", dtype=gt.bool), gt.DTypeError, r"^\[tensor\] cannot build"),
    (lambda: gt.linspace(0, 1, -2), ValueError, r"^\[linspace\]"),
    (lambda: gt.eye(-1), ValueError, r"^\[eye\]"),
    (lambda: gt.tensor(["a"]), TypeError, r"^\[tensor\]"),
    (lambda: gt.tensor([[1, 2], [3]]), gt.ShapeError, r"^\[tensor\] cannot convert list"),
    (lambda: gt.tensor([1j], dtype=gt.float32), gt.DTypeError, r"^\[tensor\] cannot convert"),
    (lambda: gt.tensor(float("nan"), dtype=gt.int32), gt.DTypeError, r"^\[tensor\]"),
    (lambda: gt.tensor(2**63), gt.DTypeError, r"^\[tensor\] cannot convert int data"),
    (lambda: gt.full((2,), float("inf"), dtype=gt.int64), gt.DTypeError, r"^\[fill\] value inf"),
    (lambda: gt.from_numpy([1, 2]), TypeError, r"^\[from_numpy\] expected np.ndarray"),
    (lambda: gt.zeros(2, dtype="clongdouble"), TypeError, r"^\[dtype\]"),
])
def test_creation_errors(call, err, msg):
    with pytest.raises(err, match=msg):
        call()


def test_zero_writes_through_a_view_and_keeps_gradients(device):
    a = gt.tensor([[1.0, 2.0], [3.0, 4.0]], device=device, requires_grad=True)
    b = a.clone()
    version = b._version
    assert b[0].zero_().tolist() == [0.0, 0.0] and b._version == version + 1
    (b * b).sum().backward()
    assert a.grad.tolist() == [[0.0, 0.0], [6.0, 8.0]]
    assert gt.zero_(gt.ones(2, dtype=gt.int32, device=device)).tolist() == [0, 0]
