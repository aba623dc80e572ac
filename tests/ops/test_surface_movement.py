"""Shape and movement functions against torch: views share storage, values and gradients
match, bad input raises a typed error naming the op."""

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

A = np.random.default_rng(3).standard_normal((3, 4))


def pair(a, device="cpu", grad=True):
    return (gt.tensor(a, device=device, requires_grad=grad),
            torch.tensor(a, requires_grad=grad))


def same(got, want):
    want = want.detach()
    assert got.shape == tuple(want.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


def check(fn, tfn, *arrays, device="cpu"):
    """Values of ``fn`` and the gradients of ``sum(fn(*xs) * w)`` match torch's."""
    xs, txs = zip(*(pair(a, device) for a in arrays), strict=True)
    out, tout = fn(*xs), tfn(*txs)
    outs, touts = (out, tout) if isinstance(out, tuple) else ((out,), (tout,))
    total, ttotal = 0.0, 0.0
    for i, (o, to) in enumerate(zip(outs, touts, strict=True)):
        same(o, to)
        w = np.random.default_rng(i).standard_normal(tuple(to.shape))
        total = total + (o * gt.tensor(w, device=device)).sum()
        ttotal = ttotal + (to * torch.tensor(w)).sum()
    total.backward()
    ttotal.backward()
    for x, tx in zip(xs, txs, strict=True):
        same(x.grad, tx.grad)


def test_views_on_each_device(device):
    check(lambda x: x.as_strided((3, 3), (2, 1), 1), lambda x: x.as_strided((3, 3), (2, 1), 1),
          A, device=device)
    check(lambda x: x.unfold(1, 2, 1), lambda x: x.unfold(1, 2, 1), A, device=device)
    check(lambda x: gt.movedim(x.reshape(3, 2, 2), (0, 1), (2, 0)),
          lambda x: torch.movedim(x.reshape(3, 2, 2), (0, 1), (2, 0)), A, device=device)
    check(lambda x, y: gt.select_scatter(x, y[0, :4], 0, 1),
          lambda x, y: torch.select_scatter(x, y[0, :4], 0, 1), A, A, device=device)
    m = A > 0
    check(lambda x, y: x.masked_scatter(gt.tensor(m, device=device), y),
          lambda x, y: x.masked_scatter(torch.tensor(m), y), A, A[::-1].copy(), device=device)


def test_views_share_storage():
    x = gt.arange(12.0).reshape(3, 4)
    for v in (x.as_strided((2, 2), (1, 4)), x.unfold(1, 2, 2), x.movedim(0, 1), x.swapdims(0, 1),
              x.ravel(), *x.tensor_split(3, 1), *gt.broadcast_tensors(x, gt.ones(4))[:1]):
        assert v._storage is x._storage
    x.unfold(1, 2, 2)[0, 1, 0] = -1.0
    assert x[0, 2].item() == -1.0
    assert x.flipud()._storage is not x._storage
    e = gt.empty_strided((2, 3), (1, 2))
    assert e.stride() == (1, 2) and e._storage.nbytes == 6 * 4


def test_moves_and_overlapping_windows_match_torch():
    check(lambda x: x.unfold(0, 2, 1).unfold(1, 3, 1), lambda x: x.unfold(0, 2, 1).unfold(1, 3, 1),
          A)
    check(lambda x: x.t().as_strided((2, 2), (1, 1), 2),
          lambda x: x.t().as_strided((2, 2), (1, 1), 2),
          A)
    check(lambda x: x.moveaxis(-1, 0).ravel(), lambda x: x.moveaxis(-1, 0).ravel(), A)
    check(lambda x: gt.flipud(x) * gt.fliplr(x), lambda x: torch.flipud(x) * torch.fliplr(x), A)
    check(lambda x, y: gt.broadcast_tensors(x, y[:1]),
          lambda x, y: torch.broadcast_tensors(x, y[:1]),
          A, A)
    same(gt.tensor(3.0).unfold(0, 1, 1), torch.tensor(3.0).unfold(0, 1, 1))


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack", "row_stack"])
def test_stacks(name):
    check(lambda a, b, c: getattr(gt, name)([a[0], b[1], c[2]]),
          lambda a, b, c: getattr(torch, name)([a[0], b[1], c[2]]), A, A, A)
    check(lambda a, b: getattr(gt, name)((a, b)), lambda a, b: getattr(torch, name)((a, b)), A, A)


def test_splits():
    b = np.random.default_rng(4).standard_normal((4, 6, 2))
    cases = [("tensor_split", (3,)), ("tensor_split", ([1, 5, 3], 1)), ("hsplit", (3,)),
             ("vsplit", ([1, 3],)), ("dsplit", (2,))]
    for name, args in cases:
        check(lambda x: getattr(gt, name)(x, *args), lambda x: getattr(torch, name)(x, *args), b)
    got = gt.arange(7).tensor_split(gt.tensor([2, 4]))
    assert [p.tolist() for p in got] == [[0, 1], [2, 3], [4, 5, 6]]


def test_scatters_and_in_place_writes():
    check(lambda x, y: gt.slice_scatter(x, y[:, :2], 1, 1, None, 2),
          lambda x, y: torch.slice_scatter(x, y[:, :2], 1, 1, None, 2), A, A)
    check(lambda x, y: gt.diagonal_scatter(x, y[0, :3], 1),
          lambda x, y: torch.diagonal_scatter(x, y[0, :3], 1), A, A)
    check(lambda x: (x * 1).triu_(1) + (x * 1).tril_(-1),
          lambda x: (x * 1).triu_(1) + (x * 1).tril_(-1),
          A)
    idx = np.array([0, -1, 5, 0])
    check(lambda x, y: gt.put(x, gt.tensor(idx), y[0], accumulate=True),
          lambda x, y: torch.put(x, torch.tensor(idx), y[0], accumulate=True), A, A)
    check(lambda x, y: (x * 1).put_(gt.tensor(idx[1:]), y[0, :3]),
          lambda x, y: (x * 1).put_(torch.tensor(idx[1:]), y[0, :3]), A, A)
    for shape, wrap in (((7, 3), True), ((3, 5), False), ((3, 3, 3), False)):
        want = torch.zeros(shape).fill_diagonal_(2.0, wrap)
        same(gt.zeros(shape).fill_diagonal_(2.0, wrap), want)
    m = np.array([True, False, True])
    check(lambda x, y: (x * 1).masked_scatter_(gt.tensor(m), y),
          lambda x, y: (x * 1).masked_scatter_(torch.tensor(m), y), A[:, :3].copy(), A)
    x, tx = gt.zeros(2, 3), torch.zeros(2, 3)
    x.masked_scatter_(gt.tensor(m), gt.arange(6.0))
    tx.masked_scatter_(torch.tensor(m), torch.arange(6.0))
    same(x, tx)


def test_dtype_helpers(device):
    x = gt.tensor([1, 2])
    y = x.type_as(gt.zeros(1, dtype=gt.float64, device=device))
    assert y.dtype is gt.float64 and y.device.type == device
    assert x.type_as(x) is x
    assert not gt.is_floating_point(x) and x.float().is_floating_point()


@pytest.mark.parametrize("call, error", [
    (lambda: gt.ones(6).as_strided((4,), (2,)), "as_strided"),
    (lambda: gt.ones(3).unfold(0, 4, 1), "unfold"),
    (lambda: gt.ones(3).unfold(0, 2, 0), "unfold"),
    (lambda: gt.movedim(gt.ones(2, 3), (0, 1), (0,)), "movedim"),
    (lambda: gt.fliplr(gt.ones(3)), "fliplr"),
    (lambda: gt.hsplit(gt.ones(2, 5), 2), "hsplit"),
    (lambda: gt.tensor_split(gt.ones(3), 0), "tensor_split"),
    (lambda: gt.select_scatter(gt.ones(2, 3), gt.ones(2), 0, 0), "select_scatter"),
    (lambda: gt.ones(3).masked_scatter(gt.tensor([True, True, True]), gt.ones(2)),
     "masked_scatter"),
    (lambda: gt.ones(3).masked_scatter(gt.tensor([True, True, True]), gt.ones(3).long()),
     "masked_scatter"),
    (lambda: gt.put(gt.ones(3), gt.tensor([0, 1]), gt.ones(3)), "put"),
    (lambda: gt.ones(3).fill_diagonal_(1.0), "fill_diagonal_"),
    (lambda: gt.empty_strided((2, 2), (1,)), "empty_strided"),
    (lambda: gt.broadcast_tensors(gt.ones(2), gt.ones(3)), "broadcast_tensors"),
])
def test_bad_input_names_the_op(call, error):
    with pytest.raises((gt.GTensorError, ValueError, TypeError), match=rf"^\[{error}\]"):
        call()
