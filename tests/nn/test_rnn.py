"""Recurrent cells and layers against torch.nn: outputs, final states and every gradient."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
from gtensor import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore:LSTM with projections is not supported")

IN, HID, SEQ, BATCH = 4, 3, 5, 2

LAYERS = [("RNN", {}), ("RNN", {"nonlinearity": "relu"}), ("LSTM", {}),
          ("LSTM", {"proj_size": 2}), ("GRU", {})]
CELLS = [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("LSTMCell", {}),
         ("GRUCell", {})]


def _pair(name: str, *args, **kwargs):
    """The torch module and a gtensor one loaded with its state dict."""
    tm = getattr(torch.nn, name)(*args, **kwargs)
    gm = getattr(nn, name)(*args, **kwargs)
    assert [(k, tuple(v.shape)) for k, v in tm.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in gm.state_dict().items()]
    gm.load_state_dict({k: gt.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    return tm, gm


def _flat(out) -> list:
    """Every tensor of a nested (output, state) result; a packed output counts as its data."""
    if hasattr(out, "batch_sizes"):
        return [out.data]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    return [out]


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def _check(tm, gm, arrays: list[np.ndarray], pack=lambda xs, utils: xs) -> None:
    """Run both modules on ``pack(inputs, nn.utils.rnn)``; compare results and all gradients."""
    tx = [torch.tensor(a, requires_grad=True) for a in arrays]
    gx = [gt.tensor(a, requires_grad=True) for a in arrays]
    t_out = _flat(tm(*pack(tx, torch.nn.utils.rnn)))
    g_out = _flat(gm(*pack(gx, nn.utils.rnn)))
    assert len(t_out) == len(g_out)
    for t, g in zip(t_out, g_out, strict=True):
        assert tuple(t.shape) == tuple(g.shape)
        np.testing.assert_allclose(_np(g), _np(t), rtol=1e-5, atol=1e-5)
    sum(t.sum() for t in t_out).backward()
    sum(g.sum() for g in g_out).backward()
    for (name, p), (_, q) in zip(tm.named_parameters(), gm.named_parameters(), strict=True):
        np.testing.assert_allclose(_np(q.grad), _np(p.grad), rtol=1e-4, atol=1e-5, err_msg=name)
    for t, g in zip(tx, gx, strict=True):
        np.testing.assert_allclose(_np(g.grad), _np(t.grad), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name,kwargs", CELLS)
def test_cell_matches_torch(name, kwargs, rng) -> None:
    torch.manual_seed(0)
    tm, gm = _pair(name, IN, HID, **kwargs)
    assert repr(gm) == repr(tm)
    x = rng.standard_normal((BATCH, IN), dtype=np.float32)
    states = [rng.standard_normal((BATCH, HID), dtype=np.float32)
              for _ in range(2 if name == "LSTMCell" else 1)]
    if name == "LSTMCell":
        _check(tm, gm, [x, *states], lambda xs, _: (xs[0], tuple(xs[1:])))
    else:
        _check(tm, gm, [x, *states])
    _check(tm, gm, [x[0]])


@pytest.mark.parametrize("bidirectional,batch_first",
                         [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("name,kwargs", LAYERS)
def test_layer_matches_torch(name, kwargs, bidirectional, batch_first, rng) -> None:
    torch.manual_seed(0)
    tm, gm = _pair(name, IN, HID, num_layers=2, bidirectional=bidirectional,
                   batch_first=batch_first, **kwargs)
    assert repr(gm) == repr(tm)
    x = rng.standard_normal((BATCH, SEQ, IN) if batch_first else (SEQ, BATCH, IN),
                            dtype=np.float32)
    _check(tm, gm, [x])


@pytest.mark.parametrize("name,kwargs", LAYERS)
def test_layer_given_state_and_unbatched(name, kwargs, rng) -> None:
    torch.manual_seed(0)
    tm, gm = _pair(name, IN, HID, num_layers=2, bidirectional=True, **kwargs)
    out = kwargs.get("proj_size") or HID
    sizes = [out, HID] if name == "LSTM" else [out]
    x = rng.standard_normal((SEQ, BATCH, IN), dtype=np.float32)
    hx = [rng.standard_normal((4, BATCH, n), dtype=np.float32) for n in sizes]
    as_state = (lambda xs, _: (xs[0], tuple(xs[1:]))) if name == "LSTM" else (lambda xs, _: xs)
    _check(tm, gm, [x, *hx], as_state)
    _check(tm, gm, [x[:, 0], *(h[:, 0] for h in hx)], as_state)
    _check(tm, gm, [x[:, 0]])


@pytest.mark.parametrize("name,kwargs", [("LSTM", {"proj_size": 2}), ("GRU", {})])
def test_layer_packed_unsorted_matches_torch(name, kwargs, rng) -> None:
    torch.manual_seed(0)
    tm, gm = _pair(name, IN, HID, num_layers=2, bidirectional=True, **kwargs)
    out = kwargs.get("proj_size") or HID
    sizes = [out, HID] if name == "LSTM" else [out]
    x = rng.standard_normal((SEQ, 3, IN), dtype=np.float32)
    hx = [rng.standard_normal((4, 3, n), dtype=np.float32) for n in sizes]

    def packed(xs, utils):
        seq = utils.pack_padded_sequence(xs[0], [2, SEQ, 3], enforce_sorted=False)
        return (seq, tuple(xs[1:])) if name == "LSTM" else (seq, xs[1])

    _check(tm, gm, [x, *hx], packed)
    result = gm(nn.utils.rnn.pack_padded_sequence(gt.tensor(x), [2, SEQ, 3],
                                                  enforce_sorted=False))[0]
    assert isinstance(result, nn.utils.rnn.PackedSequence)
    assert result.batch_sizes.tolist() == [3, 3, 2, 1, 1]
    assert result.unsorted_indices.tolist() == [2, 0, 1]


def test_dropout_only_in_training(rng) -> None:
    torch.manual_seed(0)
    tm, gm = _pair("GRU", IN, HID, num_layers=3, dropout=0.5, batch_first=True)
    x = rng.standard_normal((BATCH, SEQ, IN), dtype=np.float32)
    tm.eval()
    gm.eval()
    want = _np(tm(torch.tensor(x))[0])
    np.testing.assert_allclose(_np(gm(gt.tensor(x))[0]), want, rtol=1e-5, atol=1e-6)
    gm.train()
    gt.manual_seed(0)
    out, h_n = gm(gt.tensor(x))
    assert out.shape == (BATCH, SEQ, HID) and h_n.shape == (3, BATCH, HID)
    assert not np.allclose(_np(out), want, atol=1e-4)
    with pytest.warns(UserWarning, match="dropout option adds dropout"):
        nn.LSTM(IN, HID, dropout=0.5)


@pytest.mark.parametrize("name,kwargs", [("LSTM", {"proj_size": 2}), ("GRU", {}),
                                         ("RNN", {"nonlinearity": "relu"})])
def test_layer_on_simulated_cuda_matches_cpu(name, kwargs, rng) -> None:
    gt.manual_seed(0)
    cpu = getattr(nn, name)(IN, HID, bidirectional=True, **kwargs)
    dev = getattr(nn, name)(IN, HID, bidirectional=True, **kwargs).to("cuda")
    dev.load_state_dict(cpu.state_dict())
    x = rng.standard_normal((2, 2, IN), dtype=np.float32)
    results = []
    for module, where in ((cpu, "cpu"), (dev, "cuda")):
        seq = nn.utils.rnn.pack_padded_sequence(gt.tensor(x, device=where), [2, 1])
        out = _flat(module(seq))
        sum(t.sum() for t in out).backward()
        results.append((out, [p.grad for p in module.parameters()]))
    (want, want_grads), (got, got_grads) = results
    assert all(g.device.type == "cuda" for g in got)
    for w, g in zip(want + want_grads, got + got_grads, strict=True):
        np.testing.assert_allclose(_np(g), _np(w), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,kwargs", [("LSTM", {"proj_size": 2}), ("GRU", {}),
                                         ("RNN", {})])
def test_layer_runs_fused_and_has_second_derivatives(name, kwargs, rng) -> None:
    gt.manual_seed(0)
    module = getattr(nn, name)(2, 3, bidirectional=True, dtype=gt.float64, **kwargs)
    x = gt.tensor(rng.standard_normal((3, 1, 2)), requires_grad=True)
    names, todo = set(), [module(x)[0].grad_fn]
    while todo:
        node = todo.pop()
        names.add(node.name)
        todo.extend(edge[0] for edge in node.next_edges if edge is not None)
    assert any(n.startswith(name.lower()) for n in names), names
    assert not names & {"tanh", "sigmoid", "relu"}, names
    assert gt.autograd.gradgradcheck(lambda x: module(x)[0], (x,))


@pytest.mark.parametrize("make,exc,match", [
    (lambda: nn.LSTM(IN, HID)(gt.zeros(SEQ, BATCH, 5)), RuntimeError,
     r"\[LSTM\] input.size\(-1\) must be equal to input_size. Expected 4, got 5"),
    (lambda: nn.GRU(IN, HID)(gt.zeros(1, SEQ, BATCH, IN)), ValueError,
     r"\[GRU\] Expected input to be 2D or 3D, got 4D instead"),
    (lambda: nn.GRU(IN, HID)(gt.zeros(SEQ, BATCH, IN), gt.zeros(2, BATCH, HID)), RuntimeError,
     r"\[GRU\] Expected hidden size \(1, 2, 3\), got \[2, 2, 3\]"),
    (lambda: nn.RNN(IN, HID)(gt.zeros(SEQ, IN), gt.zeros(1, 1, HID)), RuntimeError,
     "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"),
    (lambda: nn.GRUCell(IN, HID)(gt.zeros(BATCH, IN), gt.zeros(3, HID)), RuntimeError,
     r"\[GRUCell\] Input batch size 2 doesn't match hidden0 batch size 3"),
    (lambda: nn.RNN(IN, HID, nonlinearity="gelu"), ValueError, "Unknown nonlinearity 'gelu'"),
    (lambda: nn.LSTM(IN, HID, proj_size=HID), ValueError, "proj_size has to be smaller"),
    (lambda: nn.RNNBase("GRU", IN, HID, proj_size=1), ValueError, "only supported for LSTM"),
])
def test_errors(make, exc, match) -> None:
    with pytest.raises(exc, match=match):
        make()


def test_training_step_compiles_whole(rng) -> None:
    gt.manual_seed(0)
    module = nn.LSTM(IN, HID, bidirectional=True)
    x = gt.tensor(rng.standard_normal((SEQ, BATCH, IN), dtype=np.float32))

    def step(x):
        module.zero_grad()
        out, _ = module(x)
        loss = (out * out).sum()
        loss.backward()
        return loss

    want = step(x).item()
    want_grads = [_np(p.grad) for p in module.parameters()]
    compiled = gt.compile(step, fullgraph=True)
    for _ in range(2):  # trace, then replay
        np.testing.assert_allclose(compiled(x).item(), want, rtol=1e-5)
        for p, g in zip(module.parameters(), want_grads, strict=True):
            np.testing.assert_allclose(_np(p.grad), g, rtol=1e-4, atol=1e-6)
