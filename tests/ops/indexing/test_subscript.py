"""Advanced indexing against NumPy: getitem/setitem forms, random index sets, errors."""

import numpy as np
import pytest

import gtensor as gt


def _check(x, a, idx):
    r = x[idx]
    e = a[idx]
    assert r.shape == e.shape, idx
    np.testing.assert_array_equal(r.cpu().numpy(), e)


FORMS = [
    lambda a: ([0, 2],),
    lambda a: ([0, 2], slice(None), [1, 1]),
    lambda a: (slice(None), [0, 1], None, [1, 2]),
    lambda a: (a[:, :, 0] > a.mean(),),
    lambda a: (Ellipsis, [1, -1]),
    lambda a: (1, [0, 1]),
    lambda a: (slice(None), [0, 1], 1),
    lambda a: ([[0], [1]], [0, 1]),
    lambda a: (True,),
    lambda a: (False, 0),
    lambda a: (a > a.mean(),),
    lambda a: (np.array([[1]]), Ellipsis, [0, 2]),
    lambda a: (slice(1, None, -1), [2, 0, 1]),
    lambda a: ([1, 0], slice(None), slice(None, None, 2)),
    lambda a: (None, [0], Ellipsis, 0),
    lambda a: ((0, 1),),
]


@pytest.mark.parametrize("form", range(len(FORMS)))
def test_getitem_forms(device, rng, form):
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    x = gt.tensor(a, device=device)
    _check(x, a, FORMS[form](a))


def test_getitem_random_index_sets(device, rng):
    for _ in range(6 if device == "cpu" else 3):
        shape = tuple(rng.integers(1, 4, size=rng.integers(1, 4)))
        a = rng.integers(-50, 50, size=shape)
        x = gt.tensor(a, device=device)
        k = int(rng.integers(1, len(shape) + 1))
        bshape = tuple(rng.integers(1, 3, size=rng.integers(1, 3)))
        idx = tuple(rng.integers(-n, n, size=bshape) for n in shape[:k])
        _check(x, a, idx)
        _check(x, a, (slice(None),) + idx[1:] if k > 1 else idx)


def test_index_with_tensors_of_other_int_dtypes(device, rng):
    a = rng.standard_normal((4, 3))
    x = gt.tensor(a, device=device)
    idx = gt.tensor([3, 0], dtype=gt.int32, device=device)
    np.testing.assert_array_equal(x[idx].cpu().numpy(), a[[3, 0]])
    np.testing.assert_array_equal(x[gt.tensor([3, 0])].cpu().numpy(), a[[3, 0]])


@pytest.mark.parametrize("form", [0, 1, 2, 3, 6, 7, 10, 13])
def test_setitem_forms_broadcast_and_version(device, rng, form):
    a = rng.standard_normal((3, 4, 5))
    x = gt.tensor(a, device=device)
    idx = FORMS[form](a)
    target_shape = a[idx].shape
    value = rng.standard_normal(target_shape[-1:] if target_shape else ())
    before = x._version
    x[idx] = gt.tensor(value, device=device)
    a[idx] = value
    np.testing.assert_array_equal(x.cpu().numpy(), a)
    assert x._version > before
    x[idx] = 2.5
    a[idx] = 2.5
    np.testing.assert_array_equal(x.cpu().numpy(), a)


def test_setitem_converts_dtype_and_mask_assign(device, rng):
    a = rng.integers(-5, 5, size=(4, 4))
    x = gt.tensor(a, device=device)
    x[x.cpu().numpy() > 0] = 0
    a[a > 0] = 0
    np.testing.assert_array_equal(x.cpu().numpy(), a)
    x[[1, 2]] = gt.tensor([7.9, 8.2, 1.0, 2.0], device=device)
    a[[1, 2]] = np.array([7.9, 8.2, 1.0, 2.0]).astype(a.dtype)
    np.testing.assert_array_equal(x.cpu().numpy(), a)


def test_setitem_drops_leading_size_one_dims_of_the_value(device):
    x = gt.zeros(2, 3, device=device)
    x[0] = gt.ones(1, 3, device=device)  # a basic index, as an advanced one already did
    x[1, 1:] = gt.full((1, 1, 2), 2.0, device=device)
    assert x.tolist() == [[1.0, 1.0, 1.0], [0.0, 2.0, 2.0]]
    with pytest.raises(IndexError, match=r"^\[setitem\] shape mismatch: value of shape"):
        x[0] = gt.ones(2, 3, device=device)


@pytest.mark.parametrize("idx, dim, size, value", [
    (([0, 3],), 0, 3, 3), ((slice(None), [-5]), 1, 4, -5), ((0, [1], [9]), 2, 5, 9)])
def test_out_of_range_raises_on_every_device(device, idx, dim, size, value):
    x = gt.zeros(3, 4, 5, device=device)
    msg = f"[getitem] index {value} is out of bounds for dimension {dim} with size {size}"
    # a CUDA device reports a bad index at the next synchronizing call (.cpu() here)
    with pytest.raises(IndexError) as e:
        x[idx].cpu()
    assert str(e.value) == msg
    with pytest.raises(IndexError, match=r"^\[setitem\] index"):
        x[idx] = 1.0
        x.cpu()


def test_bad_indices(device):
    x = gt.zeros(3, 4, device=device)
    with pytest.raises(IndexError, match=r"^\[getitem\] boolean index did not match"):
        x[gt.tensor([True, False], device=device)]
    with pytest.raises(IndexError, match=r"^\[getitem\] tensors used as indices"):
        x[gt.tensor([0.0, 1.0], device=device)]
    with pytest.raises(IndexError, match=r"^\[getitem\] too many indices"):
        x[[0], [0], [0]]
    with pytest.raises(IndexError, match=r"^\[getitem\] an index can only have a single"):
        x[..., [0], ...]
    with pytest.raises(ValueError, match=r"^\[getitem\] shapes"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(ValueError, match=r"^\[setitem\] shapes"):
        x[[0, 1]] = gt.ones(3, device=device)


def test_empty_index_results(device):
    a = np.arange(12.0).reshape(3, 4)
    x = gt.tensor(a, device=device)
    _check(x, a, (np.array([], dtype=np.int64),))
    _check(x, a, (a > 100,))
    x[a > 100] = 1.0
    np.testing.assert_array_equal(x.cpu().numpy(), a)
