"""Reduction edge cases against PyTorch's documented behaviour: dim=(), inf norms,
degenerate var/std, uint8 any/all, and gradients at ties, zeros and nans."""

import math

import pytest

import gtensor as gt
from gtensor.autograd.gradcheck import gradcheck, gradgradcheck

nan, inf = math.nan, math.inf


def leaf(values, device):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=True)


def same(got, want, rel=0.0):
    """Elementwise equality (within ``rel``) of nested lists where nan equals nan."""
    if isinstance(want, list):
        return len(got) == len(want) and all(same(g, w, rel)
                                             for g, w in zip(got, want, strict=True))
    return (math.isnan(got) and math.isnan(want)) or math.isclose(got, want, rel_tol=rel)


def grad_of(fn, values, device):
    x = leaf(values, device)
    fn(x).sum().backward()
    return x.grad.tolist()


def test_norm_minus_inf_is_the_min_of_abs(device):
    x = gt.tensor([[2.0, -3.0, 4.0], [-5.0, 0.5, -0.5]], device=device)
    assert x.norm(p=-inf).item() == 0.5
    assert x.norm(p=-inf, dim=1).tolist() == [2.0, 0.5]
    assert x.norm(p=inf, dim=1).tolist() == [4.0, 5.0]
    assert x.norm(p=-inf, dim=0, keepdim=True).tolist() == [[2.0, 0.5, 0.5]]


def test_inf_norms_refuse_empty_reductions(device):
    for p in (inf, -inf):
        with pytest.raises(IndexError, match=r"^\[norm\]"):
            gt.zeros(0, device=device).norm(p)


def test_negative_norms_refuse_empty_reductions(device):
    for p in (-1, -0.5):
        with pytest.raises(IndexError, match=r"^\[norm\]"):
            gt.zeros(2, 0, device=device).norm(p, dim=1)
    assert gt.zeros(2, 0, device=device).norm(0.5, dim=1).tolist() == [0.0, 0.0]


def test_inf_norm_gradients_split_ties(device):
    assert grad_of(lambda x: x.norm(-inf), [2.0, -1.0, 1.0], device) == [0.0, -0.5, 0.5]
    assert grad_of(lambda x: x.norm(inf), [1.0, -3.0, 3.0], device) == [0.0, -0.5, 0.5]
    # a nan takes a share of the tie, and its sign (0) zeroes it (PyTorch)
    assert grad_of(lambda x: x.norm(inf), [2.0, nan, -3.0, nan], device) == [0.0] * 4


def test_norm_gradients_at_zero(device):
    assert grad_of(lambda x: x.norm(), [0.0, 0.0], device) == [0.0, 0.0]
    assert grad_of(lambda x: x.norm(1), [0.0, -1.0, 2.0], device) == [0.0, -1.0, 1.0]
    assert grad_of(lambda x: x.norm(0.5), [0.0, -1.0, 4.0], device) == [0.0, -3.0, 1.5]
    assert grad_of(lambda x: x.norm(3), [0.0, 0.0], device) == [0.0, 0.0]
    assert grad_of(lambda x: x.norm(-1), [2.0, 0.0, -3.0], device) == [0.0, 0.0, 0.0]
    assert grad_of(lambda x: x.norm(0), [2.0, 0.0], device) == [0.0, 0.0]


@pytest.mark.parametrize("op", ["var", "std"])
def test_var_std_over_a_dim_of_size_one_are_nan(device, op):
    x = leaf([[1.0, 2.0]], device)
    y = getattr(x, op)(0)
    assert same(y.tolist(), [nan, nan])
    y.sum().backward()
    assert same(x.grad.tolist(), [[nan, nan]])


def test_var_std_degrees_of_freedom_edges(device):
    # full reduction with correction > n: inf where x differs from the mean (PyTorch)
    assert grad_of(lambda x: x.var(correction=3), [3.0, 4.0], device) == [inf, inf]
    # over a dim: 2 / (n - correction) = -2
    assert grad_of(lambda x: x.var(1, correction=3), [[3.0, 4.0]], device) == [[1.0, -1.0]]
    assert grad_of(lambda x: x.std(1, correction=3), [[3.0, 4.0]], device) == [[0.0, 0.0]]
    # a zero std has a zero gradient, not 0/0
    assert grad_of(lambda x: x.std(), [1.0, 1.0], device) == [0.0, 0.0]


def test_empty_dim_tuple_reduces_every_dim(device):
    x = gt.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
    assert x.sum(dim=()).item() == 10.0
    assert x.sum(dim=(), keepdim=True).tolist() == [[10.0]]
    assert x.mean(dim=[]).item() == 2.5
    assert x.prod(dim=()).item() == 24.0
    assert x.amax(dim=()).item() == 4.0
    assert x.amin(dim=(), keepdim=True).tolist() == [[1.0]]
    assert x.var(dim=()).item() == pytest.approx(5.0 / 3.0)
    assert x.std(dim=()).item() == pytest.approx(math.sqrt(5.0 / 3.0))
    assert x.norm(dim=()).item() == pytest.approx(math.sqrt(30.0))
    assert x.logsumexp(dim=()).item() == pytest.approx(math.log(sum(math.exp(v)
                                                                    for v in (1, 2, 3, 4))))
    assert gt.tensor([1, 2], device=device).sum(dim=()).tolist() == 3


def test_empty_dim_tuple_gradients_match_the_full_reduction(device):
    assert grad_of(lambda x: x.mean(dim=()), [[1.0, 2.0], [3.0, 5.0]], device) == [[0.25] * 2] * 2
    assert grad_of(lambda x: x.var(dim=()), [1.0, 3.0], device) == [-2.0, 2.0]


def test_any_all_reduce_nothing_over_an_empty_dim_tuple(device):
    x = gt.tensor([[1, 0], [0, 3]], device=device)
    assert x.any(dim=()).tolist() == [[True, False], [False, True]]
    assert x.all(dim=()).dtype is gt.bool
    u = gt.tensor([[1, 0], [0, 3]], dtype=gt.uint8, device=device)
    assert u.all(dim=()).dtype is gt.uint8 and u.all(dim=()).tolist() == [[1, 0], [0, 1]]


def test_any_all_keep_uint8(device):
    u = gt.tensor([[0, 2], [0, 0]], dtype=gt.uint8, device=device)
    assert u.any().dtype is gt.uint8 and u.any().item() == 1
    assert u.all().dtype is gt.uint8 and u.all().item() == 0
    assert u.any(dim=1).tolist() == [1, 0] and u.any(dim=1).dtype is gt.uint8
    assert gt.tensor([1, 2], dtype=gt.int8, device=device).all().dtype is gt.bool
    assert gt.tensor([0.0, 1.0], device=device).any().dtype is gt.bool


def test_full_max_min_split_ties_evenly(device):
    third = 1.0 / 3.0
    assert grad_of(lambda x: x.max(), [1.0, 3.0, 3.0, 2.0, 3.0], device) == [
        0.0, third, third, 0.0, third]
    assert grad_of(lambda x: x.min(), [1.0, 0.0, 0.0, 2.0], device) == [0.0, 0.5, 0.5, 0.0]


def test_full_max_min_with_nans_split_among_the_nans(device):
    assert grad_of(lambda x: x.max(), [1.0, nan, 3.0, nan], device) == [0.0, 0.5, 0.0, 0.5]
    assert grad_of(lambda x: x.min(), [nan, 1.0, -3.0], device) == [1.0, 0.0, 0.0]
    assert gt.tensor([1.0, nan], device=device).max().grad_fn is None


def test_amax_with_a_nan_gives_nan_gradients_over_the_slice(device):
    got = grad_of(lambda x: x.amax(1), [[1.0, nan, 3.0], [2.0, 0.0, 2.0]], device)
    assert same(got, [[nan, nan, nan], [0.5, 0.0, 0.5]])


def test_prod_gradient_with_zeros_is_exact(device):
    assert grad_of(lambda x: x.prod(), [2.0, 0.0, 3.0], device) == [0.0, 6.0, 0.0]
    assert grad_of(lambda x: x.prod(), [2.0, 0.0, 3.0, 0.0], device) == [0.0] * 4
    assert grad_of(lambda x: x.prod(1), [[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 3.0]],
                   device) == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [6.0, 3.0, 2.0]]
    assert grad_of(lambda x: x.prod(dim=(0, 1)), [[2.0, 0.0], [5.0, 3.0]], device) == [
        [0.0, 30.0], [0.0, 0.0]]
    # a zero and an inf: the product of the others, inf * 0 = nan only where it appears
    assert same(grad_of(lambda x: x.prod(), [2.0, inf, 0.0], device), [nan, 0.0, inf])
    assert grad_of(lambda x: x.prod(), [0.0], device) == [1.0]


def test_prod_gradients_with_zeros_pass_gradcheck(device):
    x = gt.tensor([[2.0, 0.0, 3.0], [0.0, 1.5, 0.0]], dtype=gt.float64, device=device,
                  requires_grad=True)
    assert gradcheck(lambda t: t.prod(1), (x,))
    if device == "cpu":  # the same composition of ops on both devices; cuda is the slow one
        assert gradgradcheck(lambda t: t.prod(), (x,))


def test_reduction_edges_against_torch(device):
    torch = pytest.importorskip("torch")
    values = [[2.0, 0.0, -3.0], [0.0, 0.0, 1.5], [1.0, -1.0, 1.0]]
    cases = [
        lambda m, x: x.prod(1), lambda m, x: x.norm(-inf), lambda m, x: x.norm(0.5, 1),
        lambda m, x: x.std(0), lambda m, x: x.max(), lambda m, x: x.min(),
        lambda m, x: x.amax(1), lambda m, x: x.norm(3, 0),
    ]
    for case in cases:
        x = leaf(values, device)
        case(gt, x).sum().backward()
        t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        case(torch, t).sum().backward()
        assert same(x.grad.tolist(), t.grad.tolist(), rel=1e-12)


def test_aminmax_of_an_empty_tensor_over_a_nonempty_dim(device):
    x = gt.zeros(0, 3, device=device)
    lo, hi = gt.aminmax(x, dim=1)
    assert lo.shape == hi.shape == (0,)
    assert gt.aminmax(x, dim=-1, keepdim=True).max.shape == (0, 1)
    with pytest.raises(ValueError, match=r"^\[aminmax\]"):
        gt.aminmax(x, dim=0)


def test_dim_ops_on_a_0d_tensor_run_and_differentiate(device):
    for f in (lambda x: x.max(dim=0).values, lambda x: x.min(dim=-1, keepdim=True)[0],
              lambda x: x.cumsum(0, dtype=gt.float64), lambda x: x.flip(0),
              lambda x: gt.maximum(x, x.flip(-1))):
        x = leaf(0.5, device)
        out = f(x)
        out.backward()
        assert out.shape == () and out.item() == 0.5 and x.grad.item() == 1.0


def test_norm_refuses_matrix_only_orders_by_name(device):
    with pytest.raises(ValueError, match=r"^\[norm\] p='nuc' is a matrix norm"):
        gt.norm(gt.ones(2, 2, device=device), "nuc")
