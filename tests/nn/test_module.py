"""Module: registration, traversal, modes, hooks, state dicts, in-place moves, repr."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor.nn import Module, ModuleDict, ModuleList, Parameter, Sequential


class Leaf(Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.w = Parameter(gt.randn(n, 2))
        self.register_buffer("stat", gt.randn(n))
        self.register_buffer("scratch", gt.zeros(n), persistent=False)
        self.register_buffer("count", gt.zeros((), dtype=gt.int64))

    def forward(self, x: gt.Tensor) -> gt.Tensor:
        return x

    def extra_repr(self) -> str:
        return f"n={self.w.shape[0]}"


def make(n_last: int = 4) -> Sequential:
    return Sequential(Leaf(3), ModuleList([Leaf(2), Leaf(n_last)]),
                      ModuleDict({"head": Leaf(1)}))


def test_registration_and_names() -> None:
    m = make()
    assert [n for n, _ in m.named_parameters()] == ["0.w", "1.0.w", "1.1.w", "2.head.w"]
    assert [n for n, _ in m.named_buffers()][:3] == ["0.stat", "0.scratch", "0.count"]
    assert list(m.state_dict())[:3] == ["0.w", "0.stat", "0.count"]
    assert len(list(m.modules())) == 7
    assert [n for n, _ in m.named_children()] == ["0", "1", "2"]
    assert m.get_submodule("1.1") is m[1][1]


def test_shared_parameter_listed_once() -> None:
    a = Leaf(2)
    m = Sequential(a, a)
    assert len(list(m.parameters())) == 1


def test_shared_module_keys_like_torch() -> None:
    a = Leaf(2)
    m = Sequential(a, a)
    assert list(m.state_dict()) == ["0.w", "0.stat", "0.count", "1.w", "1.stat", "1.count"]
    assert [n for n, _ in m.named_parameters(remove_duplicate=False)] == ["0.w", "1.w"]
    Sequential(Leaf(2), Leaf(2)).load_state_dict(m.state_dict())
    assert m.get_parameter("1.w") is a.w and m.get_buffer("0.count") is a.count
    with pytest.raises(AttributeError, match=r"^\[get_parameter\]"):
        m.get_parameter("0.stat")


def test_load_state_dict_assign_and_old_batch_norm_checkpoints() -> None:
    lin = gt.nn.Linear(2, 2)
    w = gt.ones(2, 2)
    lin.load_state_dict({"weight": w, "bias": gt.zeros(2)}, assign=True)
    assert isinstance(lin.weight, Parameter) and lin.weight.requires_grad
    assert lin.weight.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    bn = gt.nn.BatchNorm1d(2)
    bn.num_batches_tracked.fill_(5)
    sd = {k: v for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
    assert bn.load_state_dict(sd).missing_keys == [] and bn.num_batches_tracked.item() == 0


def test_extra_state_and_state_dict_hooks() -> None:
    class Counter(Module):
        def __init__(self) -> None:
            super().__init__()
            self.steps, self.w = 0, Parameter(gt.ones(1))

        def get_extra_state(self) -> dict:
            return {"steps": self.steps}

        def set_extra_state(self, state: dict) -> None:
            self.steps = state["steps"]

    a, b = Sequential(Counter()), Sequential(Counter())
    a[0].steps = 7
    assert list(a.state_dict()) == ["0.w", "0._extra_state"]
    log: list = []
    b[0].register_state_dict_pre_hook(lambda m, prefix, keep_vars: log.append(prefix))
    b[0].register_load_state_dict_pre_hook(
        lambda m, sd, prefix, *rest: sd.update({prefix + "w": sd.pop(prefix + "old_w")}))
    b.register_load_state_dict_post_hook(lambda m, keys: log.append(list(keys.unexpected_keys)))
    sd = a.state_dict()
    sd["0.old_w"] = sd.pop("0.w") * 3
    b.load_state_dict(sd)
    assert b[0].steps == 7 and b[0].w.tolist() == [3.0] and log == ["0.", []]


def test_sequential_and_module_list_edits() -> None:
    s = Sequential(gt.nn.ReLU(), gt.nn.Tanh(), gt.nn.Sigmoid())
    s.insert(0, gt.nn.Identity())
    del s[1]
    s[0] = gt.nn.ELU()
    s.extend([gt.nn.ReLU()])
    assert [type(m).__name__ for m in s] == ["ELU", "Tanh", "Sigmoid", "ReLU"]
    assert type(s.pop(1)).__name__ == "Tanh" and list(s._modules) == ["0", "1", "2"]
    ml = ModuleList([gt.nn.ReLU()])
    ml += [gt.nn.Tanh()]
    assert len(ml + ModuleList([gt.nn.ReLU()])) == 3 and type(ml[-1]).__name__ == "Tanh"


def test_registering_over_a_plain_attribute_is_refused() -> None:
    m = Module()
    m.plain = 3
    for register in (lambda: m.register_buffer("plain", gt.ones(1)),
                     lambda: m.register_parameter("plain", Parameter(gt.ones(1))),
                     lambda: m.add_module("forward", gt.nn.ReLU())):
        with pytest.raises(KeyError, match="already exists"):
            register()
    m.register_buffer("b", gt.ones(1))
    m.register_buffer("b", gt.zeros(1))  # re-registering a buffer is fine
    assert m.plain == 3 and m.b.tolist() == [0.0]


def test_setattr_rules() -> None:
    m = Leaf(2)
    with pytest.raises(TypeError, match="parameter 'w'"):
        m.w = gt.zeros(2, 2)
    m.w = None
    assert "w" not in dict(m.named_parameters())
    with pytest.raises(TypeError, match="buffer 'stat'"):
        m.stat = 3
    del m.stat
    assert "stat" not in m.state_dict()
    with pytest.raises(AttributeError, match="nothing"):
        _ = m.nothing


def test_train_eval_apply_and_requires_grad() -> None:
    m = make()
    m.eval()
    assert not any(x.training for x in m.modules())
    m.train()
    assert all(x.training for x in m.modules())
    seen: list[str] = []
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen[-1] == "Sequential" and seen.count("Leaf") == 4
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


def test_forward_hooks_replace_and_remove() -> None:
    m = Leaf(2)
    x = gt.ones(3)
    pre = m.register_forward_pre_hook(lambda mod, args: (gt.zeros(3),))
    post = m.register_forward_hook(lambda mod, args, out: gt.full((3,), 7.0))
    assert m(x).tolist() == [7.0, 7.0, 7.0]
    post.remove()
    assert m(x).tolist() == [0.0, 0.0, 0.0]
    pre.remove()
    assert m(x) is x


def test_forward_hooks_with_kwargs_and_prepend() -> None:
    lin, log = gt.nn.Linear(2, 2), []
    lin.register_forward_pre_hook(lambda m, a, kw: ((), {"input": kw["input"] * 0}),
                                  with_kwargs=True)
    lin.register_forward_hook(lambda m, a, kw, out: log.append(sorted(kw)), with_kwargs=True)
    lin.register_forward_hook(lambda m, a, out: log.append("first"), prepend=True)
    out = lin(input=gt.ones(1, 2))
    assert log == ["first", ["input"]] and out.tolist() == [lin.bias.tolist()]


def test_full_backward_hooks(device: str) -> None:
    lin, log = gt.nn.Linear(2, 3, device=device), []
    with gt.no_grad():
        lin.weight.copy_(gt.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], device=device))

    def hook(m, grad_input, grad_output):
        log.append((grad_input[0].tolist(), grad_output[0].tolist()))
        return (grad_input[0] * 2,)

    lin.register_full_backward_hook(hook)
    pre = lin.register_full_backward_pre_hook(lambda m, grad_output: (grad_output[0] + 1,))
    x = gt.ones(1, 2, device=device, requires_grad=True)
    (lin(x) * gt.tensor([[1.0, 2.0, 3.0]], device=device)).sum().backward()
    # torch's values: grad_output (after the pre-hook) [2, 3, 4]; grad_input = it @ weight
    assert log == [([[13.0, 3.0]], [[2.0, 3.0, 4.0]])] and x.grad.tolist() == [[26.0, 6.0]]
    pre.remove()
    other = gt.nn.Linear(2, 3, device=device)
    other.register_full_backward_hook(lambda m, gi, go: log.append((gi, go[0].tolist())))
    other(gt.ones(1, 2, device=device)).sum().backward()  # no input needs grad: gi is None
    assert log[-1] == ((None,), [[1.0, 1.0, 1.0]])


def test_state_dict_round_trip() -> None:
    gt.manual_seed(0)
    a, b = make(), make()
    b.load_state_dict(a.state_dict())
    for (n, pa), (_, pb) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        np.testing.assert_array_equal(pa.numpy(), pb.numpy(), err_msg=n)
    assert "0.scratch" not in a.state_dict()


def test_load_mismatched_model_names_keys() -> None:
    sd = make().state_dict()
    sd["extra.w"] = gt.zeros(1)
    del sd["0.w"]
    target = make(n_last=5)
    with pytest.raises(RuntimeError) as err:
        target.load_state_dict(sd)
    msg = str(err.value)
    assert 'Missing key(s) in state_dict: "0.w"' in msg
    assert 'Unexpected key(s) in state_dict: "extra.w"' in msg
    assert "size mismatch for 1.1.w" in msg and "(4, 2)" in msg and "(5, 2)" in msg


def test_load_non_strict_reports_keys() -> None:
    sd = make().state_dict()
    sd["extra"] = gt.zeros(1)
    del sd["0.stat"]
    result = make().load_state_dict(sd, strict=False)
    assert result.missing_keys == ["0.stat"] and result.unexpected_keys == ["extra"]


def test_to_dtype_keeps_parameter_objects() -> None:
    m = make()
    params = list(m.parameters())
    before = [p.detach().numpy().copy() for p in params]
    m[0].w.grad = gt.ones(3, 2)
    m.to(gt.float64)
    assert [id(p) for p in m.parameters()] == [id(p) for p in params]
    assert all(p.dtype == gt.float64 and p.requires_grad for p in params)
    assert m[0].w.grad.dtype == gt.float64
    assert m[0].count.dtype == gt.int64 and m[0].stat.dtype == gt.float64
    for p, old in zip(params, before, strict=True):
        np.testing.assert_allclose(p.detach().numpy(), old, rtol=1e-7)
    with pytest.raises(TypeError, match="floating"):
        m.to(gt.int32)


def test_to_device_in_place(device: str) -> None:
    m = Leaf(2)
    w = m.w
    values = w.detach().numpy().copy()
    m.to(device)
    assert m.w is w and w.device.type == device and m.stat.device.type == device
    np.testing.assert_array_equal(w.detach().cpu().numpy(), values)
    m.cpu()
    assert w.device.type == "cpu"


def test_zero_grad() -> None:
    m = Leaf(2)
    m.w.grad = gt.ones(2, 2)
    m.zero_grad(set_to_none=False)
    assert m.w.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    m.zero_grad()
    assert m.w.grad is None


def test_repr_tree() -> None:
    text = repr(make())
    assert text.startswith("Sequential(\n  (0): Leaf(n=3)\n  (1): ModuleList(\n    (0): Leaf(n=2)")
    assert "(head): Leaf(n=1)" in text
    assert repr(Parameter(gt.ones(1))).startswith("Parameter containing:\n")


def test_containers() -> None:
    ml = ModuleList([Leaf(1)])
    ml.append(Leaf(2)).extend([Leaf(3)])
    assert len(ml) == 3 and ml[-1].w.shape == (3, 2) and len(ml[1:]) == 2
    with pytest.raises(IndexError):
        ml[3]
    md = ModuleDict([("a", Leaf(1))])
    md["b"] = Leaf(2)
    assert list(md) == ["a", "b"] and "b" in md
    del md["a"]
    assert list(md.keys()) == ["b"]
    seq = Sequential(Leaf(1), Leaf(2))
    assert len(seq[1:]) == 1 and isinstance(seq[-1], Leaf)
    with pytest.raises(TypeError, match="container"):
        ml(gt.ones(1))
    with pytest.raises(TypeError, match="forward"):
        Module()(1)
