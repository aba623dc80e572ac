"""cuDNN convolutions: signature keys, padding, graph cache, selection; against im2col on a GPU."""

from __future__ import annotations

import contextlib
import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from gtensor.kernels.common import cudnn_library
from gtensor.kernels.cuda import conv as cuda_conv
from gtensor.kernels.cuda import cudnn_conv
from gtensor.kernels.cuda.cudnn_conv import GraphCache, conv_key, cudnn_layout, post_padding
from kernel_inputs import lookup

import gtensor as gt


def _packed(*shape: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    strides = np.cumprod((1,) + shape[:0:-1])[::-1]
    return shape, tuple(int(s) for s in strides)


def test_post_padding_matches_a_search() -> None:
    for size, kernel, stride, dil, pre, hi in itertools.product(
            range(1, 9), (1, 2, 3), (1, 2, 3), (1, 2), (0, 1, 2), (0, 1, 2, 3)):
        out = (size + pre + hi - dil * (kernel - 1) - 1) // stride + 1
        if out < 1:
            continue
        fits = [q for q in range(12)
                if (size + pre + q - dil * (kernel - 1) - 1) // stride + 1 == out]
        want = pre if pre in fits else (min(fits) if fits else None)
        assert post_padding(size, out, kernel, stride, dil, pre) == want, (size, kernel, stride,
                                                                           dil, pre, hi)


def test_post_padding_refuses_what_needs_negative_padding() -> None:
    # conv_transpose2d with output_padding 1 >= stride 1 (allowed as dilation is 2): the
    # convolution it transposes would need a padding of -1 at the far side
    assert post_padding(9, 4, 3, 1, 2, 0) is None


def test_layout_fixes_unit_dims_and_refuses_broadcasts() -> None:
    assert cudnn_layout((1, 3, 1, 4), (7, 4, 0, 1)) == ((1, 3, 1, 4), (12, 4, 4, 1))
    assert cudnn_layout((2, 3, 4, 4), (48, 1, 12, 3)) == ((2, 3, 4, 4), (48, 1, 12, 3))
    assert cudnn_layout((2, 3), (0, 1)) is None
    assert cudnn_layout((2, 3), (3, -1)) is None


def test_keys_per_kind() -> None:
    x, w, y = _packed(2, 4, 6, 5), _packed(6, 2, 3, 3), _packed(2, 6, 6, 5)
    geometry = ((1, 1), (1, 1), (1, 1))
    fprop = conv_key("fprop", "float32", x, w, y, True, *geometry, True, False, 0)
    assert fprop is not None and fprop.post_padding == (1, 1) and fprop.tf32
    # "same" with an even kernel: PyTorch pads 0 before and 1 after
    same = conv_key("fprop", "float64", _packed(1, 2, 6, 6), _packed(3, 2, 2, 2),
                    _packed(1, 3, 6, 6), False, (1, 1), (0, 0), (1, 1), True, True, 0)
    assert same is not None and same.post_padding == (1, 1) and not same.tf32
    assert same.deterministic
    dgrad = conv_key("dgrad", "float32", y, w, x, False, *geometry, False, False, 1)
    wgrad = conv_key("wgrad", "float32", x, y, w, False, *geometry, False, False, 1)
    assert dgrad is not None and wgrad is not None and dgrad != wgrad
    assert dgrad.post_padding == wgrad.post_padding == (1, 1) and dgrad.device == 1
    assert conv_key("fprop", "float32", x, w, y, False, *geometry, True, False, 0) != fprop
    assert conv_key("fprop", "float32", x, w, y, True, *geometry, True, True, 0) != fprop
    for refused in [("dgrad", "float32", y, w, x, True), ("fprop", "int32", x, w, y, False),
                    ("fprop", "float32", None, w, y, False)]:
        assert conv_key(*refused, *geometry, False, False, 0) is None
    # conv_transpose2d(5 -> 10) with stride 1, dilation 2, output_padding 1: no cuDNN graph
    assert conv_key("dgrad", "float32", _packed(1, 2, 5, 5), _packed(2, 2, 3, 3),
                    _packed(1, 2, 10, 10), False, (1, 1), (0, 0), (2, 2), False, False,
                    0) is None


def test_graph_cache_builds_once_remembers_failures_and_evicts() -> None:
    builds: list[str] = []

    def build(key: str) -> str:
        builds.append(key)
        if key.startswith("bad"):
            raise RuntimeError("no engine")
        return key.upper()

    cache = GraphCache(2)
    assert cache.lookup("a", build) == "A" and cache.lookup("a", build) == "A"
    assert cache.lookup("bad", build) is None and cache.lookup("bad", build) is None
    assert builds == ["a", "bad"]
    assert cache.failures() == {"bad": "RuntimeError: no engine"} and cache.built() == 1
    cache.lookup("a", build)
    cache.lookup("c", build)  # evicts "bad", the least recently used
    assert cache.failures() == {} and cache.built() == 2
    cache.refuse("c", ValueError("launch failed"))
    assert cache.lookup("c", build) is None and builds == ["a", "bad", "c"]


class _FakeArray:
    """What the cuDNN path reads of a device array: shape, strides, dtype and address."""

    def __init__(self, shape: tuple[int, ...], address: int, dtype: str = "float32") -> None:
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.strides = tuple(s * self.dtype.itemsize for s in _packed(*shape)[1])
        self.size = int(np.prod(shape))
        self.__cuda_array_interface__ = {"data": (address, False)}


class _FakeTensor:
    def __init__(self, log: list, name: str, uid: int) -> None:
        self.log, self.name, self.uid = log, name, uid

    def get_uid(self) -> int:
        return self.uid

    def __getattr__(self, method: str):  # set_output, set_dim, ...: chained setters
        return lambda *args: self.log.append((self.name, method, args, {})) or self


class _FakeGraph:
    """Records the frontend calls of one graph; ``fail_at`` names a call that raises."""

    def __init__(self, frontend: _FakeFrontend, **kwargs) -> None:
        self.frontend, self.log, self.uids = frontend, frontend.log, 0
        self.log.append(("cudnn", "pygraph", (), kwargs))

    def __getattr__(self, method: str):
        def call(*args, **kwargs):
            self.log.append(("graph", method, args, kwargs))
            if method == self.frontend.fail_at:
                raise RuntimeError(f"{method} failed")
            if method in ("tensor", "conv_fprop", "conv_dgrad", "conv_wgrad", "bias"):
                self.uids += 1
                return _FakeTensor(self.log, kwargs["name"], self.uids)
            return 4096 if method == "get_workspace_size" else None
        return call


class _FakeFrontend:
    def __init__(self, fail_at: str | None = None) -> None:
        self.log: list = []
        self.fail_at = fail_at
        self.data_type = SimpleNamespace(FLOAT="f32", DOUBLE="f64")
        self.heur_mode = SimpleNamespace(A="A", FALLBACK="FALLBACK")
        self.numerical_note = SimpleNamespace(DOWN_CONVERT_INPUTS="down", TENSOR_CORE="tc",
                                              NONDETERMINISTIC="nondet")

    def pygraph(self, **kwargs) -> _FakeGraph:
        return _FakeGraph(self, **kwargs)

    def create_handle(self) -> str:
        return "handle"

    def set_stream(self, handle: str, stream: int) -> None:
        self.log.append(("cudnn", "set_stream", (), {"handle": handle, "stream": stream}))

    def calls(self, method: str) -> list[tuple]:
        return [(args, kwargs) for _, name, args, kwargs in self.log if name == method]


@contextlib.contextmanager
def _fake_workspace(nbytes: int, stream: int):
    yield 1 << 20 if nbytes else 0


@pytest.fixture
def fake_frontend(monkeypatch: pytest.MonkeyPatch):
    def install(fail_at: str | None = None) -> _FakeFrontend:
        fake = _FakeFrontend(fail_at)
        monkeypatch.setattr(cudnn_conv, "frontend", lambda: fake)
        monkeypatch.setattr(cudnn_conv, "_device", lambda: 0)
        monkeypatch.setattr(cudnn_conv, "_workspace", _fake_workspace)
        monkeypatch.setattr(cudnn_conv, "_handles", {})
        monkeypatch.setattr(cudnn_conv, "GRAPHS", GraphCache(4))
        return fake
    return install


def test_fprop_with_bias_builds_once_and_binds_pointers(fake_frontend) -> None:
    fake = fake_frontend()
    x, w = _FakeArray((2, 4, 6, 5), 4096), _FakeArray((6, 2, 3, 3), 8192)
    y, b = _FakeArray((2, 6, 6, 5), 16384), _FakeArray((6,), 32768)
    for _ in range(2):
        assert cudnn_conv.fprop(x, w, b, y, (1, 1), (1, 1), (1, 1), 7)
    assert len(fake.calls("pygraph")) == 1 and cudnn_conv.GRAPHS.built() == 1
    (_, conv), = fake.calls("conv_fprop")
    assert conv["pre_padding"] == conv["post_padding"] == [1, 1]
    assert conv["stride"] == conv["dilation"] == [1, 1] and conv["compute_data_type"] == "f32"
    assert fake.calls("deselect_numeric_notes") == [((["down", "tc"],), {})]
    assert [kw["bias"].name for _, kw in fake.calls("bias")] == ["bias"]
    # uids: a 1, b 2, the conv's output 3, bias 4, the biased result 5
    assert fake.calls("execute") == [(({1: 4096, 2: 8192, 5: 16384, 4: 32768}, 1 << 20),
                                      {"handle": "handle"})] * 2
    assert fake.calls("set_stream")[0] == ((), {"handle": "handle", "stream": 7})
    assert ("add_bias", "set_dim", ([2, 6, 6, 5],), {}) in fake.log


def test_dgrad_tf32_and_determinism(fake_frontend, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_frontend()
    monkeypatch.setattr(cudnn_library.SWITCHES, "allow_tf32", True)
    monkeypatch.setattr(cudnn_library.SWITCHES, "deterministic", True)
    g, w, dx = _FakeArray((1, 6, 3, 3), 4096), _FakeArray((6, 2, 3, 3), 8192), \
        _FakeArray((1, 4, 6, 6), 16384)
    assert cudnn_conv.dgrad(g, w, dx, (2, 2), (1, 1), (1, 1), None)
    (_, conv), = fake.calls("conv_dgrad")
    assert conv["pre_padding"] == conv["post_padding"] == [1, 1]
    assert conv["loss"].uid == 1 and conv["filter"].uid == 2
    assert fake.calls("deselect_numeric_notes") == [((["down", "nondet"],), {})]
    assert fake.calls("execute")[0][0][0] == {1: 4096, 2: 8192, 3: 16384}
    assert fake.calls("set_stream")[0][1]["stream"] == 0


def _wgrad_twice() -> list[bool]:
    x, g, dw = _FakeArray((2, 4, 5, 5), 4096), _FakeArray((2, 6, 5, 5), 8192), \
        _FakeArray((6, 4, 3, 3), 16384)
    return [cudnn_conv.wgrad(x, g, dw, (1, 1), (1, 1), (1, 1), None) for _ in range(2)]


def test_failed_build_falls_back_and_is_not_retried(fake_frontend) -> None:
    fake = fake_frontend(fail_at="build_plans")
    assert _wgrad_twice() == [False, False]
    assert len(fake.calls("pygraph")) == 1 and not fake.calls("execute")
    assert list(cudnn_conv.GRAPHS.failures().values()) == ["RuntimeError: build_plans failed"]


def test_failed_launch_falls_back_from_then_on(fake_frontend) -> None:
    fake = fake_frontend(fail_at="execute")
    assert _wgrad_twice() == [False, False]
    assert len(fake.calls("execute")) == 1
    (_, conv), = fake.calls("conv_wgrad")
    assert conv["image"].uid == 1 and conv["loss"].uid == 2


def test_switch_misalignment_and_dtype_take_the_fallback(fake_frontend,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_frontend()
    x, w, y = _FakeArray((1, 2, 4, 4), 4096), _FakeArray((3, 2, 3, 3), 8192), \
        _FakeArray((1, 3, 2, 2), 16384)
    monkeypatch.setattr(cudnn_library.SWITCHES, "enabled", False)
    assert not cudnn_conv.fprop(x, w, None, y, (1, 1), (0, 0), (1, 1), None)
    monkeypatch.setattr(cudnn_library.SWITCHES, "enabled", True)
    assert not cudnn_conv.fprop(_FakeArray((1, 2, 4, 4), 4100), w, None, y, (1, 1), (0, 0),
                                (1, 1), None)
    assert not cudnn_conv.fprop(_FakeArray((1, 2, 4, 4), 4096, "float16"), w, None, y, (1, 1),
                                (0, 0), (1, 1), None)
    assert fake.log == []
    assert cudnn_conv.fprop(x, w, None, y, (1, 1), (0, 0), (1, 1), None)


def test_cuda_conv_kernels_take_cudnn_when_it_runs(monkeypatch: pytest.MonkeyPatch,
                                                   rng: np.random.Generator) -> None:
    """The registered kernels return after cuDNN, and add the bias when only the plain graph ran."""
    x = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    b = np.arange(3, dtype=np.float32)
    seen = []

    def fprop(x, w, bias, out, *args):
        seen.append(bias is not None)
        if bias is None:
            out[...] = 10.0
        return bias is None

    monkeypatch.setattr(cuda_conv.cudnn_conv, "fprop", fprop)
    out = np.zeros((1, 3, 2, 2), np.float32)
    cuda_conv.conv2d(x, w, b, out, (1, 1), (0, 0), (1, 1), 1)
    assert seen == [True, False]
    np.testing.assert_array_equal(out, 10.0 + b[None, :, None, None] * np.ones((1, 3, 2, 2)))
    monkeypatch.setattr(cuda_conv.cudnn_conv, "wgrad", lambda *args: True)
    gw = np.full(w.shape, 5.0, np.float32)
    cuda_conv.conv2d_weight(x, np.ones((1, 3, 2, 2), np.float32), gw, (1, 1), (0, 0), (1, 1), 1)
    assert (gw == 5.0).all()  # untouched: the stub "ran" it


def test_switches_through_gt_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, default in [("enabled", True), ("allow_tf32", False), ("deterministic", False)]:
        monkeypatch.setattr(cudnn_library.SWITCHES, name, default)  # restored after the test
    gt.backends.cudnn.enabled = False
    assert cudnn_library.SWITCHES.enabled is False and gt.backends.cudnn.enabled is False
    gt.backends.cudnn.allow_tf32 = True
    assert cudnn_library.SWITCHES.allow_tf32 is True
    gt.backends.cudnn.allow_tf32 = False
    gt.backends.cudnn.deterministic = True
    assert cudnn_library.SWITCHES.deterministic is True and gt.backends.cudnn.deterministic
    gt.backends.cudnn.deterministic = False
    gt.backends.cudnn.enabled = True
    available = gt.backends.cudnn.is_available()
    assert available == (gt.backends.cudnn.version() is not None)
    if gt.cuda.is_simulated():
        assert not available


@pytest.mark.gpu
@pytest.mark.skipif(cudnn_library.frontend() is None,
                    reason="needs the cuDNN frontend (nvidia-cudnn-frontend) on a real GPU")
def test_cudnn_reports_itself_on_gpu() -> None:
    assert gt.backends.cudnn.is_available() and gt.backends.cudnn.version() >= 90000


GPU_CASES = [
    # (x shape, O, kernel, stride, top/left padding, dilation, groups, channels-last input,
    #  output size: None for symmetric padding)
    ((2, 4, 9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1), 1, False, None),
    ((2, 4, 9, 8), 6, (3, 2), (2, 1), (1, 0), (1, 2), 2, False, None),
    ((1, 6, 10, 7), 6, (3, 3), (2, 2), (2, 1), (2, 1), 3, True, None),
    ((1, 2, 6, 6), 3, (2, 2), (1, 1), (0, 0), (1, 1), 1, False, (6, 6)),  # padding="same"
]


@pytest.mark.gpu
@pytest.mark.skipif(cudnn_library.frontend() is None,
                    reason="needs the cuDNN frontend (nvidia-cudnn-frontend) on a real GPU")
@pytest.mark.parametrize("case", GPU_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cudnn_matches_im2col_on_gpu(case: tuple, dtype: str, rng: np.random.Generator,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    shape, o, kernel, stride, pad, dil, groups, channels_last, out_hw = case
    x = rng.standard_normal(shape).astype(dtype)
    if channels_last:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    w = rng.standard_normal((o, shape[1] // groups, *kernel)).astype(dtype)
    b = rng.standard_normal(o).astype(dtype)
    out_hw = out_hw or tuple(
        (shape[2 + i] + 2 * pad[i] - dil[i] * (kernel[i] - 1) - 1) // stride[i] + 1
        for i in range(2))
    g = rng.standard_normal((shape[0], o, *out_hw)).astype(dtype)
    geometry = (stride, pad, dil, groups)

    def run(enabled: bool) -> list[np.ndarray]:
        monkeypatch.setattr(cudnn_library.SWITCHES, "enabled", enabled)
        y, dx, dw = np.zeros(g.shape, dtype), np.zeros(shape, dtype), np.zeros(w.shape, dtype)
        lookup("conv2d", "cuda", (dtype, dtype))(x, w, b, y, *geometry)
        lookup("conv_transpose2d", "cuda", (dtype, dtype))(g, w, None, dx, *geometry)
        lookup("conv2d_weight", "cuda", (dtype, dtype))(x, g, dw, *geometry)
        return [y, dx, dw]

    built = cudnn_conv.GRAPHS.built()
    got, want = run(True), run(False)
    if dtype == "float32":  # float64 convolutions may have no cuDNN engine: those fall back
        assert cudnn_conv.GRAPHS.built() > built, cudnn_conv.GRAPHS.failures()
    tol = 1e-4 if dtype == "float32" else 1e-10
    for a, e in zip(got, want, strict=True):
        np.testing.assert_allclose(a, e, rtol=tol, atol=tol)
