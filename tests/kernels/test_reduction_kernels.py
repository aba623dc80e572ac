"""Reduction, scan and softmax kernels against NumPy, on cpu and simulated cuda."""

from __future__ import annotations

import numpy as np
import pytest

try:
    from gtensor.kernels.common.scalar_reduce import REDUCTIONS
except ImportError:
    from kernels.common.scalar_reduce import REDUCTIONS

from kernel_inputs import BACKENDS, check, draw, lookup, op_cases, poisoned


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype({"f": np.float64, "c": np.complex128}.get(x.dtype.kind, np.int64))


def _logsumexp(x, axis):  # noqa: ANN001, ANN202
    m = np.max(x, axis=axis, keepdims=True)
    return (m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))).squeeze(axis)


# op -> (NumPy reference(x, axes, param), param, output dtype rule)
REFS = {
    "sum": (lambda x, a, p: np.sum(_wide(x), axis=a), 0.0, "wide"),
    "prod": (lambda x, a, p: np.prod(_wide(x), axis=a), 0.0, "wide"),
    "mean": (lambda x, a, p: np.mean(_wide(x), axis=a), 0.0, "same"),
    "amax": (lambda x, a, p: np.max(x, axis=a), 0.0, "same"),
    "amin": (lambda x, a, p: np.min(x, axis=a), 0.0, "same"),
    "any": (lambda x, a, p: np.any(x, axis=a), 0.0, "bool"),
    "all": (lambda x, a, p: np.all(x, axis=a), 0.0, "bool"),
    "var": (lambda x, a, p: np.var(x.astype(np.float64), axis=a, ddof=int(p)), 1.0, "same"),
    "std": (lambda x, a, p: np.std(x.astype(np.float64), axis=a, ddof=int(p)), 0.0, "same"),
    "logsumexp": (lambda x, a, p: _logsumexp(x.astype(np.float64), a), 0.0, "same"),
    "norm": (lambda x, a, p: np.sum(np.abs(x.astype(np.float64)) ** p, axis=a) ** (1 / p),
             3.0, "same"),
}


def _out_dtype(rule: str, dtype: str) -> str:
    if rule == "bool":
        return "bool"
    if rule == "wide":
        return dtype if dtype.startswith(("float", "complex")) else "int64"
    return dtype


def _cases() -> list:
    for op in REDUCTIONS:
        assert op in REFS, f"{op} has no NumPy reference in the test table"
    return op_cases({op: list(red.dtypes) for op, red in REDUCTIONS.items()})


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(n for d, n in enumerate(shape) if d not in axes)


@pytest.mark.parametrize(("backend", "op", "dtype", "all_layouts"), _cases())
def test_reduction(backend: str, op: str, dtype: str, all_layouts: bool) -> None:
    ref, param, rule = REFS[op]
    rng = np.random.default_rng(abs(hash((op, dtype))) % 2**32)
    kernel = lookup(op, backend, (dtype,))
    x = draw(rng, (3, 4, 5), dtype, -2, 3)
    out_dtype = _out_dtype(rule, dtype)
    cases = [(x, (1,))]
    if all_layouts:
        cases.append((x[:, ::-1].transpose(2, 0, 1), (0, 2)))
    if all_layouts and backend == "cpu":
        cases += [(x[::2], (0, 1, 2)), (x, (2,))]
    for xin, axes in cases:
        out = poisoned(_reduced_shape(xin.shape, axes), out_dtype)
        kernel(xin, out, axes, param)
        with np.errstate(all="ignore"):
            check(out, ref(xin, axes, param), dtype)
    if all_layouts:
        out = poisoned((3, 1, 5), out_dtype)
        kernel(x, out, (1,), param)
        check(out[:, 0], ref(x, (1,), param), dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_float32_sum_is_accurate_and_nan_propagates(backend: str) -> None:
    x = np.full(48, 0.1, np.float32)
    x[0] = 1e7
    out = poisoned((), "float32")
    lookup("sum", backend, ("float32",))(x, out, (0,))
    assert out == np.float32(np.sum(x.astype(np.float64)))
    x[5] = np.nan
    for op in ("amax", "amin", "sum"):
        lookup(op, backend, ("float32",))(x, out, (0,))
        assert np.isnan(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_reductions_follow_numpy(backend: str) -> None:
    x = np.empty((3, 0), np.float32)
    for op, want in (("sum", 0.0), ("prod", 1.0), ("mean", np.nan), ("any", False),
                     ("all", True), ("logsumexp", -np.inf)):
        out = poisoned((3,), "bool" if op in ("any", "all") else "float32")
        lookup(op, backend, ("float32",))(x, out, (1,))
        np.testing.assert_array_equal(out, np.full(3, want, out.dtype))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "uint8"])
def test_argmax_argmin(backend: str, op: str, dtype: str) -> None:
    rng = np.random.default_rng(11)
    ref = getattr(np, op)
    kernel = lookup(op, backend, (dtype,))
    x = draw(rng, (3, 4, 5), dtype, -3, 3)
    if dtype == "float32":
        x[1, 2, 3] = np.nan
    xin = x[:, ::-1]
    out = np.full((3, 5), -1, np.int64)
    values = poisoned((3, 5), dtype)
    kernel(xin, out, (1,), values=values)
    np.testing.assert_array_equal(out, ref(xin, axis=1))
    np.testing.assert_array_equal(values, np.take_along_axis(xin, out[:, None], 1)[:, 0])
    out = np.full((3,), -1, np.int64)
    kernel(xin, out, (1, 2))
    np.testing.assert_array_equal(out, ref(xin.reshape(3, -1), axis=1))
    with pytest.raises(ValueError, match=f"\\[{op}\\]"):
        kernel(np.empty((2, 0), dtype), np.empty(2, np.int64), (1,))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "bool"])
def test_scans(backend: str, op: str, dtype: str) -> None:
    rng = np.random.default_rng(12)
    kernel = lookup(op, backend, (dtype,))
    x = draw(rng, (3, 4, 4), dtype, -2, 2)
    out_dtype = dtype if dtype.startswith("float") else "int64"
    for xin, axis in ((x, 1), (x[:, ::-1].transpose(2, 1, 0), 0), (x, -1)):
        out = poisoned(xin.shape, out_dtype)
        kernel(xin, out, axis)
        check(out, getattr(np, op)(_wide(xin), axis=axis), dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_is_stable_on_large_logits(backend: str, log: bool, dtype: str) -> None:
    rng = np.random.default_rng(13)
    kernel = lookup("log_softmax" if log else "softmax", backend, (dtype,))
    x = draw(rng, (3, 5, 4), dtype) * 1000
    for xin, axis in ((x, -1), (x[::-1].transpose(1, 0, 2), 1)):
        out = poisoned(xin.shape, dtype)
        kernel(xin, out, axis)
        z = xin.astype(np.float64) - xin.max(axis=axis, keepdims=True)
        want = z - np.log(np.exp(z).sum(axis=axis, keepdims=True))
        np.testing.assert_allclose(out, want if log else np.exp(want), rtol=1e-5, atol=1e-6)


def test_parallel_reductions_match() -> None:
    rng = np.random.default_rng(14)
    x = rng.random((70, 1000), dtype=np.float32)
    for axes, shape in (((0, 1), ()), ((1,), (70,)), ((0,), (1000,))):
        out = poisoned(shape, "float32")
        lookup("sum", "cpu", ("float32",))(x, out, axes)
        np.testing.assert_allclose(out, x.astype(np.float64).sum(axis=axes), rtol=1e-6)
        lookup("var", "cpu", ("float32",))(x, out, axes, 1.0)
        np.testing.assert_allclose(out, x.astype(np.float64).var(axis=axes, ddof=1), rtol=1e-5)
    for op in ("softmax", "log_softmax"):
        big = rng.standard_normal((600, 500)).astype(np.float32) * 50
        out = poisoned(big.shape, "float32")
        lookup(op, "cpu", ("float32",))(big, out, -1)
        z = big.astype(np.float64) - big.max(axis=1, keepdims=True)
        want = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        np.testing.assert_allclose(out, want if op == "log_softmax" else np.exp(want),
                                   rtol=1e-5, atol=1e-6)
