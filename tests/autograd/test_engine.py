"""The engine: fan-out, diamonds, long chains, retain_graph, grad(), hooks, grad modes."""

import numpy as np
import pytest

import gtensor as gt


def leaf(values, device="cpu"):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=True)


def test_fan_out_and_diamond(device):
    x = leaf([1.0, 2.0, 3.0], device)
    a = x * 2
    b = x * x
    y = (a + b).sum()  # diamond: x -> a, b -> y
    y.backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), 2 + 2 * np.array([1.0, 2.0, 3.0]))
    assert x.grad.device == x.device


def test_grad_accumulates_across_backwards(device):
    x = leaf([1.0, -1.0], device)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


@pytest.mark.slow
def test_long_chain_has_no_recursion_limit():
    x = leaf([1.0, 2.0])
    y = x * 3.0
    for i in range(100_000):  # cheap view ops: the engine, not the kernels, is under test
        y = y.view(2) if i % 2 else y.unsqueeze(0)
    (y.view(2) * gt.tensor([1.0, 2.0], dtype=gt.float64)).sum().backward()
    assert x.grad.tolist() == [3.0, 6.0]


def test_second_backward_raises_without_retain_graph(device):
    x = leaf([2.0], device)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [8.0]
    with pytest.raises(RuntimeError, match=r"^\[backward\] Trying to backward through the "
                       r"graph a second time"):
        y.backward()


def test_autograd_grad_and_errors(device):
    x = leaf([1.0, 2.0], device)
    w = leaf([3.0, 4.0], device)
    y = (x * w).sum()
    gx, gw = gt.autograd.grad(y, (x, w), retain_graph=True)
    assert gx.tolist() == [3.0, 4.0] and gw.tolist() == [1.0, 2.0]
    assert x.grad is None  # grad() does not accumulate
    z = leaf([1.0], device)
    with pytest.raises(RuntimeError, match=r"^\[grad\] one of the differentiated tensors "
                       r"\(input 0\) appears to not have been used"):
        gt.autograd.grad(y, z, retain_graph=True)
    (gz,) = gt.autograd.grad(y, z, allow_unused=True, retain_graph=True)
    assert gz is None
    with pytest.raises(RuntimeError, match=r"^\[backward\] grad can be implicitly created only"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match=r"^\[backward\] element 0 of tensors does not "
                       r"require grad"):
        gt.ones(2).sum().backward()


def test_backward_inputs_restricts_accumulation():
    x, w = leaf([1.0]), leaf([2.0])
    (x * w).sum().backward(inputs=[w])
    assert x.grad is None and w.grad.tolist() == [1.0]


def test_grad_wrt_non_leaf():
    x = leaf([1.0, 2.0])
    h = x * 3
    y = (h * h).sum()
    (gh,) = gt.autograd.grad(y, h)
    assert gh.tolist() == [6.0, 12.0]


def test_broadcasting_is_summed_back(device):
    x = leaf([[1.0], [2.0]], device)  # (2, 1)
    b = leaf([1.0, 2.0, 3.0], device)  # (3,)
    (x * b).sum().backward()
    assert x.grad.shape == (2, 1) and x.grad.tolist() == [[6.0], [6.0]]
    assert b.grad.tolist() == [3.0, 3.0, 3.0]


def test_hooks_and_retain_grad():
    x = leaf([1.0, 2.0])
    h = x * 2
    h.retain_grad()
    seen = []
    h.register_hook(lambda g: seen.append(g.tolist()))
    handle = x.register_hook(lambda g: g * 10)
    post = []
    x.register_post_accumulate_grad_hook(lambda t: post.append(t.grad.tolist()))
    (h * h).sum().backward()
    assert h.grad.tolist() == [4.0, 8.0] and seen == [[4.0, 8.0]]
    assert x.grad.tolist() == [80.0, 160.0] and post == [[80.0, 160.0]]
    handle.remove()
    x.grad = None
    (x * 1.0).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match=r"^\[register_hook\] cannot register a hook"):
        gt.ones(2).register_hook(lambda g: g)


def test_grad_modes():
    x = leaf([1.0])
    with gt.no_grad():
        y = x * 2
        with gt.enable_grad():
            z = x * 2
    assert not y.requires_grad and y.grad_fn is None and z.requires_grad
    with gt.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    with gt.inference_mode():
        assert not (x * 2).requires_grad
    assert gt.is_grad_enabled()

    @gt.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad

    @gt.no_grad
    def g(t):
        return t * 2

    @gt.inference_mode
    def h(t):
        return t * 2

    with gt.no_grad():
        assert gt.enable_grad(g)(x).requires_grad is False
        assert gt.enable_grad(lambda t: t * 2)(x).requires_grad
    assert not g(x).requires_grad and not h(x).requires_grad and gt.is_grad_enabled()
    assert not x.detach().requires_grad
    assert (x * 2).detach().grad_fn is None


def test_integer_results_never_require_grad():
    x = leaf([1.5, -2.0])
    assert not (x > 0).requires_grad
    assert not x.to(gt.int64).requires_grad or x.to(gt.int64).grad_fn is None


def test_backward_on_cuda_makes_no_host_transfers():
    x = leaf(np.linspace(-1, 1, 8), "cuda")
    w = leaf(np.linspace(0, 1, 8), "cuda")
    y = ((x * w).tanh() * x).sum()
    before = gt.transfer_count()
    y.backward()
    assert gt.transfer_count() == before
    assert x.grad.device == gt.device("cuda:0")


def test_anomaly_mode_names_the_forward_op():
    x = leaf([0.0])
    with gt.autograd.detect_anomaly():
        y = x.sqrt()  # d sqrt at 0 is inf; times 0 gives nan
        z = (y * 0.0).sum()
        with pytest.raises(RuntimeError, match=r"returned nan values.*created at"):
            z.backward()
    with gt.autograd.set_detect_anomaly(True):
        assert gt.autograd.is_anomaly_enabled()
    gt.autograd.set_detect_anomaly(True)
    assert gt.is_anomaly_enabled() and gt.is_inference_mode_enabled() is False
    gt.autograd.set_detect_anomaly(False)
    assert not gt.autograd.is_anomaly_enabled()


def test_repr_shows_grad_fn():
    y = leaf([1.0]) * 2
    assert repr(y) == "tensor([2.], dtype=gtensor.float64, grad_fn=<MulBackward>)"


def test_first_grad_is_kept_without_copy_only_when_unshared(device):
    """A gradient only the engine holds becomes .grad as it is; one that anyone else can
    reach (the caller's gradient, a hook's list, a NumPy view, another leaf) is copied, so
    that later in-place accumulation changes no one else's data."""
    w = gt.randn(4, 3, device=device, requires_grad=True)
    x = gt.randn(5, 3, device=device)
    (x @ w.T).sum().backward()
    assert w.grad._base is None and w.grad.is_contiguous()
    np.testing.assert_allclose(w.grad.cpu().numpy(), np.tile(x.sum(0).cpu().numpy(), (4, 1)),
                               rtol=1e-5)

    given = gt.ones(3, device=device)
    held, arrays = [], []
    a = leaf([1.0, 2.0, 3.0], device)
    b = leaf([1.0, 2.0, 3.0], device)
    c = leaf([1.0, 2.0, 3.0], device)
    d = leaf([1.0, 2.0, 3.0], device)
    b.register_hook(held.append)
    d.register_hook(lambda g: arrays.append(g.cpu().numpy()) if device == "cpu" else None)
    for _ in range(2):
        (a * 1).backward(given)
        (b * 2).sum().backward()
        (c + d).sum().backward()
    assert given.tolist() == [1.0, 1.0, 1.0]
    assert held[0].tolist() == [2.0, 2.0, 2.0]
    assert a.grad.tolist() == [2.0, 2.0, 2.0] and b.grad.tolist() == [4.0, 4.0, 4.0]
    assert c.grad.tolist() == d.grad.tolist() == [2.0, 2.0, 2.0]
    if arrays:
        assert arrays[0].tolist() == [1.0, 1.0, 1.0]


def test_grad_materialize_grads_and_batched_grad_outputs():
    x, z = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    gx, gz = gt.autograd.grad((x * x).sum(), [x, z], materialize_grads=True)
    assert gx.tolist() == [2.0, 4.0] and gz.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"^\[grad\]"):
        gt.autograd.grad((x * x).sum(), [x, z], allow_unused=False, materialize_grads=True)
    y = x * gt.tensor([2.0, 3.0])
    (jac,) = gt.autograd.grad(y, x, gt.eye(2), is_grads_batched=True)
    assert jac.tolist() == [[2.0, 0.0], [0.0, 3.0]]


def test_detach_in_place():
    x = leaf([1.0, 2.0])
    y = x * 2
    assert y.detach_() is y and not y.requires_grad and y.is_leaf
    assert not x.detach_().requires_grad
    with pytest.raises(RuntimeError, match=r"^\[detach_\]"):
        gt.ones(3)[1:].detach_()
