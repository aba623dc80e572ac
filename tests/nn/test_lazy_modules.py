"""Lazy layers: shapes inferred at the first forward, torch's state-dict keys and values,
optimizers built before materialization, loading into a lazy layer; and nn.Buffer."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.errors import ShapeError

torch = pytest.importorskip("torch")

LAYERS = [
    ("LazyLinear", (3,), (2, 4)),
    ("LazyConv1d", (4, 3), (1, 2, 6)),
    ("LazyConv2d", (4, 3, 1, 1), (1, 2, 4, 4)),
    ("LazyConv3d", (4, 2), (1, 2, 3, 3, 3)),
    ("LazyConvTranspose1d", (4, 2, 2), (1, 2, 3)),
    ("LazyConvTranspose2d", (4, 2), (2, 3, 3)),
    ("LazyConvTranspose3d", (4, 2), (1, 2, 2, 1, 2)),
    ("LazyBatchNorm1d", (), (4, 3)),
    ("LazyBatchNorm2d", (), (2, 3, 2, 2)),
    ("LazyBatchNorm3d", (), (2, 3, 2, 1, 2)),
    ("LazyInstanceNorm1d", (), (2, 3, 4)),
    ("LazyInstanceNorm2d", (), (2, 3, 2, 2)),
    ("LazyInstanceNorm3d", (), (2, 3, 2, 1, 2)),
]


@pytest.mark.parametrize("name,args,shape", LAYERS)
def test_lazy_layer_materializes_as_torch(name: str, args: tuple, shape: tuple[int, ...],
                                          rng: np.random.Generator) -> None:
    mine, theirs = getattr(gt.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert mine.has_uninitialized_params()
    assert list(mine.state_dict()) == list(theirs.state_dict())
    x = rng.standard_normal(shape).astype(np.float32)
    mine(gt.tensor(x))
    theirs(torch.tensor(x))
    assert type(mine).__name__ == type(theirs).__name__
    assert not isinstance(mine, gt.nn.LazyModuleMixin)
    state = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
    assert {k: tuple(v.shape) for k, v in mine.state_dict().items()} == \
        {k: v.shape for k, v in state.items()}
    # a fresh lazy layer takes its shapes from the loaded state, then computes as torch
    fresh = getattr(gt.nn, name)(*args)
    fresh.load_state_dict({k: gt.tensor(v) for k, v in state.items()})
    fresh.eval()
    theirs.eval()
    np.testing.assert_allclose(fresh(gt.tensor(x)).detach().numpy(),
                               theirs(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-5)


def test_lazy_init_follows_the_eager_layer() -> None:
    gt.manual_seed(3)
    lazy = gt.nn.LazyLinear(5)
    lazy(gt.ones(2, 400))
    bound = 1 / np.sqrt(400)
    w, b = lazy.weight.detach().numpy(), lazy.bias.detach().numpy()
    assert lazy.in_features == 400 and w.shape == (5, 400)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound  # kaiming_uniform(sqrt 5)
    assert np.abs(b).max() <= bound
    norm = gt.nn.LazyBatchNorm1d()
    norm(gt.randn(4, 3))
    assert norm.weight.tolist() == [1.0] * 3 and norm.num_batches_tracked.item() == 1


def test_optimizer_built_before_the_first_forward_trains(device: str) -> None:
    model = gt.nn.Sequential(gt.nn.LazyLinear(3, device=device), gt.nn.ReLU(),
                             gt.nn.LazyLinear(1, device=device))
    opt = gt.optim.Adam(model.parameters(), lr=0.05)
    x = gt.randn(8, 2, device=device)
    y = x.sum(1, keepdim=True)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    first = model[0].weight
    assert type(first) is gt.nn.Parameter and first.shape == (3, 2)
    assert first is opt.param_groups[0]["params"][0]
    assert losses[-1] < losses[0]


def test_bad_first_input_keeps_the_layer_lazy() -> None:
    conv = gt.nn.LazyConv2d(4, 3)
    with pytest.raises(ShapeError, match=r"\[LazyConv2d\] expected a 3-D or 4-D input"):
        conv(gt.ones(2, 3))
    assert conv.has_uninitialized_params() and type(conv) is gt.nn.LazyConv2d
    grouped = gt.nn.LazyConv1d(4, 1, groups=2)
    with pytest.raises(ValueError, match=r"\[LazyConv1d\] in_channels \(3\) must be divisible"):
        grouped(gt.ones(1, 3, 4))


def test_uninitialized_tensors() -> None:
    p = gt.nn.UninitializedParameter(dtype=gt.float64)
    assert isinstance(p, gt.nn.Parameter) and p.requires_grad
    p.materialize((2, 3))
    assert type(p) is gt.nn.Parameter and p.shape == (2, 3) and p.dtype == gt.float64
    b = gt.nn.UninitializedBuffer()
    b.materialize((4,))
    assert type(b) is gt.Tensor and b.shape == (4,)


def test_buffer_assignment_registers() -> None:
    m = gt.nn.Module()
    m.steps = gt.nn.Buffer(gt.zeros(()))
    m.scratch = gt.nn.Buffer(gt.ones(2), persistent=False)
    assert [n for n, _ in m.named_buffers()] == ["steps", "scratch"]
    assert list(m.state_dict()) == ["steps"]
    assert not list(m.parameters())
    t = torch.nn.Module()
    t.steps = torch.nn.Buffer(torch.zeros(()))
    t.scratch = torch.nn.Buffer(torch.ones(2), persistent=False)
    assert list(t.state_dict()) == list(m.state_dict())
    with pytest.raises(TypeError, match=r"\[Buffer\] expected a Tensor"):
        gt.nn.Buffer([1.0])


def test_lazy_layers_materialize_under_compile() -> None:
    model = gt.nn.Sequential(gt.nn.LazyLinear(4), gt.nn.ReLU(), gt.nn.LazyConv1d(2, 1))
    compiled = gt.compile(model)
    x = gt.randn(3, 5, 4).transpose(1, 2)
    first = compiled(x)
    assert type(model[0]) is gt.nn.Linear and type(model[2]) is gt.nn.Conv1d
    want = model(x).detach().numpy()
    np.testing.assert_allclose(first.detach().numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(compiled(x).detach().numpy(), want, rtol=1e-6)
