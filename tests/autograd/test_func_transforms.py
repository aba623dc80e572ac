"""gt.func's vmap, jacrev, jacfwd, hessian and functional_call against torch.func."""

import numpy as np
import pytest
import torch

import gtensor as gt
from gtensor import func

RNG = np.random.default_rng(18)


def pair(shape, device="cpu"):
    """The same float64 values as a gtensor tensor and a torch tensor."""
    x = RNG.standard_normal(shape)
    return gt.tensor(x, device=device), torch.tensor(x)


def close(got, want, tol=1e-10):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            close(g, w, tol)
        return
    g = got.detach().cpu().numpy()
    assert g.shape == tuple(want.shape)
    np.testing.assert_allclose(g, want.detach().numpy(), rtol=tol, atol=tol)


def counted(f):
    def wrapped(*args):
        wrapped.calls += 1
        return f(*args)

    wrapped.calls = 0
    return wrapped


def test_vmap_chooses_one_batched_call_or_a_loop_and_matches_torch(device):
    x, tx = pair((5, 3), device)
    w, tw = pair((3,), device)
    elementwise = counted(lambda v, u: (v * u).sin() + v)
    close(func.vmap(elementwise, in_dims=(0, None))(x, w),
          torch.func.vmap(lambda v, u: (v * u).sin() + v, in_dims=(0, None))(tx, tw))
    assert elementwise.calls == 5  # one batched call, 3 checked samples, one gradient probe

    def scaled(v):
        return v / v.max()

    # the batched call divides by the maximum of the whole batch, which rows 0, 2 and 4 (the
    # samples checked by value) hold, so only the gradient probe tells it from the loop
    tied = RNG.uniform(0.1, 0.9, (3, 5))
    tied[1, 0::2] = 1.0
    x, tx = gt.tensor(tied, device=device), torch.tensor(tied)
    looped = counted(scaled)
    close(func.vmap(looped, in_dims=1, out_dims=1)(x), torch.func.vmap(
        scaled, in_dims=1, out_dims=1)(tx))
    assert looped.calls == 10  # the 5 calls of the rejected batched path, then 5 samples


def test_vmap_nested_structures_and_errors():
    x, tx = pair((4, 2, 3))
    w, tw = pair((3, 4))

    def f(v, pack):
        return (v * pack["w"]).sum(), (v + pack["b"], pack["w"] * 2)

    got = func.vmap(f, in_dims=(0, {"w": None, "b": 1}), out_dims=(0, (1, None)))(
        x[:, 0], {"w": w[:, 0], "b": w})
    want = torch.func.vmap(f, in_dims=(0, {"w": None, "b": 1}), out_dims=(0, (1, None)))(
        tx[:, 0], {"w": tw[:, 0], "b": tw})
    close(got, want)

    inner = lambda v: (v * v).sum()  # noqa: E731
    close(func.vmap(func.vmap(inner))(x), torch.func.vmap(torch.func.vmap(inner))(tx))
    close(func.vmap(inner, chunk_size=3)(x[:, 0]), torch.func.vmap(inner)(tx[:, 0]))
    scaled = lambda v, k: (v * k).sum()  # noqa: E731
    close(func.vmap(scaled)(x[:, 0], k=w[:, 0]), torch.func.vmap(scaled)(tx[:, 0], k=tw[:, 0]))

    with pytest.raises(ValueError, match="different batch sizes"):
        func.vmap(lambda a, b: a + b)(x, w)
    with pytest.raises(ValueError, match="at least one input must be batched"):
        func.vmap(inner, in_dims=None)(x)
    with pytest.raises(RuntimeError, match="randomness"):
        func.vmap(lambda v: v + gt.randn(3, dtype=gt.float64))(x[:, 0])
    same = func.vmap(lambda v: v + gt.randn(3, dtype=gt.float64), randomness="same")(x[:, 0])
    noise = (same - x[:, 0]).numpy()
    np.testing.assert_allclose(noise, np.broadcast_to(noise[0], noise.shape), atol=1e-12)
    other = func.vmap(lambda v: v + gt.randn(3, dtype=gt.float64),
                      randomness="different")(x[:, 0])
    assert not np.allclose((other - x[:, 0]).numpy()[0], (other - x[:, 0]).numpy()[1])


def test_jacrev_jacfwd_hessian_match_torch():
    # torch.autograd.functional gives torch.func.jacrev's and hessian's values without the
    # seconds torch.func's reverse transforms take to start in a fresh process; on cpu only,
    # as the transforms call the same ops on every device (vmap's tests run on both)
    a, ta = pair((3,))
    b, tb = pair((2,))

    def f(u, v):
        return (u[:2] * v).tanh(), (u * u).sum() * v

    want = torch.autograd.functional.jacobian(f, (ta, tb))
    close(func.jacrev(f, argnums=(0, 1))(a, b), want)
    close(func.jacfwd(f, argnums=(0, 1))(a, b), want)
    aux_f = lambda u: ((u * u).exp(), u.sum())  # noqa: E731
    jac, aux = func.jacfwd(aux_f, has_aux=True)(a)
    tjac, taux = torch.func.jacfwd(aux_f, has_aux=True)(ta)
    close(jac, tjac)
    close(aux, taux)
    jac, aux = func.jacrev(aux_f, has_aux=True)(a)
    close(jac, tjac)
    close(aux, taux)

    def s(u, v):
        return ((u[:2] * v).sin() * u[2]).sum()

    want = torch.autograd.functional.hessian(s, (ta, tb))
    close(func.hessian(s)(a, b), want[0][0])
    close(func.hessian(s, argnums=(0, 1))(a, b), want)


def torch_copy(model):
    layers = [torch.nn.Linear(m.in_features, m.out_features, dtype=torch.float64)
              if isinstance(m, gt.nn.Linear) else torch.nn.Tanh() for m in model]
    twin = torch.nn.Sequential(*layers)
    twin.load_state_dict({k: torch.tensor(v.detach().numpy())
                          for k, v in model.state_dict().items()})
    return twin


def test_functional_call_substitutes_restores_and_differentiates(device):
    model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.Tanh(), gt.nn.Linear(4, 2)).double()
    twin = torch_copy(model)
    model.to(device)
    before = {k: v.detach().cpu().numpy().copy() for k, v in model.state_dict().items()}
    x, tx = pair((5, 3), device)
    w, tw = pair((2, 4), device)
    w.requires_grad_()
    tw.requires_grad_()
    out = func.functional_call(model, {"2.weight": w}, x)
    want = torch.func.functional_call(twin, {"2.weight": tw}, tx)
    close(out, want)
    out.square().sum().backward()
    want.square().sum().backward()
    close(w.grad, tw.grad)
    assert all(model.state_dict()[k].grad is None for k in before)
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(v.detach().cpu().numpy(), before[k])

    with pytest.raises(ValueError, match="boom"):
        _raising(model, device)
    np.testing.assert_array_equal(model[0].bias.detach().cpu().numpy(), before["0.bias"])
    with pytest.raises(RuntimeError, match="missing keys"):
        func.functional_call(model, {"2.weight": w}, (x,), strict=True)


def _raising(model, device):
    def boom(module, inputs):
        raise ValueError("boom")

    handle = model[0].register_forward_pre_hook(boom)
    try:
        func.functional_call(model, {"0.bias": gt.zeros(4, dtype=gt.float64, device=device)},
                             (gt.zeros(1, 3, dtype=gt.float64, device=device),))
    finally:
        handle.remove()


def test_functional_call_ties_shared_weights():
    first, second = gt.nn.Linear(2, 2).double(), gt.nn.Linear(2, 2).double()
    second.weight = first.weight
    model = gt.nn.Sequential(first, gt.nn.Tanh(), second)
    x, _ = pair((1, 2))
    eye = gt.eye(2, dtype=gt.float64)
    out = func.functional_call(model, {"0.weight": eye}, (x,))
    expected = np.tanh(x.numpy() + first.bias.detach().numpy()) + second.bias.detach().numpy()
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)
    untied = func.functional_call(model, {"0.weight": eye}, (x,), tie_weights=False)
    w = first.weight.detach().numpy()
    expected = np.tanh(x.numpy() + first.bias.detach().numpy()) @ w.T + second.bias.detach().numpy()
    np.testing.assert_allclose(untied.detach().numpy(), expected, atol=1e-12)
    with pytest.raises(ValueError, match="tied"):
        func.functional_call(model, {"0.weight": eye, "2.weight": eye * 2}, (x,))


def test_per_sample_gradients_with_vmap_of_grad():
    model = gt.nn.Linear(3, 1).double()
    twin = torch.nn.Linear(3, 1, dtype=torch.float64)
    twin.load_state_dict({k: torch.tensor(v.detach().numpy())
                          for k, v in model.state_dict().items()})
    x, tx = pair((4, 3))
    y, ty = pair((4, 1))

    def loss(params, sample, target):
        out = func.functional_call(model, params, (sample.unsqueeze(0),))
        return ((out - target.unsqueeze(0)) ** 2).sum()

    params = {k: v.detach() for k, v in model.named_parameters()}
    got = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, x, y)
    assert set(got) == {"weight", "bias"}
    for i in range(4):  # torch.func.vmap(torch.func.grad(...)) takes seconds to start
        twin.zero_grad()
        ((twin(tx[i:i + 1]) - ty[i:i + 1]) ** 2).sum().backward()
        close(got["weight"][i], twin.weight.grad)
        close(got["bias"][i], twin.bias.grad)
