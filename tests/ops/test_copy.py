import numpy as np
import pytest

import gtensor as gt


def test_contiguous_and_clone(device, rng):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    t = gt.tensor(a, device=device)
    assert t.contiguous() is t
    tt = t.T
    c = tt.contiguous()
    assert c.is_contiguous() and c._storage is not t._storage
    np.testing.assert_array_equal(c.cpu().numpy(), a.T)
    k = t[:, ::-1].clone()
    k[0, 0] = 99.0
    assert t[0, 3].item() == a[0, 3]
    np.testing.assert_array_equal(k.cpu().numpy()[1:], a[1:, ::-1])


@pytest.mark.parametrize("src,dst", [("float32", "int32"), ("float64", "float16"),
                                     ("int64", "float32"), ("float32", "bool"),
                                     ("uint8", "int8"), ("bool", "float64")])
def test_to_dtype(device, rng, src, dst):
    # values every dtype holds: narrowing conversions that overflow are not compared
    a = (rng.standard_normal((2, 5)) * 40 + 50).clip(0, 100).astype(src)
    t = gt.tensor(a, device=device).T  # strided source
    out = t.to(dst)
    assert out.dtype.name == dst and out.device == t.device
    np.testing.assert_array_equal(out.cpu().numpy(), a.T.astype(dst))


def test_to_device_round_trip(rng):
    a = rng.standard_normal((3, 2)).astype(np.float64)
    t = gt.tensor(a)
    before = gt.transfer_count()
    c = t.T.to("cuda")
    assert c.device == gt.device("cuda:0") and c.is_contiguous()
    back = c.cpu()
    after = gt.transfer_count()
    assert after["host_to_device"] == before["host_to_device"] + 1
    assert after["device_to_host"] == before["device_to_host"] + 1
    np.testing.assert_array_equal(back.numpy(), a.T)
    assert t.to("cpu") is t and t.to(gt.float64) is t
    assert t.to("cpu", copy=True)._storage is not t._storage
    m = t.to(c)  # match another tensor's device and dtype
    assert m.device == c.device and m.dtype is c.dtype
    assert gt.tensor([1.0]).cuda(0).device == gt.device("cuda:0")


def test_copy_broadcasts_and_converts(device):
    dst = gt.zeros(2, 3, dtype=gt.int32, device=device)
    dst.copy_(gt.tensor([1.7, 2.2, -3.9]))  # from cpu, float -> int, broadcast
    assert dst.tolist() == [[1, 2, -3], [1, 2, -3]]
    with pytest.raises(gt.ShapeError, match=r"^\[copy_\] shapes \(4,\) and \(2, 3\)"):
        dst.copy_(gt.zeros(4))


def test_detach_shares_storage(device):
    t = gt.ones(3, device=device, requires_grad=True)
    d = t.detach()
    assert d._storage is t._storage and not d.requires_grad


def test_to_bad_arguments():
    with pytest.raises(TypeError, match=r"^\[to\] unexpected keyword"):
        gt.ones(2).to(devise="cpu")
    with pytest.raises(ValueError, match=r"^\[device\] unknown device type"):
        gt.ones(2).to("tpu")


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float64"])
@pytest.mark.parametrize("shape", [(70, 130), (300, 300)])
def test_contiguous_of_large_transposes(rng, dtype, shape):
    a = (rng.standard_normal(shape) * 50).astype(dtype)
    t = gt.tensor(a).T  # the tiled transpose path (parallel above 65536 elements)
    c = t.contiguous()
    assert c.is_contiguous()
    np.testing.assert_array_equal(c.numpy(), a.T)
    np.testing.assert_array_equal(t.to(gt.float64).numpy(), a.T.astype(np.float64))
