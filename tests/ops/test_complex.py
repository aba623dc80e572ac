"""complex64 and complex128: promotion, creation, copies, elementwise ops, reductions, matmul
and their gradients, against PyTorch (values and ``torch.autograd``'s gradients)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import gtensor as gt

torch = pytest.importorskip("torch")

DTYPES = ("complex64", "complex128")
TOL = {"complex64": 2e-5, "complex128": 1e-11}
RNG = np.random.default_rng(7)
A = RNG.uniform(-1.5, 1.5, (2, 3)) + 1j * RNG.uniform(-1.5, 1.5, (2, 3))
B = RNG.uniform(-1.5, 1.5, (3, 2)) + 1j * RNG.uniform(-1.5, 1.5, (3, 2))


def _ns(x):  # noqa: ANN001, ANN202 - the module of a tensor: gtensor or torch
    return torch if isinstance(x, torch.Tensor) else gt


def _close(got: gt.Tensor, want: torch.Tensor, tol: float) -> None:
    assert got.dtype.name == str(want.dtype).removeprefix("torch."), (got.dtype, want.dtype)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().resolve_conj().numpy(),
                               rtol=tol, atol=tol)


def test_promotion_and_scalars():
    c64, c128 = gt.complex64, gt.complex128
    assert gt.promote_types(c64, gt.float64) is c128
    assert gt.promote_types(gt.float16, c64) is c64 and gt.promote_types(gt.bfloat16, c64) is c64
    assert gt.promote_types(c64, gt.int64) is c64 and gt.promote_types(gt.bool, c128) is c128
    assert gt.promote_types(c64, c128) is c128
    assert gt.result_type(gt.ones(2), 1j) is c64
    assert gt.result_type(gt.ones(2, dtype=gt.float64), 1j) is c128
    assert gt.result_type(gt.ones(2, dtype=gt.int32), 2j) is c64
    assert gt.result_type(gt.ones(2, dtype=gt.float64), gt.tensor(1j)) is c128
    assert gt.cfloat is c64 and gt.cdouble is c128 and c64.is_complex and not c64.is_floating_point
    assert c128.real_dtype is gt.float64 and gt.finfo(c64).eps == gt.finfo(gt.float32).eps
    assert gt.tensor([1 + 2j]).dtype is c64
    gt.set_default_dtype(gt.float64)
    try:
        assert gt.tensor([1j]).dtype is c128
        assert gt.result_type(gt.ones(2, dtype=gt.int8), 1j) is c128
    finally:
        gt.set_default_dtype(gt.float32)


def test_repr_as_pytorch():
    for values, dtype in (([1 + 2j, 3j], None), ([1.5 + 2j, -3 - 3j, 1e-5 + 1j], None),
                          ([1 + 2j, 3j], "complex128"), (2 - 1j, None)):
        want = repr(torch.tensor(values, dtype=dtype and getattr(torch, dtype)))
        got = repr(gt.tensor(values, dtype=dtype))
        assert got == want.replace("torch.", "gtensor.")


@pytest.mark.parametrize("dtype", DTYPES)
def test_creation_copies_and_storage(device: str, dtype: str):
    dt = getattr(gt, dtype)
    a = A.astype(dtype)
    x = gt.tensor(a, device=device)
    assert x.dtype is dt and x[0, 1].item() == complex(a[0, 1]) and x.tolist() == a.tolist()
    assert np.array_equal(x.T.contiguous().cpu().numpy(), a.T)
    assert gt.zeros(2, dtype=dt, device=device).tolist() == [0j, 0j]
    assert gt.from_numpy(a).dtype is dt
    noise = gt.randn(256, dtype=dt, device=device)  # each part N(0, 1/2), as PyTorch
    assert noise.dtype is dt and 0.7 < noise.abs().square().mean().item() < 1.3
    assert 0 <= gt.rand(4, dtype=dt, device=device).imag.min().item() < 1
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        real = x.to(gt.float32)
    assert np.array_equal(real.cpu().numpy(), a.real.astype(np.float32))
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        brain = x.to(gt.bfloat16).float()
    assert np.allclose(brain.cpu().numpy(), a.real, rtol=1e-2)
    assert x.to(gt.bool).tolist() == (a != 0).tolist()
    assert np.array_equal(gt.ones(2, device=device).to(dt).cpu().numpy(), [1, 1])
    idx = gt.tensor([1, 0], device=device)
    moved = {"index": x[idx], "gather": x.gather(1, gt.tensor([[2], [0]], device=device)),
             "masked_fill": x.masked_fill(x.abs() > 1, 0), "cat": gt.cat([x, x], 1),
             "stack": gt.stack([x, x]), "where": gt.where(x.abs() > 1, x, 5j)}
    want = {"index": a[[1, 0]], "gather": a[[[0], [1]], [[2], [0]]],
            "masked_fill": np.where(abs(a) > 1, 0, a), "cat": np.concatenate([a, a], 1),
            "stack": np.stack([a, a]), "where": np.where(abs(a) > 1, a, 5j)}
    for name, got in moved.items():
        assert got.dtype is dt and np.array_equal(got.cpu().numpy(), want[name]), name
    summed = gt.zeros(2, 3, dtype=dt, device=device).index_add(
        0, gt.tensor([0, 0, 1], device=device), gt.cat([x, x[:1]]))  # duplicates: atomics
    assert np.allclose(summed.cpu().numpy(), [a[0] + a[1], a[0]])
    y = x.clone()
    y[0, 1] = 7j
    y.imag[1] = gt.tensor([1.0, 2.0, 3.0], device=device)  # a view: writes the complex storage
    assert y[0, 1].item() == 7j and np.array_equal(y[1].cpu().numpy(), a[1].real + [1j, 2j, 3j])
    pairs = gt.view_as_real(x)
    assert pairs.shape == (2, 3, 2) and np.array_equal(pairs.cpu().numpy()[..., 1], a.imag)
    assert gt.equal(gt.view_as_complex(pairs), x) and gt.allclose(gt.complex(x.real, x.imag), x)
    buf = io.BytesIO()
    gt.save({"x": x}, buf)
    buf.seek(0)
    back = gt.load(buf)["x"]
    assert back.dtype is dt and back.device == x.device and gt.equal(back, x)


UNARY = ("neg", "abs", "square", "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
         "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "angle",
         "sgn", "conj")
BINARY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - 2 * b, "mul": lambda a, b: a * b,
          "div": lambda a, b: a / b, "pow": lambda a, b: a ** b, "pow_int": lambda a, b: a ** 3,
          "real_mix": lambda a, b: a.real * b + 1j}
PRODUCTS = {"matmul": lambda a, b: a @ b, "bmm": lambda a, b: _ns(a).bmm(a[None], b[None]),
            "dot": lambda a, b: _ns(a).dot(a[0], b[:, 0]),
            "vdot": lambda a, b: _ns(a).vdot(a[0], b[:, 0]),
            "outer": lambda a, b: _ns(a).outer(a[0], b[:, 1]),
            "einsum": lambda a, b: _ns(a).einsum("ij,jk->ik", a, b),
            "mH": lambda a, b: a.mH @ b.mH}
REDUCE = {"sum": lambda a: a.sum(1), "prod": lambda a: a.prod(1), "mean": lambda a: a.mean(),
          "cumsum": lambda a: a.cumsum(1), "var": lambda a: a.var(1), "std": lambda a: a.std(),
          "real": lambda a: a.real * 3, "imag": lambda a: a.imag ** 2,
          "view_as_real": lambda a: _ns(a).view_as_real(a),
          "polar": lambda a: _ns(a).polar(a.abs(), a.angle()),
          "norm": lambda a: a.norm(), "vector_norm": lambda a: _ns(a).linalg.vector_norm(a, 3),
          "asinh": lambda a: _ns(a).asinh(a),
          "acosh": lambda a: _ns(a).acosh(a), "atanh": lambda a: _ns(a).atanh(a)}


def _check_grads(fn, arrays, dtype, device):  # noqa: ANN001, ANN202
    tol = TOL[dtype]
    xs = [gt.tensor(v, dtype=dtype, device=device, requires_grad=True) for v in arrays]
    ts = [torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=True) for v in arrays]
    got, want = fn(*xs), fn(*ts)
    _close(got, want, tol)

    def loss(out, t):  # noqa: ANN001, ANN202 - a real loss of a real or complex output
        return ((out * out.conj()).real if out.is_complex() else out * out).sum() if t else (
            (out * out.conj()).real if out.dtype.is_complex else out * out).sum()

    loss(got, False).backward()
    loss(want, True).backward()
    for x, t in zip(xs, ts, strict=True):
        if t.grad is None:  # an input the function does not read
            assert x.grad is None
        else:
            _close(x.grad, t.grad, 10 * tol)


# cpu kernels compile per dtype (seconds each from an empty cache): the broad op-family test runs
# complex64 on the cpu and complex128 on the simulated device (which compiles nothing)
PAIRS = [("cpu", "complex64"), ("cuda", "complex128")]


@pytest.mark.parametrize(("device", "dtype"), PAIRS)
def test_ops_and_gradients_against_torch(device: str, dtype: str):
    for name in UNARY:
        _check_grads(lambda a, n=name: getattr(a, n)(), [A[0]], dtype, device)
    for fn in BINARY.values():
        _check_grads(fn, [A[0], B[:, 0]], dtype, device)
    for fn in PRODUCTS.values():
        _check_grads(fn, [A, B], dtype, device)
    for fn in REDUCE.values():
        _check_grads(fn, [A], dtype, device)
    x = gt.tensor([1 + 1j, 0j, complex("nan+1j"), complex("1+infj")], dtype=dtype, device=device)
    assert x.isnan().tolist() == [False, False, True, False]
    assert x.isinf().tolist() == [False, False, False, True]
    assert x.isfinite().tolist() == [True, True, False, False]
    assert (x == x).tolist() == [True, True, False, True] and (x != 0).tolist()[1] is False
    z = gt.tensor([1 + 1j], dtype=dtype, device=device, requires_grad=True)
    with pytest.raises(RuntimeError, match="only for real scalar outputs"):
        (z * 2).sum().backward()
    by_zero = x[:2] / 0  # PyTorch: inf+infj and nan+nanj
    assert by_zero.isinf().tolist() == [True, False] and by_zero.isnan().tolist() == [False, True]
    assert gt.isclose(x, x, equal_nan=True).all().item()


@pytest.mark.parametrize("op", ["lt", "max", "amax", "argmax", "sort", "topk", "relu", "floor",
                                "maximum", "clamp", "floor_divide", "sign"])
def test_ordering_refused(op: str):
    x = gt.tensor([1 + 2j, 3j])
    calls = {"lt": lambda: x < x, "max": lambda: x.max(), "amax": lambda: x.amax(0),
             "argmax": lambda: x.argmax(), "sort": lambda: x.sort(), "topk": lambda: x.topk(1),
             "relu": lambda: x.relu(), "floor": lambda: x.floor(),
             "maximum": lambda: gt.maximum(x, x), "clamp": lambda: x.clamp(0, 1),
             "floor_divide": lambda: x // 2, "sign": lambda: x.sign()}
    with pytest.raises(gt.DTypeError, match=rf"^\[{op}\] not supported for complex"):
        calls[op]()
    assert x.tolist() == [1 + 2j, 3j]


def _rewrite_through_views(ns, device, dtype):  # noqa: ANN001, ANN202
    """Writes through ``.real``/``.imag``/``view_as_real``/``view_as_complex`` of non-leaf
    tensors; returns the leaves (``.grad`` filled by a real loss) and the written tensors."""
    kw = {"dtype": getattr(ns, dtype)} | ({} if ns is torch else {"device": device})
    rkw = {"dtype": getattr(ns, "float32" if dtype == "complex64" else "float64")} | (
        {} if ns is torch else {"device": device})
    w = ns.tensor(A[0], requires_grad=True, **kw)
    y = ns.tensor([0.5, -2.0], requires_grad=True, **rkw)
    t = ns.tensor(B[:, 0].real, requires_grad=True, **rkw)
    p = ns.tensor(B[:2].real, requires_grad=True, **rkw)
    z = w * (1 - 0.5j)
    r = z.real  # read after the writes below: sees them
    z.real.mul_(2)
    z.imag.mul_(t)
    z.real[1:] = y
    ns.view_as_real(z)[0, 1] += 1
    u = p * 1
    ns.view_as_complex(u).mul_(1j)  # a complex view of a real tensor
    out = z * z.conj() * (1 + 2j) + r * 3j
    loss = (out.real + out.imag * 2).sum() + (u * u).sum()
    loss.backward()
    return (w, y, t, p), (z, r, u)


@pytest.mark.parametrize("dtype", DTYPES)
def test_writes_through_real_imag_views_are_differentiated(device: str, dtype: str):
    got_leaves, got = _rewrite_through_views(gt, device, dtype)
    want_leaves, want = _rewrite_through_views(torch, device, dtype)
    for g, w in zip(got + got_leaves, want + want_leaves, strict=True):
        _close(g, w, TOL[dtype])
    for g, w in zip(got_leaves, want_leaves, strict=True):
        _close(g.grad, w.grad, 10 * TOL[dtype])
    leaf = gt.tensor(A[0], dtype=dtype, device=device, requires_grad=True)
    writes = [("mul_", lambda: leaf.real.mul_(2)), ("copy_", lambda: leaf.imag.copy_(leaf.real)),
              ("copy_", lambda: gt.view_as_real(leaf).__setitem__(0, 1.0))]
    for op, write in writes:
        with pytest.raises(RuntimeError, match=rf"\[{op}\] a view of a leaf Variable"):
            write()
    assert gt.equal(leaf.detach(), gt.tensor(A[0], dtype=dtype, device=device))


def test_nan_to_num_replaces_in_both_parts(device: str) -> None:
    z = np.array([complex(np.nan, np.inf), complex(-np.inf, 2.0), 1 - 1j], dtype=np.complex64)
    got = gt.nan_to_num(gt.tensor(z, device=device), nan=1.0, posinf=9.0)
    _close(got.cpu(), torch.nan_to_num(torch.tensor(z), nan=1.0, posinf=9.0), 0.0)
