"""gt.autocast: op policy per device (against torch.autocast on the cpu), regions, gradients,
the cast cache, gt.compile and custom functions."""

from __future__ import annotations

import re
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F
from gtensor.graph import autocast_mode
from gtensor.ops.elementwise import SPECS
from gtensor.ops.unary import UNARY

torch = pytest.importorskip("torch")

LOWS = [gt.float16, gt.bfloat16]
TOLERANCE = {"float16": 2e-3, "bfloat16": 2e-2}


def _inputs(ns, rng, low_name):
    """x (4, 6) float32, w (5, 6) float32, h = x in the low dtype, t class targets."""
    x = rng.standard_normal((4, 6)).astype(np.float32)
    w = rng.standard_normal((5, 6)).astype(np.float32)
    low = getattr(ns, low_name)
    return (ns.tensor(x), ns.tensor(w), ns.tensor(x).to(low), ns.tensor(np.array([0, 1, 2, 3])))


def _cpu_cases(ns, F, x, w, h, t):
    """One call per op family; ``ns`` is gtensor or torch, ``F`` its functional module."""
    return {
        "matmul": lambda: x @ w.T, "mm": lambda: ns.mm(x, w.T),
        "bmm": lambda: ns.bmm(x[None], w.T[None]), "linear": lambda: F.linear(x, w),
        "sdpa": lambda: F.scaled_dot_product_attention(x[None], x[None], x[None]),
        "prelu": lambda: F.prelu(x, ns.tensor([0.25])),
        "matmul_float64": lambda: x.double() @ w.double().T,
        "baddbmm": lambda: ns.baddbmm(h[None, :, :4], x[None], w.T[None, :, :4]),
        "vecdot": lambda: ns.linalg.vecdot(x, x), "cdist": lambda: ns.cdist(h, h),
        "quantile": lambda: ns.quantile(h, 0.25, dim=1),
        "softmax": lambda: ns.softmax(h, 1), "exp": lambda: h.exp(), "pow": lambda: h ** 2,
        "sum": lambda: h.sum(), "prod": lambda: (h * 0.5).prod(), "cumsum": lambda: h.cumsum(0),
        "layer_norm": lambda: F.layer_norm(h, (6,)), "relu": lambda: F.relu(h),
        "cross_entropy": lambda: F.cross_entropy(h, t), "nll_loss": lambda: F.nll_loss(h, t),
        "mse_loss": lambda: F.mse_loss(h, x), "l1_loss": lambda: F.l1_loss(h, x),
        "kl_div": lambda: F.kl_div(h, x.softmax(1), reduction="batchmean"),
        "bce_with_logits": lambda: F.binary_cross_entropy_with_logits(h, x.sigmoid()),
        "trace": lambda: h[:, :4].trace(), "cat": lambda: ns.cat([x, h]),
        "stack": lambda: ns.stack([h, x]), "cat_low": lambda: ns.cat([h, h]),
        "index_copy": lambda: x.index_copy(0, t, h), "addcmul": lambda: ns.addcmul(x, h, h),
    }


@pytest.mark.parametrize("low", LOWS, ids=lambda d: d.name)
def test_cpu_policy_matches_torch(low: gt.dtype) -> None:
    rng = np.random.default_rng(0)
    ours = _cpu_cases(gt, F, *_inputs(gt, rng, low.name))
    rng = np.random.default_rng(0)
    theirs = _cpu_cases(torch, torch.nn.functional, *_inputs(torch, rng, low.name))
    with gt.autocast("cpu", dtype=low):
        got = {name: fn() for name, fn in ours.items()}
    with torch.autocast("cpu", dtype=getattr(torch, low.name)):
        want = {name: fn() for name, fn in theirs.items()}
    tol = TOLERANCE[low.name]
    for name, ref in want.items():
        assert got[name].dtype.name == str(ref.dtype).removeprefix("torch."), name
        np.testing.assert_allclose(got[name].float().numpy(), ref.float().numpy(), rtol=tol,
                                   atol=tol, err_msg=name)


# PyTorch's CUDA lists: matmul-like ops low, softmax/sums/exp-like/norms/losses float32,
# mixed ternary ops promoted; convolutions float32 in gtensor until its kernels take half types
CUDA_DTYPES = {"matmul": "low", "softmax": "float32", "exp": "float32", "pow": "float32",
               "sum": "float32", "layer_norm": "float32", "cross_entropy": "float32",
               "relu": "low", "addcmul": "float32", "conv2d": "float32"}
CPU_DTYPES = {**CUDA_DTYPES, "softmax": "low", "exp": "low", "pow": "low", "sum": "low",
              "layer_norm": "low"}


def test_policy_per_device(device: str) -> None:
    low = gt.get_autocast_dtype(device)  # bfloat16 on the cpu, float16 on cuda
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    img = rng.standard_normal((1, 1, 3, 3)).astype(np.float32)
    xs, hs = gt.tensor(x, device=device), gt.tensor(x, device=device).to(low)
    ts = gt.tensor([0, 2], device=device)
    cases = {
        "matmul": (lambda: xs @ xs.T, x @ x.T),
        "softmax": (lambda: hs.softmax(1), np.exp(x) / np.exp(x).sum(1, keepdims=True)),
        "exp": (lambda: hs.exp(), np.exp(x)), "pow": (lambda: hs ** 2, x ** 2),
        "sum": (lambda: hs.sum(), x.sum()),
        "layer_norm": (lambda: F.layer_norm(hs, (3,)),
                       (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)),
        "cross_entropy": (lambda: F.cross_entropy(hs, ts),
                          np.mean(np.log(np.exp(x).sum(1)) - x[[0, 1], [0, 2]])),
        "relu": (lambda: F.relu(hs), np.maximum(x, 0)),
        "addcmul": (lambda: gt.addcmul(xs, hs, hs), x + x * x),
        "conv2d": (lambda: F.conv2d(gt.tensor(img, device=device).to(low),
                                    gt.tensor(img, device=device)), (img * img).sum()[None]),
    }
    expected = CUDA_DTYPES if device == "cuda" else CPU_DTYPES
    with gt.autocast(device):
        got = {name: fn() for name, (fn, _) in cases.items()}
    tol = 2 * TOLERANCE[low.name]
    for name, (_, ref) in cases.items():
        assert got[name].dtype.name == expected[name].replace("low", low.name), name
        np.testing.assert_allclose(got[name].float().cpu().numpy().reshape(np.shape(ref)), ref,
                                   rtol=tol, atol=tol, err_msg=name)


def test_regions_nest_switch_off_and_decorate() -> None:
    assert not gt.is_autocast_enabled("cpu") and gt.get_autocast_dtype("cuda") is gt.float16
    a = gt.ones(2, 2)
    with gt.autocast("cpu", dtype=gt.float16):
        assert gt.is_autocast_enabled("cpu") and not gt.is_autocast_enabled("cuda")
        with gt.autocast("cpu", enabled=False):
            assert (a @ a).dtype is gt.float32 and not gt.is_autocast_enabled("cpu")
        assert (a @ a).dtype is gt.float16 and gt.get_autocast_dtype("cpu") is gt.float16
    assert (a @ a).dtype is gt.float32 and not gt.is_autocast_enabled("cpu")

    @gt.amp.autocast("cpu", dtype=gt.float16)
    def product(x):
        return x @ x

    assert product(a).dtype is gt.float16 and not gt.is_autocast_enabled("cpu")
    seen = []
    with gt.autocast("cpu", dtype=gt.float16):
        worker = threading.Thread(target=lambda: seen.append((a @ a).dtype))
        worker.start()
        worker.join()
    assert seen == [gt.float32]  # the state is per thread


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="device_type"):
        gt.autocast(gt.device("cpu"))
    with pytest.raises(RuntimeError, match="unsupported autocast device_type 'mps'"):
        gt.autocast("mps")
    with pytest.warns(UserWarning, match="target dtype is not supported"):
        region = gt.autocast("cpu", dtype=gt.float64)
    with region:
        assert not gt.is_autocast_enabled("cpu")
    with gt.autocast("cuda", dtype=gt.float16), pytest.raises(RuntimeError, match="unsafe"):
        F.binary_cross_entropy(gt.full((2,), 0.5, device="cuda"), gt.ones(2, device="cuda"))
    with gt.autocast("cpu"), pytest.raises(gt.DTypeError, match="cannot promote a float16"):
        gt.cat([gt.ones(2).bfloat16(), gt.ones(2).half()])  # PyTorch refuses it too


def test_gradients_come_back_in_each_parameter_dtype(device: str) -> None:
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal((2, 4))
    xs = gt.tensor(x, device=device)
    w32 = gt.tensor(w.astype(np.float32), device=device, requires_grad=True)
    w16 = gt.tensor(w.astype(np.float16), device=device, requires_grad=True)
    with gt.autocast(device, dtype=gt.float16):
        y = F.linear(xs, w32) + F.linear(xs, w16)
        loss = F.mse_loss(y, gt.zeros(3, 2, device=device))
    assert y.dtype is gt.float16 and loss.dtype is gt.float32
    loss.backward()
    ref = (2 * (2 * x @ w.T) / 6).T @ x  # d mean(y^2) / dw for y = 2 x w^T
    assert w32.grad.dtype is gt.float32 and w16.grad.dtype is gt.float16
    for grad in (w32.grad, w16.grad):
        np.testing.assert_allclose(grad.float().cpu().numpy(), ref, rtol=1e-2, atol=1e-2)


def test_parameter_cast_is_cached_per_region() -> None:
    x = gt.randn(3, 4)
    w = gt.nn.Parameter(gt.randn(2, 4))
    with gt.autocast("cpu", dtype=gt.float16):
        first = autocast_mode.autocast_inputs("linear", x, w)[1]
        assert autocast_mode.autocast_inputs("linear", x, w)[1] is first
        y = F.linear(x, w) + F.linear(x, w)
        with gt.no_grad():
            w.mul_(2.0)  # a write makes the next cast fresh
        assert autocast_mode.autocast_inputs("linear", x, w)[1] is not first
        with gt.no_grad():  # a cast made without grad is never cached
            assert autocast_mode.autocast_inputs("mm", x, w)[1] is not \
                autocast_mode.autocast_inputs("mm", x, w)[1]
    assert not autocast_mode.state.cache
    with gt.autocast("cpu", dtype=gt.float16, cache_enabled=False):
        assert autocast_mode.autocast_inputs("linear", x, w)[1] is not \
            autocast_mode.autocast_inputs("linear", x, w)[1]
    y.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), np.tile(2 * x.numpy().sum(0), (2, 1)),
                               rtol=1e-2, atol=1e-2)


def test_compiled_function_retraces_under_autocast() -> None:
    f = gt.compile(lambda a, b: a @ b * 2.0)
    a, b = gt.randn(3, 4), gt.randn(4, 2)
    ref = a.numpy() @ b.numpy() * 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # traced, not run eagerly
        outside = f(a, b)
    with warnings.catch_warnings(), gt.autocast("cpu", dtype=gt.float16):
        warnings.simplefilter("ignore")  # a half-precision trace may run eagerly
        inside = f(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = f(a, b)
    assert (outside.dtype, inside.dtype, again.dtype) == (gt.float32, gt.float16, gt.float32)
    for out, tol in ((outside, 1e-5), (inside, 2e-2), (again, 1e-5)):
        np.testing.assert_allclose(out.float().numpy(), ref, rtol=tol, atol=tol)


class _Product(gt.autograd.Function):
    seen: list[tuple] = []

    @staticmethod
    @gt.amp.custom_fwd(device_type="cpu", cast_inputs=gt.float32)
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        _Product.seen.append((x.dtype, w.dtype, gt.is_autocast_enabled("cpu")))
        return x @ w

    @staticmethod
    @gt.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        _Product.seen.append(gt.is_autocast_enabled("cpu"))
        return g @ w.T, x.T @ g


def test_custom_fwd_casts_inputs_and_custom_bwd_keeps_the_state() -> None:
    x = gt.randn(2, 3).half()
    w = gt.nn.Parameter(gt.randn(3, 2))
    with gt.autocast("cpu", dtype=gt.float16):
        out = _Product.apply(x, w)
    assert out.dtype is gt.float32
    out.sum().backward()
    assert _Product.seen == [(gt.float32, gt.float32, False), False]
    assert w.grad.dtype is gt.float32
    np.testing.assert_allclose(w.grad.numpy(), np.tile(x.float().numpy().sum(0)[:, None],
                                                       (1, 2)), rtol=1e-6)


def test_every_policy_op_has_its_hook() -> None:
    """Each op of the policy tables calls ``autocast_inputs`` with its name (the unary and
    binary ops through the functions their factories define)."""
    source = "".join(p.read_text() for p in Path(gt.__file__).parent.rglob("*.py"))
    hooked = set(re.findall(r'autocast_inputs\(\s*"(\w+)"', source)) | set(UNARY) | set(SPECS)
    for device_type, policy in autocast_mode.POLICIES.items():
        assert not set(policy) - hooked, device_type
