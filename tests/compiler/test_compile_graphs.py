"""gt.compile(cuda_graphs=True): calls replayed as one captured graph through static buffers.

On the simulator the graph is emulated (the capture records every kernel launch and a
replay issues exactly those again), so these tests prove that a replay sees only what
goes through the static buffers; on a GPU the same tests run CuPy's CUDA graph.
"""

import warnings

import numpy as np
import pytest
from numba import cuda
from training_steps import training_step

import gtensor as gt
from gtensor import nn
from gtensor.compiler.graph_backends import CudaGraph, EmulatedGraph
from gtensor.cuda import runtime
from gtensor.ops.tracing import library_call


def _host(t):
    return t.detach().cpu().numpy()


def _graph(compiled):
    (program,) = compiled._programs.values()
    return program.graph


def test_training_step_replayed_as_a_graph_equals_eager():
    gt.manual_seed(0)
    models = [nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))]
    models.append(_copy(models[0], "cuda"))
    opts = [gt.optim.AdamW(m.parameters(), lr=0.05, weight_decay=0.1) for m in models]
    scheds = [gt.optim.lr_scheduler.StepLR(o, 2, 0.5) for o in opts]

    eager = training_step(models[0], opts[0])
    compiled = gt.compile(training_step(models[1], opts[1]), cuda_graphs=True)
    losses = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a step replayed without a graph warns
        for k in range(5):  # eager (makes the state), warm-up, capture, two launches
            x, y = gt.randn(3, 4), gt.tensor([k % 2, 1, 0])  # new values at every call
            want = eager(x, y)
            losses.append((compiled(x.to("cuda"), y.to("cuda")), want))
            if k == 2 and runtime.is_simulated():  # captured: the memory its launches use
                used = _allocated(_graph(compiled).graph, _segments())
            gt.cuda.empty_cache()  # the graph's memory stays with it
            gt.randn(64, device="cuda")  # and is not handed out meanwhile
            for s in scheds:
                s.step()  # a new learning rate reaches the graph through its scalar buffer
    for got, want in losses:  # results are copies: still valid after later calls
        np.testing.assert_allclose(_host(got), _host(want), rtol=1e-5)
    for a, b in zip(models[0].parameters(), models[1].parameters(), strict=True):
        np.testing.assert_allclose(_host(b), _host(a), rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(_host(b.grad), _host(a.grad), rtol=1e-4, atol=1e-6)
    for a, b in zip(opts[0].state.values(), opts[1].state.values(), strict=True):
        assert a["step"] == b["step"] == 5
        for key in ("exp_avg", "exp_avg_sq"):
            np.testing.assert_allclose(_host(b[key]), _host(a[key]), rtol=1e-4, atol=1e-7)
    runner = _graph(compiled)
    assert isinstance(runner.graph, EmulatedGraph if runtime.is_simulated() else CudaGraph)
    if runtime.is_simulated():  # still reserved, through empty_cache and other allocations
        assert len(used) > 10 and _allocated(runner.graph, _segments()) == used


def _segments():
    return [(s["address"], s["address"] + s["total_size"])
            for s in gt.memory.memory_snapshot("cuda")["segments"]]


def _allocated(graph, segments):
    """The buffers of the recorded launches that lie in the allocator's ``segments``."""
    used = [a for _, _, args in graph.launches for a in args if isinstance(a, np.ndarray)]
    spans = [(a.__array_interface__["data"][0], a.nbytes) for a in used]
    return [(p, n) for p, n in spans if any(lo <= p and p + n <= hi for lo, hi in segments)]


def _copy(model, device):
    twin = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)).to(device)
    twin.load_state_dict(model.state_dict())
    return twin


def test_inputs_are_copied_into_static_buffers_and_moved_tensors_recaptured():
    w = gt.ones(3, device="cuda")
    f = gt.compile(lambda x: x * 2.0 + w, cuda_graphs=True)
    x = gt.zeros(3, device="cuda")
    outs = [f(x)]  # warm-up
    x.add_(1.0)
    outs.append(f(x))  # the same tensor, written since: copied again; captured
    outs.append(f(gt.full((3,), 5.0, device="cuda")))  # another tensor: copied
    outs.append(f(x))
    w.fill_(3.0)  # written in its own memory: the graph reads it there
    before = gt.memory.memory_stats("cuda")["allocation.all.allocated"]
    outs.append(f(x))  # the same tensor, unwritten: no copy
    assert gt.memory.memory_stats("cuda")["allocation.all.allocated"] == before + 1  # result
    graph = _graph(f).graph
    w.data = gt.full((3,), 10.0, device="cuda")  # other memory: captured again
    outs.append(f(x))
    assert _graph(f).graph is not graph
    assert [_host(o)[0] for o in outs] == [1.0, 3.0, 11.0, 3.0, 5.0, 12.0]


def test_steps_that_draw_or_read_back_replay_without_a_graph():
    x = gt.ones(4, device="cuda")
    noisy = gt.compile(lambda x: x + gt.rand(4, device="cuda"), cuda_graphs=True)
    with pytest.warns(UserWarning, match="draws random numbers"):
        noisy(x)
    gt.manual_seed(3)
    got = [_host(noisy(x)) for _ in range(2)]
    gt.manual_seed(3)
    want = [_host(x + gt.rand(4, device="cuda")) for _ in range(2)]
    np.testing.assert_allclose(got, want, rtol=1e-6)  # fresh draws at every call
    assert _graph(noisy) is None

    def scaled(x):  # a library call reading a value back to the host
        return library_call("scaled", lambda t: t * t.sum().item(), (x,), x.shape, x.dtype) + 1

    compiled = gt.compile(scaled, cuda_graphs=True)
    with pytest.warns(UserWarning, match="host"):
        compiled(x)
    assert _graph(compiled) is None
    assert _host(compiled(x * 2.0)).tolist() == [17.0] * 4

    with pytest.warns(UserWarning, match="differentiated outside"):
        gt.compile(lambda x: (x * 2.0).sum(), cuda_graphs=True)(x.requires_grad_())


def test_a_failed_capture_runs_the_call_without_a_graph(monkeypatch):
    def refuse(graph, run):
        raise RuntimeError("operation not permitted when stream is capturing")

    monkeypatch.setattr(EmulatedGraph, "capture", refuse)
    monkeypatch.setattr(CudaGraph, "capture", refuse)
    f = gt.compile(lambda x: x * 3.0, cuda_graphs=True)
    x = gt.ones(2, device="cuda")
    f(x)
    with pytest.warns(UserWarning, match="capture failed .*not permitted"):
        assert _host(f(x + 1.0)).tolist() == [6.0, 6.0]
    assert _graph(f) is None and _host(f(x)).tolist() == [3.0, 3.0]


class _FakeCupyStream:
    """Records the CuPy stream-capture calls CudaGraph makes (the CuPy 14 API)."""

    def __init__(self, fail=False):
        self.calls, self.fail = [], fail

    def begin_capture(self, mode=None):
        self.calls.append("begin")

    def end_capture(self):
        self.calls.append("end")
        if self.fail:
            raise RuntimeError("capture invalidated")
        stream = self

        class Graph:
            def upload(self, s):
                stream.calls.append(("upload", s is stream))

            def launch(self, s):
                stream.calls.append(("launch", s is stream))
        return Graph()


def test_cuda_graph_captures_uploads_launches_and_ends_a_failed_capture():
    fake = _FakeCupyStream()
    graph = CudaGraph(type("S", (), {"cupy": fake})())
    graph.capture(lambda: fake.calls.append("work"))
    graph.launch()
    assert fake.calls == ["begin", "work", "end", ("upload", True), ("launch", True)]
    failing = _FakeCupyStream(fail=True)

    def sync():
        raise RuntimeError("operation not permitted when stream is capturing")

    with pytest.raises(RuntimeError, match="not permitted"):  # the run's error, capture ended
        CudaGraph(type("S", (), {"cupy": failing})()).capture(sync)
    assert failing.calls == ["begin", "end"]


@cuda.jit
def _double(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2.0


@pytest.mark.skipif(not runtime.is_simulated(), reason="the emulated capture's own check")
def test_a_kernel_launched_outside_the_graphs_stream_fails_the_capture():
    def doubled(t):  # a library call that ignores gtensor's current stream
        out = t.clone()
        _double[1, 4](out._native())
        return out

    f = gt.compile(lambda x: library_call("doubled", doubled, (x,), x.shape, x.dtype) + 1.0,
                   cuda_graphs=True)
    x = gt.ones(3, device="cuda")
    f(x)
    with pytest.warns(UserWarning, match="capture failed .*default stream"):
        assert _host(f(x)).tolist() == [3.0] * 3
    assert _graph(f) is None


@pytest.mark.skipif(not runtime.is_simulated(), reason="CuPy is faked here")
def test_staged_scalars_alternate_two_pinned_buffers(monkeypatch):
    from types import SimpleNamespace

    from gtensor.compiler import staging

    device_memory = np.zeros(3)
    pinned = {}

    class Pinned(bytearray):
        def __init__(self, n):
            super().__init__(n)
            self.ptr = 1000 + len(pinned)
            pinned[self.ptr] = self

    def memcpy_async(dst, src, nbytes, kind, stream):
        assert (dst, nbytes, kind) == (8, 24, "h2d")
        device_memory[:] = np.frombuffer(pinned[src], np.float64)
        copies.append(src)

    copies = []
    fake = SimpleNamespace(cuda=SimpleNamespace(
        alloc_pinned_memory=Pinned,
        runtime=SimpleNamespace(memcpyAsync=memcpy_async, memcpyHostToDevice="h2d")))
    monkeypatch.setattr(staging.runtime, "cupy", lambda: fake)
    storage = SimpleNamespace(host=None, ptr=0, device=gt.device("cuda"))
    staged = staging.StagedScalars(SimpleNamespace(_storage=storage, _shape=(3,), _offset=1))
    for k in range(3):
        staged.write([k, 0.5, -1.0])
        assert device_memory.tolist() == [k, 0.5, -1.0]
    assert copies == [1000, 1001, 1000]
