"""The new layer classes: each runs its functional form, reprs as PyTorch's, and the
ParameterList / ParameterDict containers register their entries with the module system."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn as nn
import gtensor.nn.functional as F

torch = pytest.importorskip("torch")

LAYERS = [
    (nn.LeakyReLU(0.2), lambda x: F.leaky_relu(x, 0.2)),
    (nn.ELU(0.5), lambda x: F.elu(x, 0.5)),
    (nn.SELU(), F.selu),
    (nn.CELU(2.0), lambda x: F.celu(x, 2.0)),
    (nn.ReLU6(), F.relu6),
    (nn.Hardtanh(-2.0, 0.5), lambda x: F.hardtanh(x, -2.0, 0.5)),
    (nn.Hardswish(), F.hardswish),
    (nn.Hardsigmoid(), F.hardsigmoid),
    (nn.Mish(), F.mish),
    (nn.LogSigmoid(), F.logsigmoid),
    (nn.Softplus(2.0, 3.0), lambda x: F.softplus(x, 2.0, 3.0)),
    (nn.Softmin(0), lambda x: F.softmin(x, 0)),
    (nn.GLU(0), lambda x: F.glu(x, 0)),
    (nn.Unflatten(1, (2, 2)), lambda x: x.reshape(2, 2, 2)),
]


def test_layers_apply_their_function(rng: np.random.Generator) -> None:
    x = gt.tensor(rng.standard_normal((2, 4)) * 3)
    for layer, fn in LAYERS:
        np.testing.assert_array_equal(layer(x).numpy(), fn(x).numpy(), err_msg=repr(layer))


def test_two_input_and_loss_layers(rng: np.random.Generator) -> None:
    a, b, c = (gt.tensor(rng.standard_normal((3, 4))) for _ in range(3))
    sign = gt.tensor(rng.choice([-1.0, 1.0], size=(3, 4)))
    pairs = [
        (nn.CosineSimilarity(0, 1e-3)(a, b), F.cosine_similarity(a, b, 0, 1e-3)),
        (nn.PairwiseDistance(1.0, 0.0, True)(a, b), F.pairwise_distance(a, b, 1.0, 0.0, True)),
        (nn.HuberLoss("sum", 0.3)(a, b), F.huber_loss(a, b, "sum", 0.3)),
        (nn.MarginRankingLoss(0.2, "none")(a, b, sign),
         F.margin_ranking_loss(a, b, sign, 0.2, "none")),
        (nn.TripletMarginLoss(0.5, 1.0, 0.0, True, "sum")(a, b, c),
         F.triplet_margin_loss(a, b, c, 0.5, 1.0, 0.0, True, "sum")),
    ]
    for got, want in pairs:
        np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("make", [
    lambda m: m.LeakyReLU(0.2, True), lambda m: m.ELU(inplace=True), lambda m: m.SELU(),
    lambda m: m.ReLU6(True), lambda m: m.Hardtanh(-2.0, 3.0), lambda m: m.Hardswish(True),
    lambda m: m.Mish(True), lambda m: m.GLU(), lambda m: m.PReLU(3), lambda m: m.Softmin(),
    lambda m: m.Softplus(), lambda m: m.Unflatten(1, (2, 3)), lambda m: m.CosineSimilarity(),
    lambda m: m.TripletMarginLoss(),
])
def test_repr_matches_pytorch(make) -> None:  # noqa: ANN001
    assert repr(make(nn)) == repr(make(torch.nn))


def test_prelu_learns_one_slope_per_channel(rng: np.random.Generator) -> None:
    layer = nn.PReLU(3, init=0.1)
    assert [name for name, _ in layer.named_parameters()] == ["weight"]
    np.testing.assert_array_equal(layer.weight.detach().numpy(), np.full(3, 0.1, np.float32))
    x = rng.standard_normal((2, 3, 2)).astype(np.float32)
    layer(gt.tensor(x)).sum().backward()
    t_layer = torch.nn.PReLU(3, init=0.1)
    t_layer(torch.tensor(x)).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(), t_layer.weight.grad.numpy(),
                               rtol=1e-6)


def test_unflatten_checks_its_sizes() -> None:
    with pytest.raises(TypeError, match=r"\[Unflatten\] .*element of type float at pos 1"):
        nn.Unflatten(1, (2, 2.0))
    with pytest.raises(TypeError, match=r"\[Unflatten\] unflattened_size must be"):
        nn.Unflatten(1, 4)
    assert nn.Unflatten(-1, [2, -1])(gt.zeros(3, 6)).shape == (3, 2, 3)


class _Holder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scales = nn.ParameterList([gt.ones(2), nn.Parameter(gt.zeros(3))])
        self.heads = nn.ParameterDict({"b": gt.ones(1), "a": gt.zeros(2)})


def test_parameter_containers_register_with_the_module() -> None:
    model = _Holder()
    names = [name for name, _ in model.named_parameters()]
    assert names == ["scales.0", "scales.1", "heads.a", "heads.b"]  # a plain dict is sorted
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in model.parameters())
    state = model.state_dict()
    assert list(state) == names
    fresh = _Holder()
    with gt.no_grad():
        for p in fresh.parameters():
            p.fill_(7.0)
    fresh.load_state_dict(state)
    for (_, got), want in zip(fresh.named_parameters(), state.values(), strict=True):
        np.testing.assert_array_equal(got.detach().numpy(), want.numpy())
    first = model.scales[0]
    model.to(gt.float64)
    assert model.scales[0] is first and first.dtype is gt.float64


def test_parameter_list_behaves_like_a_list() -> None:
    params = nn.ParameterList()
    params.append(gt.ones(2)).extend([gt.zeros(3), "tag"])
    params += [gt.full((1,), 5.0)]
    assert len(params) == 4
    assert [tuple(p.shape) for p in params if isinstance(p, gt.Tensor)] == [(2,), (3,), (1,)]
    assert params[2] == "tag" and params[-1].item() == 5.0
    assert [n for n, _ in params.named_parameters()] == ["0", "1", "3"]
    tail = params[1:]
    assert isinstance(tail, nn.ParameterList) and tail[0] is params[1]
    params[0] = gt.full((4,), 2.0)
    assert isinstance(params[0], nn.Parameter) and params[0].shape == (4,)
    with pytest.raises(IndexError, match=r"\[ParameterList\] index 4 is out of range"):
        params[4]
    with pytest.raises(TypeError, match=r"\[ParameterList\] extend takes an iterable"):
        params.extend(gt.ones(2))
    with pytest.raises(TypeError, match="ParameterList"):
        params(gt.ones(1))
    assert repr(nn.ParameterList([gt.zeros(2, 3), 3])) == (
        "ParameterList(\n    (0): Parameter containing: [gtensor.float32 of size 2x3]\n"
        "    (1): Object of type: int\n)")


def test_parameter_dict_behaves_like_a_dict() -> None:
    params = nn.ParameterDict(OrderedDict([("z", gt.ones(1)), ("y", gt.zeros(2))]))
    assert list(params) == ["z", "y"]  # an OrderedDict keeps its order
    params.update([("x", gt.ones(3))])
    params["w"] = None
    assert "x" in params and len(params) == 4 and params.get("nope", 1) == 1
    assert [n for n, _ in params.named_parameters()] == ["z", "y", "x"]
    assert params.setdefault("y") is params["y"]
    popped = params.pop("z")
    assert popped.shape == (1,) and "z" not in params
    assert [n for n, _ in params.named_parameters()] == ["y", "x"]
    assert params.popitem() == ("w", None)
    merged = params | nn.ParameterDict({"v": gt.ones(1)})
    assert list(merged.keys()) == ["y", "x", "v"] and merged["x"] is params["x"]
    assert list(params.copy().values())[0] is params["y"]
    assert list(params.fromkeys(["p", "q"])) == ["p", "q"]
    del params["y"]
    assert list(params.items())[0][0] == "x"
    with pytest.raises(KeyError, match=r"\[ParameterDict\] no parameter named 'y'"):
        params["y"]
    with pytest.raises(TypeError, match=r"\[ParameterDict\] keys must be strings"):
        params[1] = gt.ones(1)
    with pytest.raises(KeyError, match=r"\[register_parameter\] invalid name"):
        params["a.b"] = gt.ones(1)
    with pytest.raises(KeyError, match=r"\[ParameterDict\] attribute 'training' already"):
        params["training"] = gt.ones(1)
    params.clear()
    assert len(params) == 0 and not list(params.parameters())
