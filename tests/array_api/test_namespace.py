"""The namespace object, the array attributes it needs, and the namespace's own special cases.

__array_namespace__, inspection, data types, copy semantics, DLPack, and
the special values where the namespace corrects gtensor's ops.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import gtensor as gt
import gtensor.array_api as gxp

SPECIAL = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5,
                    -7.0, 1e-40, 3e38])


def test_tensors_name_this_namespace() -> None:
    x = gt.ones(2)
    assert x.__array_namespace__() is gxp
    assert x.__array_namespace__(api_version="2023.12") is gxp
    with pytest.raises(ValueError, match="2099.01"):
        x.__array_namespace__(api_version="2099.01")
    assert gxp.float32 is gt.float32 and gxp.bool is gt.bool_ and "int64" in dir(gxp)
    with pytest.raises(AttributeError):
        gxp.float  # noqa: B018 - PyTorch's alias is no standard dtype


def test_inspection_api(device: str) -> None:
    info = gxp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    assert caps["max dimensions"] is None
    assert gxp.sum(gxp.ones((1,) * 40, device=device)).item() == 1.0
    assert info.default_device() == gt.device("cpu")
    assert info.devices()[0] == gt.device("cpu") and any(d.type == device for d in info.devices())
    defaults = info.default_dtypes(device=device)
    assert defaults["real floating"] is gt.get_default_dtype()
    assert defaults["integral"] is defaults["indexing"] is gt.int64
    every = info.dtypes(device=device)
    assert list(info.dtypes(kind="bool")) == ["bool"]
    assert set(info.dtypes(kind=("signed integer", "real floating"))) == {
        "int8", "int16", "int32", "int64", "float32", "float64"}
    assert "float16" not in every  # gtensor's, not the standard's
    for kind in ("integral", "numeric", "unsigned integer"):
        assert {n for n, d in every.items() if gxp.isdtype(d, kind)} == set(info.dtypes(kind=kind))
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="decimal")


def test_data_type_functions() -> None:
    f32, i8 = gxp.finfo(gxp.float32), gxp.iinfo(gt.zeros(1, dtype=gt.int8))
    assert (f32.bits, f32.eps, f32.dtype) == (32, float(np.finfo(np.float32).eps), gt.float32)
    assert f32.smallest_normal == float(np.finfo(np.float32).smallest_normal)
    assert (i8.bits, i8.min, i8.max, i8.dtype) == (8, -128, 127, gt.int8)
    assert gxp.isdtype(gxp.uint8, ("bool", "unsigned integer"))
    assert not gxp.isdtype(gxp.float64, "integral") and gxp.isdtype(gxp.float64, gxp.float64)
    with pytest.raises(TypeError, match="finfo"):
        gxp.finfo(gxp.int32)


def test_copy_keywords_share_or_copy_memory(device: str) -> None:
    x = gxp.asarray(np.arange(6.0).reshape(2, 3), device=device)
    assert gxp.asarray(x) is x and gxp.asarray(x, copy=True).data_ptr() != x.data_ptr()
    a = np.zeros(3)
    assert gxp.asarray(a).data_ptr() == a.ctypes.data
    with pytest.raises(ValueError, match="copy=False"):
        gxp.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        gxp.asarray(x, dtype=gxp.float32, copy=False)
    assert gxp.astype(x, gxp.float64, copy=False) is x
    assert gxp.astype(x, gxp.float64).data_ptr() != x.data_ptr()
    assert gxp.reshape(x, (3, 2), copy=False).data_ptr() == x.data_ptr()
    with pytest.raises(ValueError, match="copy=False"):
        gxp.reshape(x.mT, (6,), copy=False)
    assert gxp.reshape(x, (6,), copy=True).data_ptr() != x.data_ptr()
    moved = x.to_device("cpu")
    assert moved.device == gt.device("cpu") and moved.tolist() == x.tolist()
    assert x.mT.shape == (3, 2) and x.device.type == device


def test_dlpack_exports_to_the_host(device: str) -> None:
    x = gt.tensor([1.0, 2.0, 3.0], device=device)
    assert x.__dlpack_device__() == (1, 0)  # simulated device memory is host memory
    copied = np.from_dlpack(x, copy=True)
    shared = np.from_dlpack(x)
    x[0] = 7.0
    assert copied.tolist() == [1.0, 2.0, 3.0] and shared.tolist() == [7.0, 2.0, 3.0]
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), [7.0, 2.0, 3.0])
    with pytest.raises(BufferError, match="DLPack device"):
        x.__dlpack__(dl_device=(2, 5))
    assert gxp.from_dlpack(np.arange(3.0), device=device).device.type == device


@pytest.mark.filterwarnings("ignore:.*encountered in scalar:RuntimeWarning")  # simulator
def test_special_cases_where_gtensor_differs(device: str) -> None:
    vals = SPECIAL.astype("float64" if device == "cpu" else "float32")
    x = gxp.asarray(vals, device=device)
    with np.errstate(all="ignore"):
        for name, ref in (("sign", np.sign), ("floor", np.floor), ("ceil", np.ceil),
                          ("trunc", np.trunc), ("round", np.round)):
            got, want = getattr(gxp, name)(x).cpu().numpy(), ref(vals)
            same = (got == want) & (np.signbit(got) == np.signbit(want)) | (
                np.isnan(got) & np.isnan(want))
            assert same.all(), (name, vals[~same], got[~same])
    assert gt.sign(gt.tensor([math.nan])).tolist() == [0.0]  # gtensor's own ops keep PyTorch's
