"""Tensor gradient hooks: leaves keep their hooks across graphs; handles remove them."""

import gtensor as gt


def leaf(values, device):
    return gt.tensor(values, dtype=gt.float64, device=device, requires_grad=True)


def test_leaf_hook_runs_when_the_graph_is_built_after_registration(device):
    x = gt.ones(3, device=device, requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward()
    assert x.grad.tolist() == [20.0, 20.0, 20.0]


def test_parameter_hook_survives_several_backward_passes(device):
    w = gt.nn.Parameter(gt.tensor([1.0, 2.0], dtype=gt.float64, device=device))
    seen = []
    w.register_hook(lambda g: seen.append(g.tolist()))
    w.register_hook(lambda g: g * 3)
    for step in range(3):
        w.grad = None
        (w * float(step + 1)).sum().backward()
        assert w.grad.tolist() == [3.0 * (step + 1)] * 2
    assert seen == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]


def test_module_parameter_hook_survives_training_steps(device):
    lin = gt.nn.Linear(2, 1).to(device)
    calls = []
    lin.weight.register_hook(lambda g: calls.append(1) or g * 0)
    x = gt.ones(1, 2, device=device)
    for _ in range(3):
        lin.zero_grad()
        lin(x).sum().backward()
        assert lin.weight.grad.tolist() == [[0.0, 0.0]]
        assert lin.bias.grad.tolist() == [1.0]
    assert len(calls) == 3


def test_hook_handle_removes_only_its_own_registration(device):
    x = leaf([1.0, 2.0], device)

    def double(g):
        return g * 2

    first = x.register_hook(double)
    x.register_hook(double)
    (x * 1.0).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]
    first.remove()
    first.remove()
    x.grad = None
    (x * 1.0).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_hook_handle_as_context_manager(device):
    x = leaf([1.0], device)
    with x.register_hook(lambda g: g + 5):
        (x * 1.0).sum().backward()
    assert x.grad.tolist() == [6.0]
    x.grad = None
    (x * 1.0).sum().backward()
    assert x.grad.tolist() == [1.0]


def test_leaf_hook_applies_to_autograd_grad(device):
    x = leaf([1.0, 1.0], device)
    x.register_hook(lambda g: g * 10)
    (gx,) = gt.autograd.grad((x * 2).sum(), x)
    assert gx.tolist() == [20.0, 20.0] and x.grad is None


def test_hook_returning_none_observes_only(device):
    x = leaf([3.0], device)
    seen = []
    x.register_hook(lambda g: seen.append(g.item()))
    (x * x).sum().backward()
    assert seen == [6.0] and x.grad.tolist() == [6.0]
