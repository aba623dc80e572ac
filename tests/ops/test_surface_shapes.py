"""diag_embed, diagflat, sum_to_size, split_with_sizes, index_reduce and the in-place view
ops (squeeze_, t_, as_strided_...) against torch: values, gradients, refusals."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")
A = np.arange(6.0).reshape(2, 3)


def same(got, want, **tol):
    want = want.detach()
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), **tol)


def test_diag_embed_and_diagflat(device):
    x = gt.tensor(A, device=device, requires_grad=True)
    tx = torch.tensor(A, requires_grad=True)
    for off, d1, d2 in [(0, -2, -1), (1, 0, 2), (-1, 2, 0)]:
        same(gt.diag_embed(x, off, d1, d2), torch.diag_embed(tx, off, d1, d2))
    out, tout = x.diag_embed(1), tx.diag_embed(1)
    w = np.random.default_rng(0).standard_normal(tuple(tout.shape))
    (out * gt.tensor(w, device=device)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad)
    same(gt.diagflat(x, -1), torch.diagflat(tx, -1))
    with pytest.raises(gt.ShapeError, match=r"\[diag_embed\]"):
        gt.diag_embed(x, 0, 1, -2)


def test_sum_to_size_and_splits(device):
    x, tx = gt.tensor(A, device=device), torch.tensor(A)
    same(x.sum_to_size(3), tx.sum_to_size(3))
    same(x.sum_to_size(2, 1), tx.sum_to_size(2, 1))
    same(x.sum_to_size((1, 1)), tx.sum_to_size((1, 1)))
    with pytest.raises(gt.ShapeError, match=r"\[sum_to_size\].*not expandable"):
        x.sum_to_size(2)
    for got, want in zip(gt.split_with_sizes(x, [1, 2], 1), tx.split_with_sizes([1, 2], 1),
                         strict=True):
        same(got, want)
    with pytest.raises(gt.ShapeError, match=r"\[split_with_sizes\]"):
        x.split_with_sizes([1, 1], 1)
    assert [p.shape for p in x.unsafe_chunk(2, 1)] == [tuple(p.shape)
                                                      for p in tx.unsafe_chunk(2, 1)]
    assert [p.shape for p in gt.unsafe_split(x, 2, 1)] == [(2, 2), (2, 1)]


@pytest.mark.filterwarnings("ignore:index_reduce")
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce(reduce, device):
    src = np.array([[1.0, 5, 3], [2, 2, 7], [4, 0, 1], [3, 3, 3]])
    w = np.random.default_rng(1).standard_normal((2, 3))
    for include_self in (True, False):
        x = gt.tensor(A, device=device, requires_grad=True)
        s = gt.tensor(src, device=device, requires_grad=True)
        tx, ts = torch.tensor(A, requires_grad=True), torch.tensor(src, requires_grad=True)
        idx = [1, 0, 1, 1]
        out = x.index_reduce(0, gt.tensor(idx, device=device), s, reduce,
                             include_self=include_self)
        tout = tx.index_reduce(0, torch.tensor(idx), ts, reduce, include_self=include_self)
        same(out, tout)
        (out * gt.tensor(w, device=device)).sum().backward()
        (tout * torch.tensor(w)).sum().backward()
        same(x.grad, tx.grad)
        same(s.grad, ts.grad)
    y = gt.tensor(A, device=device)
    ty = torch.tensor(A)
    src2 = np.array([[1.0, 4.0], [2.0, 0.5]])
    y.index_reduce_(1, gt.tensor([2, 2], device=device), gt.tensor(src2, device=device), reduce)
    ty.index_reduce_(1, torch.tensor([2, 2]), torch.tensor(src2), reduce)
    same(y, ty)
    with pytest.raises(ValueError, match=r"\[index_reduce\].*reduce"):
        gt.index_reduce(y, 0, gt.tensor([0], device=device), y[:1].clone(), "sum")
    with pytest.raises(gt.ShapeError, match=r"\[index_reduce_\]"):
        y.index_reduce_(0, gt.tensor([0], device=device), y[:1, :2].clone(), reduce)
    with pytest.raises(gt.DTypeError, match=r"\[index_reduce_\].*same dtype"):
        y.index_reduce_(0, gt.tensor([0], device=device), gt.ones(1, 3, device=device), reduce)


def test_in_place_view_ops(device):
    x = gt.arange(6.0, device=device).reshape(2, 1, 3)
    tx = torch.arange(6.0).reshape(2, 1, 3)
    assert x.squeeze_(1) is x
    tx.squeeze_(1)
    same(x, tx)
    same(x.unsqueeze_(0), tx.unsqueeze_(0))
    same(x.transpose_(0, 2), tx.transpose_(0, 2))
    same(x.swapaxes_(1, 2).swapdims_(0, 1), tx.swapaxes_(1, 2).swapdims_(0, 1))
    m, tm = gt.ones(2, 3, device=device), torch.ones(2, 3)
    same(m.t_(), tm.t_())
    f, tf = gt.arange(6.0, device=device), torch.arange(6.0)
    same(f.as_strided_((2, 2), (1, 2), 1), tf.as_strided_((2, 2), (1, 2), 1))
    f.add_(1)
    assert gt.arange(6.0).tolist()[0] == 0.0 and f.tolist() == (tf + 1).tolist()


def test_in_place_view_ops_under_autograd(device):
    leaf = gt.ones(2, 1, device=device, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"\[squeeze_\] a leaf Variable"):
        leaf.squeeze_()
    with gt.no_grad():
        leaf.squeeze_()
    assert leaf.shape == (2,)
    x = gt.tensor([[1.0, 2.0, 3.0]], device=device, requires_grad=True)
    tx = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y, ty = x * 2, tx * 2
    y.t_().squeeze_(1)
    ty.t_().squeeze_(1)
    w = [1.0, -2.0, 0.5]
    (y * y * gt.tensor(w, device=device)).sum().backward()
    (ty * ty * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad)
