"""gt.save / gt.load of whole objects: modules, optimizers, NumPy arrays, the class allow-list."""

from __future__ import annotations

import io
import json
import os
import pickle
import sys

import numpy as np
import pytest

import gtensor as gt
from gtensor.serialization import SerializationError, UnpicklingError


class TinyNet(gt.nn.Module):
    """A user module with plain attributes next to its layers."""

    def __init__(self) -> None:
        super().__init__()
        self.body = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.Tanh())
        self.head = gt.nn.Linear(4, 2)
        self.scale, self.tag, self.sizes = 0.5, "tiny", (3, 4)
        self.register_buffer("offset", gt.tensor([1.0, -1.0]))

    def forward(self, x):
        return self.head(self.body(x)) * self.scale + self.offset


def _blob(obj: object) -> bytes:
    buf = io.BytesIO()
    gt.save(obj, buf)
    return buf.getvalue()


def _load(blob: bytes, **kwargs: object) -> object:
    return gt.load(io.BytesIO(blob), **kwargs)


def _header(blob: bytes) -> dict:
    n = int.from_bytes(blob[8:16], "little")
    return json.loads(blob[16:16 + n])


def _with_tree(blob: bytes, tree: dict) -> bytes:
    return _rewritten(blob, dict(_header(blob), tree=tree))


def _rewritten(blob: bytes, header: dict) -> bytes:
    raw = json.dumps(header).encode()
    raw += b" " * (-(16 + len(raw)) % 64)
    n = int.from_bytes(blob[8:16], "little")
    return blob[:8] + len(raw).to_bytes(8, "little") + raw + blob[16 + n:]


def _same(a: gt.Tensor, b: gt.Tensor) -> None:
    np.testing.assert_array_equal(a.detach().cpu().numpy(), b.detach().cpu().numpy())


def test_modules_need_weights_only_false_and_round_trip(device: str) -> None:
    mlp = gt.nn.Sequential(gt.nn.Linear(3, 5), gt.nn.ReLU(), gt.nn.Linear(5, 2)).to(device)
    blob = _blob(mlp)
    with pytest.raises(UnpicklingError, match=r"Sequential.*weights_only=False.*add_safe_"):
        _load(blob)
    with pytest.raises(pickle.UnpicklingError):
        _load(blob)
    x = gt.randn(4, 3, device=device)
    loaded = _load(blob, weights_only=False)
    assert type(loaded) is gt.nn.Sequential and loaded[0].weight.device == x.device
    _same(loaded(x), mlp(x))
    on_cpu = _load(blob, weights_only=False, map_location="cpu")
    assert all(p.device == gt.device("cpu") for p in on_cpu.parameters())
    assert isinstance(on_cpu[2].weight, gt.nn.Parameter) and on_cpu[2].weight.requires_grad
    np.testing.assert_allclose(on_cpu(x.cpu()).detach().numpy(), mlp(x).detach().cpu().numpy(),
                               rtol=1e-6, atol=1e-6)  # cpu and cuda kernels may round apart


def test_lstm_round_trip() -> None:
    lstm = gt.nn.LSTM(3, 4, num_layers=2)
    loaded = _load(_blob(lstm), weights_only=False)
    xs = gt.randn(2, 1, 3)
    (out, (h, c)), (want, (wh, wc)) = loaded(xs), lstm(xs)
    for a, b in ((out, want), (h, wh), (c, wc)):
        _same(a, b)


def test_user_subclass_loads_once_registered() -> None:
    net = TinyNet()
    blob = _blob(net)
    name = f"{__name__}.TinyNet"
    with pytest.raises(UnpicklingError, match=rf"{name}, which is neither a gtensor class"):
        _load(blob, weights_only=False)
    gt.serialization.add_safe_globals([TinyNet])
    try:
        assert TinyNet in gt.serialization.get_safe_globals()
        loaded = _load(blob, weights_only=False)
        with pytest.raises(UnpicklingError, match="Sequential, which weights_only=True"):
            _load(blob)
    finally:
        gt.serialization.clear_safe_globals()
    assert TinyNet not in gt.serialization.get_safe_globals()
    with gt.serialization.safe_globals([TinyNet, gt.nn.Sequential, gt.nn.Linear, gt.nn.Tanh]):
        _same(_load(blob).head.weight, net.head.weight)  # registered classes: weights_only too
    assert (loaded.scale, loaded.tag, loaded.sizes) == (0.5, "tiny", (3, 4))
    assert [n for n, _ in loaded.named_buffers()] == ["offset"]
    x = gt.randn(2, 3)
    _same(loaded(x), net(x))


def test_optimizer_and_scheduler_share_the_loaded_parameters() -> None:
    model = gt.nn.Linear(3, 2)
    opt = gt.optim.Adam(model.parameters(), lr=0.1)
    sched = gt.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
    x = gt.randn(4, 3)

    def step(m, o, s):
        m(x).square().sum().backward()
        o.step()
        s.step()
        o.zero_grad()

    step(model, opt, sched)
    m2, o2, s2 = _load(_blob([model, opt, sched]), weights_only=False)
    assert o2.param_groups[0]["params"][0] is m2.weight and s2.optimizer is o2
    assert set(map(id, o2.state)) == {id(m2.weight), id(m2.bias)}
    step(model, opt, sched)
    step(m2, o2, s2)
    _same(m2.weight, model.weight)
    assert o2.param_groups[0]["lr"] == opt.param_groups[0]["lr"] == 0.025


def test_numpy_arrays_and_containers_load_with_weights_only() -> None:
    arrays = {"f": np.arange(6.0).reshape(2, 3).T, "i": np.array([-3, 7], dtype=np.int16),
              "b": np.array(True), "c": np.array([1 + 2j], dtype=np.complex64),
              "big": np.arange(3, dtype=">u4")}
    blob = _blob([arrays, (gt.ones(2), 1.5)])
    assert _header(blob)["version"] == 2
    got, (t, x) = _load(blob)
    for k, a in arrays.items():
        assert got[k].dtype == a.dtype.newbyteorder("=") and got[k].shape == a.shape
        np.testing.assert_array_equal(got[k], a)
    assert x == 1.5 and t.tolist() == [1.0, 1.0]
    assert _header(_blob(gt.nn.Linear(2, 2).state_dict()))["version"] == 1  # old readers too
    with pytest.raises(TypeError, match="dtype object"):
        _blob({"bad": np.array([None])})


def test_named_classes_are_never_imported_or_called(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    base = _blob(TinyNet())
    for name in ("posix.system", "os.system", "builtins.eval", "evil_module_never_seen.Evil"):
        state = {"type": "dict", "keys": [{"type": "str", "value": "cmd"}],
                 "values": [{"type": "str", "value": "echo owned"}]}
        blob = _with_tree(base, {"type": "object", "class": name, "id": 0, "state": state})
        for weights_only in (True, False):
            with pytest.raises(UnpicklingError, match=name):
                _load(blob, weights_only=weights_only)
    assert not calls and "evil_module_never_seen" not in sys.modules
    v1 = _blob({"w": gt.ones(1)})
    with pytest.raises(SerializationError, match="unknown structure node type 'object'"):
        _load(_with_tree(v1, {"type": "object", "class": "os.system", "id": 0, "state": {}}))


def test_unsaveable_objects_raise_at_save() -> None:
    def make_local():
        class Local(gt.nn.Module):
            pass

        return Local()

    with pytest.raises(TypeError, match="local class"):
        _blob(make_local())
    hooked = gt.nn.Linear(2, 2)
    hooked.register_forward_hook(lambda m, i, o: o)
    with pytest.raises(TypeError, match=r"type function at .*_forward_hooks"):
        _blob(hooked)


def test_malformed_version_2_nodes_raise_serialization_errors() -> None:
    base = _blob([np.arange(3.0), gt.nn.Identity()])
    header = _header(base)
    ident = header["tree"]["items"][1]
    bad_trees = {
        "not saved before it": {"type": "ref", "id": 0},
        "ids count up from 0": dict(ident, id=3),
        "array index": {"type": "ndarray", "index": 1},
        "is not a dict with string keys": dict(ident, state={"type": "list", "items": []}),
        "unhashable item": {"type": "set", "items": [{"type": "list", "items": []}]},
        "malformed structure node": {"type": ["list"]},
    }
    with gt.serialization.safe_globals([gt.nn.Identity]):
        for message, tree in bad_trees.items():
            with pytest.raises(SerializationError, match=message):
                _load(_with_tree(base, tree))
        for kind in ("|O", ["<f8"]):
            header["arrays"][0]["dtype"] = kind
            with pytest.raises(SerializationError, match="unsupported dtype"):
                _load(_rewritten(base, header))
        assert type(_load(base)[1]) is gt.nn.Identity
