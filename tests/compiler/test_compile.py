"""gt.compile: traced once per signature, fused, equal to eager; else eager with a warning."""

import warnings

import numpy as np
import pytest

import gtensor as gt
from gtensor.errors import Untraceable


def _chain(a, b, c):
    return (a * b + c).relu()


def _softmax(x):
    e = (x - x.amax(dim=-1, keepdim=True)).exp()
    return e / e.sum(dim=-1, keepdim=True)


def _fused(f):
    """The one program ``f`` has built, which must have fused (not run eagerly)."""
    (program,) = f._programs.values()
    assert hasattr(program, "kernels"), "ran eagerly"
    return program


def _host(t):
    return t.cpu().numpy()


def test_elementwise_chain_equals_eager_and_is_one_kernel(device, rng):
    a, b, c = (gt.tensor(rng.standard_normal((3, 5)).astype(np.float32), device=device)
               for _ in range(3))
    f = gt.compile(_chain)
    for _ in range(2):
        np.testing.assert_array_equal(_host(f(a, b, c)), _host(_chain(a, b, c)))
    assert len(_fused(f).kernels) == 1


def test_values_are_read_on_every_call_and_traced_once(rng):
    traced = []
    w = gt.tensor([1.0, 2.0, 3.0])

    @gt.compile
    def f(x, scale):
        traced.append(1)
        return x * w + scale

    x = gt.tensor([1.0, 1.0, 1.0])
    assert f(x, 2.0).tolist() == [3.0, 4.0, 5.0]
    x.fill_(2.0)
    w.mul_(10)  # a captured tensor is read afresh, not frozen
    assert f(x, 2.0).tolist() == [22.0, 42.0, 62.0]
    assert len(traced) == 1
    assert f(x, 0.5).tolist() == [20.5, 40.5, 60.5]  # another number: another signature
    assert f(gt.ones(2, 3), 0.0).shape == (2, 3)  # another shape: another trace
    assert len(traced) == 3


@pytest.mark.parametrize("dt", [gt.float32, gt.float64, gt.int64])
def test_dtypes_promotion_and_comparisons(dt, device, rng):
    a = gt.tensor(rng.integers(-5, 5, (4, 3)), device=device).to(dt)
    b = gt.tensor(rng.integers(1, 5, (3,)), device=device).to(dt)

    def f(a, b):
        return (a * 2 - b).abs() + 1, a > b, (a / b).neg()

    got, want = gt.compile(f)(a, b), f(a, b)
    for g, w in zip(got, want, strict=True):
        assert g.dtype is w.dtype and g.shape == w.shape
        np.testing.assert_allclose(_host(g), _host(w), rtol=1e-6)


def test_broadcasting_scalars_and_strided_arguments(rng):
    x = gt.tensor(rng.standard_normal((4, 6)).astype(np.float32))
    col = gt.tensor(rng.standard_normal((4, 1)).astype(np.float32))
    row = gt.tensor(rng.standard_normal(6).astype(np.float32))

    def f(x, col, row):
        return (1.5 * x + col - row).sigmoid() * 3

    np.testing.assert_allclose(gt.compile(f)(x, col, row).numpy(), f(x, col, row).numpy(),
                               rtol=1e-6)
    xt = x.T  # a transposed argument: its strides are part of the signature
    g = gt.compile(lambda t: t * 2 + 1)
    np.testing.assert_array_equal(g(xt).numpy(), (xt * 2 + 1).numpy())


@pytest.mark.parametrize("op", ["sum", "mean", "amax", "amin"])
@pytest.mark.parametrize("dim, keepdim", [(None, False), (0, False), (1, True), ((0, 2), False)])
def test_reductions_of_a_chain(op, dim, keepdim, device, rng):
    x = gt.tensor(rng.standard_normal((3, 4, 5)).astype(np.float32), device=device)

    def f(x):
        y = (x * x + 1.0).log()
        return getattr(y, op)() if dim is None else getattr(y, op)(dim=dim, keepdim=keepdim)

    got, want = gt.compile(f, fullgraph=True)(x), f(x)
    assert got.shape == want.shape and got.dtype is want.dtype
    np.testing.assert_allclose(_host(got), _host(want), rtol=2e-6)


def test_softmax_composition_and_nan_propagation(device, rng):
    x = gt.tensor(rng.standard_normal((6, 9)).astype(np.float32), device=device)
    f = gt.compile(_softmax)
    np.testing.assert_allclose(_host(f(x)), _host(gt.softmax(x, -1)), atol=1e-7)
    assert len(_fused(f).kernels) == 3  # max, sum, then the division
    y = gt.tensor([1.0, float("nan"), 3.0], device=device)
    assert np.isnan(gt.compile(lambda t: t.amax())(y).item())


def test_views_where_and_casts(device, rng):
    x = gt.tensor(rng.standard_normal((3, 4)).astype(np.float32), device=device)
    y = gt.tensor(rng.standard_normal((4, 3)).astype(np.float32), device=device)

    def f(x, y):
        centred = x - x.mean(dim=1).unsqueeze(1)  # a view of a reduction's result
        leaky = gt.where(centred > 0, centred, centred * 0.1)
        return leaky * 2 + y.T, (x * 2).expand(2, 3, 4) + x[None], leaky.to(gt.float64)

    def g(x):  # views of computed values: written to memory, then read as views
        return (x * 2).T + 1, (x.exp().sum(dim=1) * 2).reshape(3, 1) * x

    for got, want in zip((*gt.compile(f, fullgraph=True)(x, y),
                          *gt.compile(g, fullgraph=True)(x)), (*f(x, y), *g(x)), strict=True):
        assert got.dtype is want.dtype and got.shape == want.shape
        np.testing.assert_allclose(_host(got), _host(want), rtol=1e-6, atol=1e-7)


def test_layer_norm_written_out_is_fused(rng):
    x = gt.tensor(rng.standard_normal((5, 8)).astype(np.float32))

    def layer_norm(x):
        centred = x - x.mean(-1, keepdim=True)
        return centred / ((centred ** 2).mean(-1, keepdim=True) + 1e-5).sqrt()

    f = gt.compile(layer_norm, fullgraph=True)
    ref = gt.nn.functional.layer_norm(x, (8,))
    np.testing.assert_allclose(f(x).numpy(), ref.numpy(), atol=2e-6)
    assert len(_fused(f).kernels) == 3  # two means, then the normalization


def test_large_transcendentals_run_as_numpy_loops_between_fused_loops(rng):
    x = gt.tensor(rng.standard_normal(1 << 15).astype(np.float32), requires_grad=True)

    def gelu(x):
        return 0.5 * x * (1.0 + (0.79788456 * (x + 0.044715 * x * x * x)).tanh())

    f = gt.compile(gelu, fullgraph=True)
    got = f(x)
    np.testing.assert_allclose(got.detach().numpy(), gelu(x).detach().numpy(), rtol=1e-6,
                               atol=1e-7)
    kinds = [roots.__class__ is int for _, _, roots in _fused(f).kernels]
    assert kinds == [False, True, False]  # the tanh's input, NumPy's tanh, the rest
    got.sum().backward()
    want = x.grad.numpy().copy()
    x.grad = None
    gelu(x).sum().backward()
    np.testing.assert_allclose(want, x.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_results_keep_the_function_structure():
    @gt.compile
    def f(x):
        row = x.sum(dim=1).unsqueeze(0)  # a view of a reduction, read and returned
        return {"double": x * 2, "same": x, "pair": (x + 1, x.sum()), "n": 3,
                "row": row, "scaled": row * 2}

    x = gt.tensor([[1.0, 2.0]])
    out = f(x)
    assert out["same"] is x and out["n"] == 3
    assert out["double"].tolist() == [[2.0, 4.0]]
    assert out["pair"][0].tolist() == [[2.0, 3.0]] and out["pair"][1].item() == 3.0
    assert out["row"].tolist() == [[3.0]] and out["scaled"].tolist() == [[6.0]]


def test_untraceable_runs_eagerly_once_warned_or_raises_with_fullgraph(device):
    x = gt.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
    f = gt.compile(lambda t: (t * 2 > 3).nonzero())  # a shape that depends on the data
    with pytest.warns(UserWarning, match="runs eagerly"):
        got = f(x)
    np.testing.assert_array_equal(_host(got), _host((x * 2 > 3).nonzero()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once only
        f(x)
    strict = gt.compile(lambda t: t.nonzero(), fullgraph=True)
    with pytest.raises(Untraceable, match="nonzero"):
        strict(x)
    with pytest.raises(Untraceable, match="item"):
        gt.compile(lambda t: t * t.sum().item(), fullgraph=True)(x)


def _grads(f, tensors):
    for t in tensors:
        t.grad = None
    out = f()
    (out if out.ndim == 0 else (out * out).sum()).backward()
    return [None if t.grad is None else _host(t.grad) for t in tensors]


@pytest.mark.parametrize("case", ["chain", "softmax", "reductions", "matmul", "library",
                                  "loss", "ternary", "concat", "kernel_reductions"])
def test_gradients_equal_eager_ones(case, device, rng):
    def tensor(*shape, grad=True):
        data = rng.standard_normal(shape).astype(np.float32)
        return gt.tensor(data, device=device, requires_grad=grad)

    a, b, c = tensor(3, 4), tensor(4), tensor(3, 4, grad=False)
    w = tensor(4)  # captured by the function: a parameter

    def fn(a, b, c):
        if case == "chain":
            return (a * b + c).relu().sum() + (a / (b.exp() + 1.0)).mean()
        if case == "softmax":
            return _softmax(a * w + c) * b
        if case == "library":  # softmax and log_softmax traced as the ops they are made of
            return gt.softmax(a * w, -1) * b + gt.log_softmax(a + c, 0)
        if case == "loss":  # log_softmax fused, the target's gather a library call
            target = gt.tensor([3, 0, 2], device=device)
            return gt.nn.functional.cross_entropy(a * w + c, target) * b.sum()
        if case == "kernel_reductions":  # reductions and scans the fuser lacks: their kernels
            return (a.var(dim=1).sum() + (a * w).std() + a.norm(p=3) + a.norm(p=1, dim=0).sum()
                    + (a + c).logsumexp(1).sum() + (a * b).prod(1).sum()
                    + ((a * w).cumsum(1) * c).sum())
        if case == "concat":  # a library call with any number of operands
            joined = gt.cat([a * 2, c, (a + b).relu()], 0) * gt.stack([w, b], 0).sum(0)
            return (joined * joined).sum()
        if case == "ternary":  # three-operand ops fuse like the others
            return ((a.clamp(-0.5, 0.5) * b).sum() + gt.addcmul(a, b, c, value=0.5).mean()
                    + gt.lerp(a, c, 0.3).sum() + gt.addcdiv(c, a, b.exp() + 1, value=2.0).sum()
                    + gt.clamp(a, min=c * w).sum())
        if case == "reductions":
            return a.amax(dim=1) * 2 + (a - b).amin() + (a * w).sum(dim=0).sum()
        # library calls stay as they are, their neighbours fused around them
        hidden = (a.T @ (a + c) + b).relu()
        return (hidden @ w).sum() + (a @ b * 0.5).sum()

    compiled = gt.compile(fn, fullgraph=True)
    for _ in range(2):  # traced once, then replayed: both give eager's gradients
        got = _grads(lambda: compiled(a, b, c), (a, b, c, w))
        want = _grads(lambda: fn(a, b, c), (a, b, c, w))
        for g, e in zip(got, want, strict=True):
            assert (g is None) == (e is None)
            if g is not None:
                np.testing.assert_allclose(g, e, rtol=2e-5, atol=1e-6)
    assert _fused(compiled).backward is not None


def test_library_calls_check_their_arguments_on_every_call():
    f = gt.compile(lambda x, y: gt.nn.functional.cross_entropy(x * 2, y))
    x = gt.ones(2, 3)
    assert f(x, gt.tensor([0, 2])).item() == pytest.approx(np.log(3))
    with pytest.raises(IndexError, match="out of bounds"):
        f(x, gt.tensor([0, 7]))


def test_gradients_refuse_inputs_changed_in_place():
    a = gt.tensor([1.0, 2.0], requires_grad=True)
    x = gt.tensor([3.0, 4.0])
    loss = gt.compile(lambda a, x: (a * x).sum())(a, x)
    x.mul_(2)
    with pytest.raises(RuntimeError, match="inplace"):
        loss.backward()


def test_eager_errors_are_raised_as_eager_raises():
    f = gt.compile(lambda a, b: a + b)
    with pytest.raises(gt.ShapeError, match="add"):
        f(gt.ones(2), gt.ones(3))


def test_a_long_recurrence_is_kept_in_memory_not_recomputed_by_every_loop(monkeypatch, rng):
    from gtensor.compiler import fusion

    sources = []

    def recording(*args, **kwargs):
        kernel = fusion_map(*args, **kwargs)
        sources.append(kernel.source)
        return kernel

    fusion_map = fusion.cpu_map
    monkeypatch.setattr(fusion, "cpu_map", recording)
    monkeypatch.setattr(fusion, "RECOMPUTE_LIMIT", 6)  # a short chain shows it
    x = gt.tensor(rng.standard_normal((4, 4)).astype(np.float32))
    w = gt.tensor(rng.standard_normal((4, 4)).astype(np.float32))

    def f(x):  # an RNN-like state: each step's is the last one's, updated elementwise
        c, total = x, 0.0
        for _ in range(10):
            c = c * 0.5 + x
            total = total + (c.tanh() @ w).sum()  # every step read by a library call
        return total

    np.testing.assert_allclose(gt.compile(f, fullgraph=True)(x).item(), f(x).item(), rtol=1e-5)
    ops = [s.count("= np.float32(") for s in sources]
    assert ops and max(ops) <= fusion.RECOMPUTE_LIMIT + 3, ops  # not 21 for the last step


def test_values_with_indices_sorts_and_arange_are_library_calls(rng):
    x = gt.tensor(rng.standard_normal((4, 6)).astype(np.float32), requires_grad=True)

    def step(x):
        v, i = x.max(1)
        top = x.topk(3, dim=1).values
        loss = (v * gt.arange(4.0)).sum() + (top * top).sum() + x.sort(0).values[0].sum() \
            + x.argmin(0).float().sum() + i.float().sum()
        loss.backward()
        return loss

    want = step(x).item()
    want_grad = _host(x.grad)
    f = gt.compile(step, fullgraph=True)
    for _ in range(2):
        x.grad = None
        np.testing.assert_allclose(f(x).item(), want, rtol=1e-6)
        np.testing.assert_allclose(_host(x.grad), want_grad, rtol=1e-6)
    _fused(f)


def test_integer_indexing_and_index_select_are_library_calls(rng):
    x = gt.tensor(rng.standard_normal((5, 3)).astype(np.float32), requires_grad=True)
    idx = gt.tensor([0, 2, 2])

    def step(x, idx):
        loss = (x.index_select(0, idx) ** 2).sum() + x[idx, 1].sum() + x[[1, 3]].sum()
        loss.backward()
        return loss

    want = step(x, idx).item()
    want_grad = _host(x.grad)
    f = gt.compile(step, fullgraph=True)
    for _ in range(2):
        x.grad = None
        np.testing.assert_allclose(f(x, idx).item(), want, rtol=1e-6)
        np.testing.assert_allclose(_host(x.grad), want_grad, rtol=1e-6)
    _fused(f)


def test_masks_triangles_pads_searches_and_index_writes_are_traced(device, rng):
    x = gt.tensor(rng.standard_normal((4, 6)).astype(np.float32), device=device,
                  requires_grad=True)
    v = gt.tensor(rng.standard_normal((2, 6)).astype(np.float32), device=device,
                  requires_grad=True)
    idx = gt.tensor([0, 2], device=device)
    edges = gt.tensor([-0.5, 0.0, 0.5], device=device)

    def step(x, v, idx):
        y = x * 2
        y[idx] = v * v
        z = y.index_put((idx,), v * 3, accumulate=True).masked_fill(y > 1, -1.0).triu(1)
        z = gt.nn.functional.pad(z.tril(2), (1, 2)) + gt.linspace(0, 1, 9, device=device)
        hot = gt.nn.functional.one_hot(gt.bucketize(x.detach(), edges), 4).float()
        loss = (z * z).sum() + (hot.sum(-1) * x).sum()
        loss.backward()
        return loss

    f = gt.compile(step, fullgraph=True)
    for _ in range(2):  # new values at each call: nothing may be baked into the trace
        x.grad = v.grad = None
        got = f(x, v, idx)
        got_grads = _host(x.grad), _host(v.grad)
        x.grad = v.grad = None
        np.testing.assert_allclose(got.item(), step(x, v, idx).item(), rtol=1e-6)
        for g, t in zip(got_grads, (x, v), strict=True):
            np.testing.assert_allclose(g, _host(t.grad), rtol=1e-6)
        with gt.no_grad():
            x.mul_(-1.5)
            v.add_(0.25)
    _fused(f)
