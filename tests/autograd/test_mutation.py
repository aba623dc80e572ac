"""Differentiating through in-place writes, and detecting writes to saved tensors."""

import numpy as np
import pytest

import gtensor as gt


def leaf(values, device="cpu"):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=True)


def test_setitem_gives_grads_to_both_sides(device):
    x = leaf([1.0, 2.0, 3.0, 4.0], device)
    y = leaf([10.0, 20.0], device)
    h = x * 2
    h[1:3] = y * 3
    (h * gt.tensor([1.0, 2.0, 3.0, 4.0], dtype=gt.float64, device=device)).sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 0.0, 8.0]
    assert y.grad.tolist() == [6.0, 9.0]


def test_inplace_arithmetic_on_non_leaf(device):
    x = leaf([1.0, 2.0], device)
    w = leaf([3.0, 5.0], device)
    h = x * 1.0
    h += w
    h.mul_(2)
    h.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and w.grad.tolist() == [2.0, 2.0]


def test_inplace_mul_by_tensor_uses_the_old_value():
    x = leaf([2.0, 3.0])
    w = leaf([4.0, 5.0])
    h = x * 1.0
    h.mul_(w)
    h.sum().backward()
    assert x.grad.tolist() == [4.0, 5.0] and w.grad.tolist() == [2.0, 3.0]


def test_masked_fill_on_non_leaf():
    x = leaf([1.0, -2.0, 3.0])
    h = x * 2
    h.masked_fill_(h < 0, 0.0)
    h.sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 2.0]


def test_views_of_a_mutated_base_see_the_new_history(device):
    x = leaf([1.0, 2.0, 3.0], device)
    base = x * 1.0
    view = base[:2]
    other = base[1:]
    view.mul_(10)  # writes base[0], base[1]
    (other * gt.tensor([1.0, 1.0], dtype=gt.float64, device=device)).sum().backward()
    # other = (base[1]*10, base[2]) -> d/dx = (0, 10, 1)
    assert x.grad.tolist() == [0.0, 10.0, 1.0]
    assert other.grad_fn is not None


def test_inplace_on_leaf_that_requires_grad_raises_and_changes_nothing():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"^\[add_\] a leaf Variable that requires grad is "
                       r"being used in an in-place operation"):
        x.add_(1.0)
    with pytest.raises(RuntimeError, match=r"a view of a leaf Variable"):
        x[0] = 5.0
    assert x.tolist() == [1.0, 2.0]
    with gt.no_grad():
        x.add_(1.0)  # allowed without grad recording (an optimizer step)
    assert x.tolist() == [2.0, 3.0]


def test_modifying_a_saved_tensor_raises_at_backward():
    x = leaf([1.0, 2.0])
    h = x * 1.0
    y = h * h  # saves h
    h.add_(1.0)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: mul saved a "
                       r"tensor of shape \(2,\) at version \d+; it is now at version \d+"):
        y.sum().backward()


def test_exp_saves_output_without_cycles_and_detects_mutation():
    x = leaf([0.0, 1.0])
    y = x.exp()
    y.sum().backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))
    y.add_(1.0)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation"):
        y.sum().backward()


# Each op saves what its gradient reads, as PyTorch does: the rest may change in place
# before backward (and is not kept alive by the graph).
_SAVING = [
    ("x * 3", lambda y, w: y * 3, True), ("x / 3", lambda y, w: y / 3, True),
    ("x + w", lambda y, w: y + w, True), ("x - 1", lambda y, w: y - 1, True),
    ("x * w, w constant", lambda y, w: y * w.detach(), True),
    ("w * x, w constant", lambda y, w: w.detach() * y, True),
    ("x * w", lambda y, w: y * w, False), ("w / x", lambda y, w: w / y, False),
    ("x ** 2", lambda y, w: y ** 2, False),
    ("-x", lambda y, w: -y, True), ("exp", lambda y, w: y.exp(), True),
    ("sigmoid", lambda y, w: y.sigmoid(), True), ("tanh", lambda y, w: y.tanh(), True),
    ("relu", lambda y, w: y.relu(), True), ("sqrt", lambda y, w: y.sqrt(), True),
    ("floor", lambda y, w: y.floor(), True), ("sin", lambda y, w: y.sin(), False),
    ("log", lambda y, w: y.log(), False),
]


@pytest.mark.parametrize("name, op, survives", _SAVING, ids=[s[0] for s in _SAVING])
def test_an_op_saves_only_what_its_gradient_reads(device, name, op, survives):
    torch = pytest.importorskip("torch")
    results = []
    for lib, dev in ((gt, device), (torch, "cpu")):
        x = lib.tensor([1.0, 2.0, 4.0], dtype=lib.float64, device=dev, requires_grad=True)
        w = lib.tensor([0.5, 3.0, 2.0], dtype=lib.float64, device=dev, requires_grad=True)
        y = x * 1
        out = op(y, w)
        y.add_(1)  # after the op: its gradient must not need y's old value
        try:
            out.sum().backward()
        except RuntimeError as error:
            assert "modified by an inplace operation" in str(error)
            results.append(None)
        else:
            results.append(x.grad.tolist())
    assert (results[0] is not None) == survives
    assert results[0] == pytest.approx(results[1]) if survives else results[1] is None
