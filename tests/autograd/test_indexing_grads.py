"""Gradients of the indexing, shape, sorting and masking ops.

Finite-difference checks (float64) of every differentiable op on cpu, a
subset with tiny shapes on cuda (simulated without a GPU), second
derivatives of the index primitives, differentiating through in-place writes
on non-leaf tensors, tie and zero rules of ``scatter_reduce`` against
PyTorch when it is installed, and the error cases.
"""

from collections.abc import Callable

import numpy as np
import pytest

import gtensor as gt
from gtensor.autograd import gradcheck, gradgradcheck


def _leaf(rng: np.random.Generator, shape: tuple[int, ...], device: str) -> gt.Tensor:
    return gt.tensor(rng.standard_normal(shape), dtype=gt.float64, device=device,
                     requires_grad=True)


def _idx(values, device: str) -> gt.Tensor:
    return gt.tensor(values, dtype=gt.int64, device=device)


def _mask(values, device: str) -> gt.Tensor:
    return gt.tensor(values, dtype=gt.bool, device=device)


# name -> (input shapes, function of (device, *inputs)); inputs are float64 leaves.
CASES: dict[str, tuple[tuple[tuple[int, ...], ...], Callable]] = {
    "getitem_list": (((3, 2),), lambda d, x: x[[2, 0, 2]]),
    "getitem_mixed": (((3, 4),), lambda d, x: x[_idx([[0], [2]], d), 1:3]),
    "getitem_mask": (((2, 3),), lambda d, x: x[_mask([[True, False, True], [False, True, True]],
                                                     d)]),
    "getitem_int_and_list": (((2, 3),), lambda d, x: x[1, [0, 2, 2]]),
    "index_put": (((4,), (2,)), lambda d, x, v: x.index_put((_idx([3, 1], d),), v)),
    "index_put_accumulate": (((4,), (3,)),
                             lambda d, x, v: x.index_put((_idx([1, 1, 0], d),), v, True)),
    "gather": (((3, 2),), lambda d, x: x.gather(0, _idx([[2, 0], [2, 2]], d))),
    "scatter": (((3, 2), (2, 2)), lambda d, x, s: x.scatter(0, _idx([[2, 0], [1, 2]], d), s)),
    "scatter_larger_src": (((3, 2), (2, 3)),
                           lambda d, x, s: x.scatter(0, _idx([[2, 0], [1, 2]], d), s)),
    "scatter_value": (((3, 2),), lambda d, x: x.scatter(1, _idx([[1], [0], [1]], d), 0.5)),
    "scatter_add": (((3, 2), (2, 2)),
                    lambda d, x, s: x.scatter_add(0, _idx([[2, 0], [2, 2]], d), s)),
    "index_select": (((3, 2),), lambda d, x: x.index_select(0, _idx([2, 0, 2], d))),
    "index_add": (((3, 2), (2, 2)),
                  lambda d, x, s: x.index_add(0, _idx([2, 2], d), s, alpha=-1.5)),
    "index_copy": (((3, 2), (2, 2)), lambda d, x, s: x.index_copy(0, _idx([2, 0], d), s)),
    "index_fill": (((3, 2),), lambda d, x: x.index_fill(1, _idx([1], d), 2.0)),
    "index_fill_tensor_value": (((3, 2), ()),
                                lambda d, x, v: x.index_fill(0, _idx([0, 2, 0], d), v)),
    "take": (((2, 3),), lambda d, x: x.take(_idx([[5, 0], [5, 3]], d))),
    "take_along_dim": (((2, 3),), lambda d, x: x.take_along_dim(_idx([[2, 0, 1]], d), 1)),
    "take_along_dim_flat": (((2, 3),), lambda d, x: x.take_along_dim(_idx([4, 4, 0], d))),
    "masked_fill": (((2, 3),), lambda d, x: x.masked_fill(_mask([True, False, True], d), 1.0)),
    "masked_fill_tensor_value": (((2, 3), ()), lambda d, x, v: x.masked_fill(
        _mask([[True, False, True], [False, False, True]], d), v)),
    "masked_select": (((2, 3),), lambda d, x: x.masked_select(_mask([False, True, True], d))),
    "cat": (((2, 2), (1, 2)), lambda d, a, b: gt.cat([a, b, gt.ones(1, 2, device=d)], 0)),
    "cat_dim1": (((2, 1), (2, 3)), lambda d, a, b: gt.cat([a, b], 1)),
    "stack": (((2, 2), (2, 2)), lambda d, a, b: gt.stack([a, b], 1)),
    "split": (((5, 2),), lambda d, x: x.split([2, 3])),
    "chunk": (((5, 2),), lambda d, x: gt.chunk(x, 2)),
    "flip": (((2, 3),), lambda d, x: x.flip((0, 1))),
    "roll": (((2, 3),), lambda d, x: x.roll((1, -1), (0, 1))),
    "roll_flat": (((2, 3),), lambda d, x: x.roll(4)),
    "repeat": (((2, 3),), lambda d, x: x.repeat(2, 1, 2)),
    "tile": (((2, 2),), lambda d, x: x.tile(2)),
    "repeat_interleave": (((3, 2),), lambda d, x: x.repeat_interleave(2, 1)),
    "repeat_interleave_counts": (((3,),), lambda d, x: x.repeat_interleave(_idx([2, 0, 3], d))),
    "pad_constant": (((2, 3),), lambda d, x: gt.pad(x, (1, -1, 2, 0), value=3.0)),
    "pad_reflect": (((2, 3),), lambda d, x: gt.pad(x, (2, 1), mode="reflect")),
    "pad_replicate": (((2, 3),), lambda d, x: gt.pad(x, (1, 2, 1, 0), mode="replicate")),
    "pad_circular": (((2, 3),), lambda d, x: gt.pad(x, (3, 1, 1, 2), mode="circular")),
    "tril": (((3, 3),), lambda d, x: x.tril(-1)),
    "triu": (((2, 2, 3),), lambda d, x: x.triu(1)),
    "diag_of_vector": (((3,),), lambda d, x: x.diag(1)),
    "diag_of_matrix": (((3, 4),), lambda d, x: x.diag(-1)),
    "diagonal": (((2, 3, 2),), lambda d, x: x.diagonal(0, 0, 2)),
    "trace": (((3, 4),), lambda d, x: x.trace()),
    "sort": (((2, 4),), lambda d, x: x.sort(1).values),
    "sort_descending_dim0": (((3, 2),), lambda d, x: x.sort(0, descending=True).values),
    "topk": (((2, 4),), lambda d, x: x.topk(2).values),
    "topk_smallest": (((4, 2),), lambda d, x: x.topk(3, 0, largest=False).values),
    "kthvalue": (((3, 4),), lambda d, x: x.kthvalue(2, 1).values),
    "kthvalue_keepdim": (((3, 2),), lambda d, x: x.kthvalue(3, 0, keepdim=True).values),
}

REDUCE_INDEX = [[0, 2, 0], [2, 2, 1]]
for _reduce in ("sum", "mean", "amax", "amin", "prod"):
    for _inc in (True, False):
        CASES[f"scatter_reduce_{_reduce}_{'self' if _inc else 'noself'}"] = (
            ((3, 3), (2, 3)), lambda d, x, s, r=_reduce, inc=_inc: x.scatter_reduce(
                0, _idx(REDUCE_INDEX, d), s, r, include_self=inc))

CUDA_CASES = ["getitem_list", "getitem_mask", "index_put_accumulate", "gather", "scatter",
              "scatter_add", "index_select", "index_add", "masked_fill", "cat", "roll",
              "pad_constant", "tril", "diag_of_vector", "sort", "scatter_reduce_amax_self"]


def _check(name: str, device: str, rng: np.random.Generator) -> None:
    shapes, fn = CASES[name]
    inputs = [_leaf(rng, s, device) for s in shapes]
    assert gradcheck(lambda *xs: fn(device, *xs), inputs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck_cpu(name, rng):
    _check(name, "cpu", rng)


@pytest.mark.parametrize("name", CUDA_CASES)
def test_gradcheck_cuda(name, rng):
    _check(name, "cuda", rng)


@pytest.mark.parametrize("name", ["gather", "index_select", "cat", "getitem_list",
                                  "scatter_add", "index_put"])
def test_gradgradcheck(name, rng):
    shapes, fn = CASES[name]
    inputs = [_leaf(rng, s, "cpu") for s in shapes]
    assert gradgradcheck(lambda *xs: fn("cpu", *xs), inputs)


def test_setitem_on_a_non_leaf_gives_grads_to_both_sides(device):
    x = gt.tensor([1.0, 2.0, 3.0, 4.0], dtype=gt.float64, device=device, requires_grad=True)
    y = gt.tensor([10.0, 20.0], dtype=gt.float64, device=device, requires_grad=True)
    w = gt.tensor([1.0, 2.0, 3.0, 4.0], dtype=gt.float64, device=device)
    h = x * 2
    h[_idx([3, 0], device)] = y * 3
    (h * w).sum().backward()
    assert x.grad.tolist() == [0.0, 4.0, 6.0, 0.0]
    assert y.grad.tolist() == [12.0, 3.0]


def test_setitem_with_a_mask_through_a_view_of_a_non_leaf():
    x = gt.tensor([[1.0, -2.0], [-3.0, 4.0]], dtype=gt.float64, requires_grad=True)
    v = gt.tensor(5.0, dtype=gt.float64, requires_grad=True)
    h = x * 1.0
    row = h[1]
    row[_mask([True, False], "cpu")] = v * 2
    (h * gt.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=gt.float64)).sum().backward()
    assert x.grad.tolist() == [[1.0, 2.0], [0.0, 4.0]]
    assert v.grad.item() == 6.0
    assert h.tolist() == [[1.0, -2.0], [10.0, 4.0]]


def test_setitem_gradcheck_through_the_written_tensor(rng):
    def fn(x, y):
        h = x * 1.0
        h[[3, 0]] = y[:2] * y[1:]
        h[h.detach() > 10.0] = y[0]  # an empty mask write is still recorded
        return h * h

    x, y = _leaf(rng, (4,), "cpu"), _leaf(rng, (3,), "cpu")
    assert gradcheck(fn, (x, y))


def test_inplace_scatter_and_friends_on_a_non_leaf(device):
    x = gt.tensor([1.0, 2.0, 3.0], dtype=gt.float64, device=device, requires_grad=True)
    s = gt.tensor([5.0, 7.0], dtype=gt.float64, device=device, requires_grad=True)
    w = gt.tensor([1.0, 10.0, 100.0], dtype=gt.float64, device=device)
    h = x * 2
    h.scatter_(0, _idx([2, 0], device), s * 3)
    (h * w).sum().backward()
    assert x.grad.tolist() == [0.0, 20.0, 0.0]
    assert s.grad.tolist() == [300.0, 3.0]

    x.grad = s.grad = None
    h = x * 1.0
    h.scatter_add_(0, _idx([1, 1], device), s)
    h.index_add_(0, _idx([2], device), s[:1], alpha=2.0)
    h.masked_fill_(_mask([True, False, False], device), 0.0)
    (h * w).sum().backward()
    assert x.grad.tolist() == [0.0, 10.0, 100.0]
    assert s.grad.tolist() == [10.0 + 200.0, 10.0]


def test_inplace_scatter_reduce_keeps_its_saved_input():
    x = gt.tensor([1.0, 4.0], dtype=gt.float64, requires_grad=True)
    s = gt.tensor([3.0, 4.0, 2.0], dtype=gt.float64, requires_grad=True)
    h = x * 1.0
    h.scatter_reduce_(0, _idx([0, 1, 1], "cpu"), s, "amax")
    h.sum().backward()
    assert h.tolist() == [3.0, 4.0]
    assert x.grad.tolist() == [0.0, 0.5]  # the tie at position 1 is split evenly
    assert s.grad.tolist() == [1.0, 0.5, 0.0]


def test_index_put_accumulate_and_index_fill_value_grads():
    x = gt.zeros(3, dtype=gt.float64, requires_grad=True)
    v = gt.tensor([1.0, 2.0, 3.0], dtype=gt.float64, requires_grad=True)
    out = x.index_put((_idx([0, 0, 2], "cpu"),), v, accumulate=True)
    assert out.tolist() == [3.0, 0.0, 3.0]
    (out * gt.tensor([1.0, 2.0, 3.0], dtype=gt.float64)).sum().backward()
    assert v.grad.tolist() == [1.0, 1.0, 3.0] and x.grad.tolist() == [1.0, 2.0, 3.0]
    value = gt.tensor(2.0, dtype=gt.float64, requires_grad=True)
    filled = gt.ones(2, 3, dtype=gt.float64).index_fill(1, _idx([2, 0, 2], "cpu"), value)
    filled.sum().backward()
    assert value.grad.item() == 4.0  # a repeated index fills (and counts) once


def _scatter_reduce_pair(torch, reduce, include_self):
    self_np = np.array([[2.0, 0.0, 1.0], [5.0, 3.0, 0.0], [1.0, 2.0, 4.0]])
    src_np = np.array([[5.0, 0.0, 1.0], [1.0, 3.0, 0.0], [5.0, 0.0, 4.0]])
    index = [[0, 0, 2], [2, 0, 2], [0, 1, 2]]
    g = np.arange(9.0).reshape(3, 3) + 1
    ours, theirs = [], []
    for lib, make in ((gt, lambda a: gt.tensor(a, dtype=gt.float64, requires_grad=True)),
                      (torch, lambda a: torch.tensor(a, requires_grad=True))):
        x, s = make(self_np), make(src_np)
        idx = lib.tensor(index)
        out = x.scatter_reduce(0, idx, s, reduce, include_self=include_self)
        out.backward(lib.tensor(g) if lib is torch else gt.tensor(g, dtype=gt.float64))
        (ours if lib is gt else theirs).append(
            [np.asarray(t.detach().numpy()) for t in (out, x.grad, s.grad)])
    return ours[0], theirs[0]


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_ties_and_zeros_match_pytorch(reduce, include_self):
    torch = pytest.importorskip("torch")
    ours, theirs = _scatter_reduce_pair(torch, reduce, include_self)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_scatter_with_multiply_has_no_gradient():
    x = gt.ones(3, dtype=gt.float64, requires_grad=True)
    out = x.scatter(0, _idx([1], "cpu"), 2.0, reduce="multiply")
    with pytest.raises(RuntimeError, match=r"^\[scatter\] the derivative of scatter with "
                                           r"reduce='multiply' is not implemented"):
        out.sum().backward()


@pytest.mark.parametrize("write", [
    lambda x: x.__setitem__(_idx([0], "cpu"), 1.0),
    lambda x: x.scatter_(0, _idx([0], "cpu"), 1.0),
    lambda x: x.scatter_add_(0, _idx([0], "cpu"), gt.ones(1, dtype=gt.float64)),
    lambda x: x.scatter_reduce_(0, _idx([0], "cpu"), gt.ones(1, dtype=gt.float64), "amax"),
    lambda x: x.index_add_(0, _idx([0], "cpu"), gt.ones(1, dtype=gt.float64)),
    lambda x: x.index_copy_(0, _idx([0], "cpu"), gt.ones(1, dtype=gt.float64)),
    lambda x: x.index_fill_(0, _idx([0], "cpu"), 1.0),
    lambda x: x.index_put_((_idx([0], "cpu"),), gt.tensor(1.0, dtype=gt.float64)),
    lambda x: x.masked_fill_(_mask([True, False, False], "cpu"), 1.0),
])
def test_inplace_on_a_leaf_that_requires_grad_raises(write):
    x = gt.tensor([1.0, 2.0, 3.0], dtype=gt.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^\[\w+\] a leaf Variable that requires grad is "
                                           r"being used in an in-place operation"):
        write(x)
    assert x.tolist() == [1.0, 2.0, 3.0] and x._version == 0


def test_setitem_on_a_view_of_a_leaf_raises():
    x = gt.zeros(2, 3, dtype=gt.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^\[setitem\] a view of a leaf Variable"):
        x[0][[1, 2]] = 1.0


def test_integer_outputs_never_require_grad(device):
    x = _leaf(np.random.default_rng(0), (2, 3), device)
    values, indices = x.sort(1)
    assert values.requires_grad and not indices.requires_grad
    outs = [x.argsort(), x.topk(2).indices, x.kthvalue(1).indices, x.nonzero(), x.argwhere(),
            gt.searchsorted(values.detach(), x), gt.unique(x), x.unique(dim=0), x.histc(4),
            gt.one_hot(_idx([0, 2], device)), gt.bincount(_idx([1, 1], device))]
    assert not any(t.requires_grad for t in outs)
    assert gt.bincount(_idx([0, 1], device), weights=x[0, :2]).requires_grad is False


def test_functional_forms_match_the_methods():
    x = gt.tensor([[3.0, 1.0], [2.0, 5.0]])
    i = _idx([[1], [0]], "cpu")
    assert gt.gather(x, 1, i).tolist() == x.gather(1, i).tolist()
    assert gt.take_along_dim(x, i, 1).tolist() == [[1.0], [2.0]]
    assert gt.sort(x, 0).values.tolist() == [[2.0, 1.0], [3.0, 5.0]]
    assert gt.kthvalue(x, 1, 1).values.tolist() == [1.0, 2.0]
    assert gt.trace(x).item() == 8.0 and gt.diagonal(x).tolist() == [3.0, 5.0]
    assert gt.masked_select(x, x > 2).tolist() == [3.0, 5.0]
    assert [t.shape for t in gt.split(x, 1, 1)] == [(2, 1), (2, 1)]
    assert gt.repeat_interleave(x, 2, 0).shape == (4, 2) and gt.tile(x, (2,)).shape == (2, 4)
    for name in ("scatter", "scatter_add", "index_select", "masked_fill", "take", "nonzero",
                 "argwhere", "flip", "roll", "tril", "triu", "diag", "argsort", "topk",
                 "unique", "histc", "chunk", "index_put", "scatter_reduce"):
        assert callable(getattr(gt, name)), name
