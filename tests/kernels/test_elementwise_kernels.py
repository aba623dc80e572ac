"""Elementwise kernels against NumPy, on cpu and simulated cuda, for every registered dtype."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

try:
    from gtensor.kernels.common.scalar_binary import BINARY, TERNARY, TERNARY_SCALAR
    from gtensor.kernels.common.scalar_unary import UNARY
except ImportError:
    from kernels.common.scalar_binary import BINARY, TERNARY, TERNARY_SCALAR
    from kernels.common.scalar_unary import UNARY

from kernel_inputs import BACKENDS, check, draw, layouts, lookup, op_cases, poisoned

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _in_double(name):  # noqa: ANN001, ANN202
    """torch's ``name`` computed in float64 (its float32 digamma is a few units off)."""
    import torch

    return lambda x: getattr(torch, name)(torch.from_numpy(x.astype(np.float64))).numpy()


def _trigamma(x):  # noqa: ANN001, ANN202
    """``sum 1 / (x + k)**2`` for ``x > 0``: 10**5 terms, then the integral of the rest."""
    z = x.astype(np.float64)[..., None] + np.arange(100_000)
    end = z[..., -1] + 1
    return (1 / z ** 2).sum(-1) + 1 / end + 1 / (2 * end ** 2) + 1 / (6 * end ** 3)


def _sigmoid(x):  # noqa: ANN001, ANN202
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


# op -> (NumPy reference, input range)
UNARY_REF = {
    "neg": (np.negative, None), "abs": (np.abs, None),
    # sign(nan) is 0 and sign(bool) the bool itself, as in PyTorch
    "sign": (lambda x: x if x.dtype == bool else np.nan_to_num(np.sign(x)), None),
    "square": (np.square, None), "relu": (lambda x: np.maximum(x, 0), None),
    "floor": (np.floor, None), "ceil": (np.ceil, None), "trunc": (np.trunc, None),
    "round": (np.round, None), "logical_not": (np.logical_not, None),
    "bitwise_not": (np.invert, None), "isnan": (np.isnan, None), "isinf": (np.isinf, None),
    "isfinite": (np.isfinite, None), "exp": (np.exp, None), "exp2": (np.exp2, None),
    "log": (np.log, (0.05, 5)), "log2": (np.log2, (0.05, 5)), "log10": (np.log10, (0.05, 5)),
    "log1p": (np.log1p, (-0.9, 5)), "expm1": (np.expm1, None), "sqrt": (np.sqrt, (0, 5)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.05, 5)), "reciprocal": (np.reciprocal, (0.1, 5)),
    "sin": (np.sin, None), "cos": (np.cos, None), "tan": (np.tan, (-1.4, 1.4)),
    "asin": (np.arcsin, (-1, 1)), "acos": (np.arccos, (-1, 1)), "atan": (np.arctan, None),
    "sinh": (np.sinh, None), "cosh": (np.cosh, None), "tanh": (np.tanh, None),
    "sigmoid": (_sigmoid, None),
    "gelu": (lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), None),
    "gelu_tanh": (lambda x: 0.5 * x * (1 + np.tanh(
        math.sqrt(2 / math.pi) * (x + 0.044715 * x.astype(np.float64) ** 3))), None),
    "silu": (lambda x: x * _sigmoid(x), None),
    "softplus": (lambda x: np.log1p(np.exp(x.astype(np.float64))), None), "erf": (_erf, None),
    "lgamma": (_in_double("lgamma"), None), "digamma": (_in_double("digamma"), None),
    "trigamma": (_trigamma, (0.1, 5)), "erfinv": (_in_double("erfinv"), (-0.999, 0.999)),
}

BINARY_REF = {
    "add": (np.add, None), "sub": (np.subtract, None), "mul": (np.multiply, None),
    "div": (np.true_divide, None), "floor_divide": (np.floor_divide, None),
    "remainder": (np.remainder, None), "pow": (np.power, (0, 4)),
    "maximum": (np.maximum, None), "minimum": (np.minimum, None), "atan2": (np.arctan2, None),
    "eq": (np.equal, None), "ne": (np.not_equal, None), "lt": (np.less, None),
    "le": (np.less_equal, None), "gt": (np.greater, None), "ge": (np.greater_equal, None),
    "logical_and": (np.logical_and, None), "logical_or": (np.logical_or, None),
    "logical_xor": (np.logical_xor, None), "bitwise_and": (np.bitwise_and, None),
    "bitwise_or": (np.bitwise_or, None), "bitwise_xor": (np.bitwise_xor, None),
    "left_shift": (np.left_shift, (0, 9)), "right_shift": (np.right_shift, (0, 9)),
    "threshold_backward": (lambda g, out: np.where(out <= 0, 0, g).astype(g.dtype), None),
}


def _lerp(a, b, w):  # noqa: ANN001, ANN202
    return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))


TERNARY_REF = {
    "clamp": lambda x, lo, hi: np.minimum(np.maximum(x, np.minimum(lo, hi)), hi),
    "lerp": _lerp,
    "add_scaled": lambda a, b, alpha: a + alpha * b,
    "addcmul": lambda x, a, b, v: x + v * a * b,
    "addcdiv": lambda x, a, b, v: x + v * (a / b),
}


def _cases(table: dict, refs: dict) -> list:
    for op in table:
        assert op in refs, f"{op} has no NumPy reference in the test table"
    return op_cases({op: [d for _, ds, _ in v for d in ds] for op, v in table.items()})


def _out_dtype(table: dict, op: str, dtype: str) -> str:
    boolean = next(b for _, ds, b in table[op] if dtype in ds)
    return "bool" if boolean else dtype


def _reference(fn, *args):  # noqa: ANN001, ANN202
    with np.errstate(all="ignore"):
        return fn(*args)


@pytest.mark.parametrize(("backend", "op", "dtype", "all_layouts"), _cases(UNARY, UNARY_REF))
def test_unary(backend: str, op: str, dtype: str, all_layouts: bool) -> None:
    ref, domain = UNARY_REF[op]
    rng = np.random.default_rng(abs(hash((op, dtype))) % 2**32)
    kernel = lookup(op, backend, (dtype,))
    x = draw(rng, (4, 6), dtype, *(domain or (-3, 3)))
    if dtype.startswith("float") and domain is None and op not in ("tan",):
        x[0, :3] = [np.nan, np.inf, -np.inf]
    out_dtype = _out_dtype(UNARY, op, dtype)
    kinds = ("contiguous", "reversed") if all_layouts else ("contiguous",)
    for kind in kinds if backend == "cpu" else ("transposed",):
        out = poisoned(x.shape, out_dtype)
        kernel(layouts(x, kind), out)
        check(out, _reference(ref, x), dtype)


@pytest.mark.parametrize(("backend", "op", "dtype", "all_layouts"), _cases(BINARY, BINARY_REF))
def test_binary(backend: str, op: str, dtype: str, all_layouts: bool) -> None:
    ref, domain = BINARY_REF[op]
    rng = np.random.default_rng(abs(hash((op, dtype))) % 2**32)
    kernel = lookup(op, backend, (dtype, dtype))
    a = draw(rng, (3, 5), dtype, -9, 9)
    b = draw(rng, (5,), dtype, *(domain or (-9, 9)))
    if domain is None and dtype.startswith("float"):
        b[0] = 0.0
    out_dtype = _out_dtype(BINARY, op, dtype)
    out = poisoned(a.shape, out_dtype)
    kernel(a, np.broadcast_to(b, a.shape).copy(), out)
    check(out, _reference(ref, a, b), dtype)
    if not all_layouts and backend == "cpu":
        return
    out = poisoned(a.shape, out_dtype)
    kernel(layouts(a, "transposed"), np.broadcast_to(b, a.shape), out)
    check(out, _reference(ref, a, b), dtype)
    out = poisoned(a.shape, out_dtype)
    kernel(a[::-1], b[1].item(), out)
    check(out, _reference(ref, a[::-1], b[1]), dtype)


@pytest.mark.parametrize(
    ("backend", "op", "dtype", "all_layouts"),
    _cases({**TERNARY, **TERNARY_SCALAR}, TERNARY_REF))
def test_ternary(backend: str, op: str, dtype: str, all_layouts: bool) -> None:
    rng = np.random.default_rng(abs(hash((op, dtype))) % 2**32)
    arity = 4 if op in TERNARY_SCALAR else 3
    kernel = lookup(op, backend, (dtype,) * 3)
    x = draw(rng, (4, 5), dtype, -9, 9)
    lo = draw(rng, (5,), dtype, -9, 0)
    hi = draw(rng, (4, 1), dtype, 1, 9)
    args = [layouts(x, "transposed"), np.broadcast_to(lo, x.shape), np.broadcast_to(hi, x.shape)]
    if op == "lerp":
        args[2] = draw(rng, x.shape, dtype, -0.5, 1.5)
    if arity == 4:
        args.append(2)
    out = poisoned(x.shape, dtype)
    kernel(*args, out)
    want = _reference(TERNARY_REF[op], x, *[np.asarray(a) for a in args[1:3]], *args[3:])
    check(out, want, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
def test_where_takes_boolean_condition_and_scalars(backend: str, dtype: str) -> None:
    rng = np.random.default_rng(7)
    kernel = lookup("where", backend, ("bool", dtype, dtype))
    cond = rng.random((3, 4)) < 0.5
    a = draw(rng, (3, 4), dtype)
    out = poisoned(a.shape, dtype)
    kernel(cond, a[:, ::-1], 1, out)
    np.testing.assert_array_equal(out, np.where(cond, a[:, ::-1], np.array(1, dtype)))


def test_parallel_path_matches_serial() -> None:
    rng = np.random.default_rng(3)
    kernel = lookup("mul", "cpu", ("float32", "float32"))
    a = rng.random((300, 400), dtype=np.float32)
    b = rng.random(400, dtype=np.float32)
    for x, y in ((a, a[::-1]), (a, np.broadcast_to(b, a.shape))):
        out = poisoned(a.shape, "float32")
        kernel(x, y, out)
        np.testing.assert_array_equal(out, x * y)
    out = poisoned(a.shape, "float32")
    kernel(a, a, out)
    np.testing.assert_array_equal(out, a * a)


@pytest.mark.parametrize("rows", [3, 300], ids=["serial", "parallel"])
def test_strided_rows_of_every_inner_pattern(rows: int) -> None:
    """Each operand stepping 0 or 1 along the inner dim (or not at all: a number) has a
    contiguous-row loop of its own; a reversed or transposed operand takes the generic one."""
    rng = np.random.default_rng(4)
    mul = lookup("mul", "cpu", ("float32", "float32"))
    addcmul = lookup("addcmul", "cpu", ("float32",) * 3)
    x = rng.random((rows, 130), dtype=np.float32)
    row = rng.random(130, dtype=np.float32)
    col = rng.random((rows, 1), dtype=np.float32)
    steps = {"inner": x, "row": np.broadcast_to(row, x.shape),
             "col": np.broadcast_to(col, x.shape), "number": np.float32(1.5),
             "reversed": x[:, ::-1], "transposed": np.ascontiguousarray(x.T).T}
    for a_kind, a in steps.items():
        for b_kind, b in steps.items():
            out = poisoned(x.shape, "float32")
            mul(a, b, out)
            np.testing.assert_array_equal(out, np.multiply(a, b), err_msg=f"{a_kind}*{b_kind}")
            out = poisoned(x.shape, "float32")
            addcmul(np.broadcast_to(col, x.shape), a, b, 0.5, out)
            want = np.broadcast_to(col + 0.5 * np.multiply(a, b), x.shape)
            np.testing.assert_allclose(out, want, rtol=1e-6, err_msg=f"addcmul {a_kind} {b_kind}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_integer_semantics(backend: str) -> None:
    div = lookup("floor_divide", backend, ("int8", "int8"))
    a = np.array([7, -7, -128, 5], np.int8)
    b = np.array([2, 2, -1, 0], np.int8)
    out = poisoned((4,), "int8")
    div(a, b, out)
    np.testing.assert_array_equal(out, [3, -4, -128, 0])
    add = lookup("add", backend, ("uint8", "uint8"))
    out = poisoned((4,), "uint8")
    add(np.array([250, 1, 2, 3], np.uint8), 300, out)
    np.testing.assert_array_equal(out, [38, 45, 46, 47])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_kernels_compute_float32_between_bits(backend: str, half: str) -> None:
    """A half kernel reads the bits, computes in float32 and rounds once to nearest even."""
    np_dt = np.dtype(ml_dtypes.bfloat16) if half == "bfloat16" else np.dtype(np.float16)
    a = np.array([0.1, -2.5, np.inf, np.nan, 3e4, 1e-3, 7.0], np_dt)
    b = np.array([3.0, 0.3, -1.0, 2.0, 5.0, -0.0, 7.0], np_dt)
    wide = a.astype(np.float32), b.astype(np.float32)

    def rounded(x: np.ndarray) -> np.ndarray:  # NumPy compares float32 NaNs, not bfloat16 ones
        return x.astype(np_dt).astype(np.float32)

    out = poisoned(a.shape, "uint16")
    lookup("mul", backend, (half, half))(a.view(np.uint16), 0.3, out)
    np.testing.assert_array_equal(out.view(np_dt).astype(np.float32),
                                  rounded(wide[0] * np.float32(0.3)))
    lookup("atan2", backend, (half, half))(a.view(np.uint16), b.view(np.uint16), out)
    np.testing.assert_array_equal(out.view(np_dt).astype(np.float32),
                                  rounded(np.arctan2(*wide)))
    mask = poisoned(a.shape, "bool")
    lookup("lt", backend, (half, half))(a.view(np.uint16), b.view(np.uint16), mask)
    np.testing.assert_array_equal(mask, wide[0] < wide[1])
