import numpy as np
import pytest

import gtensor as gt
from gtensor.dtypes import ALL_DTYPES

# (a, b, expected): PyTorch's promote_types
PROMOTIONS = [
    ("uint8", "int8", "int16"), ("uint8", "int16", "int16"), ("uint8", "int64", "int64"),
    ("int8", "int32", "int32"), ("bool", "int8", "int8"), ("bool", "float16", "float16"),
    ("int64", "float16", "float16"), ("float16", "float32", "float32"),
    ("float32", "float64", "float64"), ("int32", "float32", "float32"), ("bool", "bool", "bool"),
]


@pytest.mark.parametrize("a,b,expected", PROMOTIONS)
def test_promote_types(a, b, expected):
    assert gt.promote_types(a, b).name == expected
    assert gt.promote_types(b, a).name == expected


def test_promotion_is_symmetric_for_all_pairs():
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            try:
                ab = gt.promote_types(a, b)
            except gt.DTypeError:
                with pytest.raises(gt.DTypeError):
                    gt.promote_types(b, a)
            else:
                assert ab is gt.promote_types(b, a)


def test_integer_promotion_is_the_array_api_table():
    # NumPy's integer table is the standard's wherever the standard defines one: all but
    # uint64 with a signed integer (NumPy's float64), which gtensor refuses as PyTorch does
    ints = [d for d in ALL_DTYPES if d.category == 1]
    for a in ints:
        for b in ints:
            if {a.is_signed, b.is_signed} == {True, False} and gt.uint64 in (a, b):
                with pytest.raises(gt.DTypeError, match=r"^\[promote_types\] no integer dtype "
                                   "holds both uint64 and int"):
                    gt.promote_types(a, b)
            else:
                assert gt.promote_types(a, b).numpy == np.promote_types(a.numpy, b.numpy)
    assert gt.promote_types(gt.uint16, gt.float16) is gt.float16
    assert gt.promote_types(gt.bool_, gt.uint64) is gt.uint64


def test_uint64_with_a_signed_integer_names_the_op():
    u64 = gt.from_numpy(np.array([2**64 - 1], np.uint64))
    i8 = gt.from_numpy(np.array([1], np.int8))
    with pytest.raises(gt.DTypeError, match=r"^\[add\] no integer dtype holds both uint64 and "
                       "int8; cast one of them first"):
        u64 + i8
    with pytest.raises(gt.DTypeError, match=r"^\[cat\]"):
        gt.cat([i8, u64])
    assert gt.result_type(u64, -1) is gt.uint64  # a Python int takes the tensor's dtype


def test_result_type_scalars_and_zero_dim():
    i32 = gt.zeros(3, dtype=gt.int32)
    u8 = gt.zeros(3, dtype=gt.uint8)
    f16 = gt.zeros(3, dtype=gt.float16)
    assert gt.result_type(i32, 2) is gt.int32  # Python int does not widen
    assert gt.result_type(i32, 2.5) is gt.float32  # Python float -> default dtype
    assert gt.result_type(u8, 1000) is gt.uint8
    assert gt.result_type(f16, 2.5) is gt.float16
    assert gt.result_type(i32, gt.tensor(2, dtype=gt.int64)) is gt.int32  # 0-d, same category
    assert gt.result_type(i32, gt.tensor(2.0, dtype=gt.float64)) is gt.float64
    assert gt.result_type(2, 3) is gt.int64
    assert gt.result_type(True, 3) is gt.int64
    assert gt.result_type(gt.tensor(1, dtype=gt.int8), gt.tensor(1, dtype=gt.int32)) is gt.int32


def test_default_dtype():
    assert gt.get_default_dtype() is gt.float32
    gt.set_default_dtype(gt.float64)
    try:
        assert gt.tensor([1.0]).dtype is gt.float64
        assert gt.result_type(gt.zeros(2, dtype=gt.int32), 1.0) is gt.float64
    finally:
        gt.set_default_dtype(gt.float32)
    with pytest.raises(TypeError, match=r"^\[set_default_dtype\]"):
        gt.set_default_dtype(gt.int32)


def test_dtype_objects():
    assert gt.float32.itemsize == 4 and gt.float32.is_floating_point
    assert not gt.int8.is_floating_point and gt.int8.is_signed and not gt.uint8.is_signed
    assert [d.itemsize for d in (gt.uint16, gt.uint32, gt.uint64)] == [2, 4, 8]
    assert not gt.uint64.is_signed and gt.uint16.kernel == np.uint16 and not gt.uint16.is_half
    assert repr(gt.float64) == "gtensor.float64"
    assert gt.bool is gt.bool_ and gt.long is gt.int64 and gt.double is gt.float64
    assert gt.dtypes.as_dtype(np.float16) is gt.float16
    assert gt.dtypes.as_dtype(np.complex128) is gt.complex128 and gt.cfloat is gt.complex64
    with pytest.raises(TypeError, match=r"^\[dtype\] complex256 is not supported"):
        gt.dtypes.as_dtype(np.clongdouble)


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32", "float64"])
def test_finfo_matches_torch(name):
    torch = pytest.importorskip("torch")
    got, want = gt.finfo(getattr(gt, name)), torch.finfo(getattr(torch, name))
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution"):
        assert getattr(got, field) == getattr(want, field), field
    assert got.dtype == want.dtype
    with pytest.raises(TypeError, match=r"\[finfo\]"):
        gt.finfo(gt.int32)


def test_iinfo():
    assert (gt.iinfo(gt.int8).min, gt.iinfo(gt.int8).max, gt.iinfo(gt.uint8).max) == (-128, 127,
                                                                                     255)
    assert gt.iinfo(gt.int64).bits == 64
    assert (gt.iinfo(gt.uint64).max, gt.iinfo(gt.uint16).bits) == (2**64 - 1, 16)
    with pytest.raises(TypeError, match=r"\[iinfo\]"):
        gt.iinfo(gt.bfloat16)
