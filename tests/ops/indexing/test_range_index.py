"""Indexing with Python ranges (alone, in tuples, in lists) vs PyTorch: reads, writes, grads."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

KEYS = [
    range(0, 3, 2),
    range(2, -1, -1),
    range(0),
    (range(2), 1),
    (1, range(1, 4, 2)),
    (slice(None), range(3)),
    (range(2), range(1, 3)),
    (range(2), slice(None), None),
]


def _pair(device, requires_grad=False):
    a = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 2
    x = gt.tensor(a, device=device, requires_grad=requires_grad)
    return x, torch.tensor(a, requires_grad=requires_grad)


def _same(got, want):
    assert got.shape == tuple(want.shape)
    np.testing.assert_array_equal(got.detach().cpu().numpy(), want.detach().numpy())


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_read(key):
    x, tx = _pair("cpu")
    _same(x[key], tx[key])


def test_read_write_and_grads_on_device(device):
    x, tx = _pair(device)
    for key in (range(2, -1, -2), (range(2), range(1, 3))):
        _same(x[key], tx[key])
    # a list holding ranges is one index tensor, as torch.tensor(list) reads it
    _same(x[[range(2), range(1, 3)]], tx[torch.tensor([[0, 1], [1, 2]])])

    x[range(0, 3, 2)] = gt.tensor([7.0, 8.0, 9.0, 10.0], device=device)
    tx[range(0, 3, 2)] = torch.tensor([7.0, 8.0, 9.0, 10.0])
    x[1, range(0, 4, 3)] = -1.0
    tx[1, range(0, 4, 3)] = -1.0
    _same(x, tx)

    x, tx = _pair(device, requires_grad=True)
    w = np.arange(4, dtype=np.float32)
    (x[range(2, -1, -2)] * gt.tensor(w, device=device)).sum().backward()
    (tx[range(2, -1, -2)] * torch.tensor(w)).sum().backward()
    _same(x.grad, tx.grad)


def test_write_grads_reach_target_and_values(device):
    x, tx = _pair(device, requires_grad=True)
    v = gt.tensor([[1.0, 2.0, 3.0, 4.0]], device=device, requires_grad=True)
    tv = torch.tensor([[1.0, 2.0, 3.0, 4.0]], requires_grad=True)
    y, ty = x * 2, tx * 2
    y[range(1, 3)] = v * v
    ty[range(1, 3)] = tv * tv
    _same(y, ty)
    y.sum().backward()
    ty.sum().backward()
    _same(x.grad, tx.grad)
    _same(v.grad, tv.grad)
    out = x.detach().index_put((range(1),), gt.tensor(0.0, device=device), accumulate=False)
    _same(out, tx.detach().index_put((torch.arange(1),), torch.tensor(0.0)))


def test_out_of_range():
    x, tx = _pair("cpu")
    with pytest.raises(IndexError):
        tx[range(4)]
    with pytest.raises(IndexError, match="out of bounds"):
        x[range(4)]
