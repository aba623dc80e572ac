"""0-d index tensors (like NumPy 0-d integer arrays) and typed errors for float indices and dims."""

import numpy as np
import pytest

import gtensor as gt


@pytest.mark.parametrize("form", [
    lambda i: (i(2),),
    lambda i: (slice(None), i(-1)),
    lambda i: (i(1), i(2)),
    lambda i: (i(0), slice(None), i([0, 3])),
    lambda i: (Ellipsis, i(3), None),
])
def test_zero_dim_index_tensor_matches_numpy(device, rng, form):
    a = rng.standard_normal((3, 4, 5))
    x = gt.tensor(a, device=device)
    got = x[form(lambda v: gt.tensor(v, device=device))]
    want = a[form(np.array)]
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got.cpu().numpy(), want)


def test_zero_dim_index_tensor_getitem_setitem_and_grad(device):
    x = gt.arange(5, device=device)
    got = x[gt.tensor(2, device=device)]
    assert got.shape == () and got.item() == 2
    x[gt.tensor(-1, device=device)] = 9
    assert x.tolist() == [0, 1, 2, 3, 9]
    w = gt.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    (w[gt.tensor(1, device=device)] * 4.0).backward()
    assert w.grad.tolist() == [0.0, 4.0, 0.0]


def test_take_with_zero_dim_index(device):
    x = gt.tensor([[1, 2], [3, 4]], device=device)
    got = gt.take(x, gt.tensor(2, device=device))
    assert got.shape == () and got.item() == 3
    assert x.take(gt.tensor(-1, device=device)).item() == 4


def test_zero_dim_out_of_range_index_raises(device):
    x = gt.arange(5, device=device)
    with pytest.raises(IndexError, match=r"^\[getitem\] index 7 is out of bounds for dimension 0"):
        x[gt.tensor(7, device=device)].cpu()


@pytest.mark.parametrize("index", [1.5, (0, 1.5), ([0], 2.0), (slice(None), "a")])
def test_float_index_is_a_typed_index_error(device, index):
    x = gt.zeros(3, 4, device=device)
    with pytest.raises(IndexError, match=r"^\[getitem\] only integers, slices \(`:`\), ellipsis"):
        x[index]
    with pytest.raises(IndexError, match=r"^\[getitem\] tensors used as indices must be long"):
        x[gt.tensor(1.0, device=device)]


@pytest.mark.parametrize("dim", [1.5, "1", [0.5]])
def test_non_int_dim_is_a_type_error(device, dim):
    x = gt.ones(2, 3, device=device)
    with pytest.raises(TypeError, match=r"^\[sum\] dim must be an int"):
        x.sum(dim=dim)
    with pytest.raises(TypeError, match=r"^\[sum\] dim must be an int"):
        x.sum(dim=(0, 1.0))
    with pytest.raises(IndexError, match=r"^\[sum\] dimension out of range"):
        x.sum(dim=2)
