"""gtensor.array_api against NumPy's namespace (NumPy 2 follows the standard), on cpu and cuda.

Each case is written once as ``fn(xp, a, dev)`` over a namespace ``xp``
(``gtensor.array_api`` or ``numpy``), the inputs ``a`` (tiny random arrays
of that namespace) and a device for creation functions; results must agree in
dtype, shape and values. A case given as a pair has its own NumPy reference,
where NumPy lacks a keyword (``descending``) or promotes differently.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gtensor as gt
import gtensor.array_api as gxp


def _inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(17)
    f = rng.standard_normal((2, 3)).astype(np.float32)
    m = rng.standard_normal((3, 3))
    z = m + 1j * rng.standard_normal((3, 3))
    return {
        "f": f, "g": rng.standard_normal((2, 3)).astype(np.float32),
        "p": rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32),
        "big": (1.0 + rng.uniform(0, 3, 4)).astype(np.float64),
        "v": rng.standard_normal(4), "w": rng.standard_normal(4), "s": np.sort(rng.normal(size=5)),
        "i": rng.integers(-5, 6, (2, 3)).astype(np.int32),
        "j": rng.integers(0, 4, (2, 3)).astype(np.int8),
        "b": rng.random((2, 3)) > 0.5, "c": rng.random((2, 3)) > 0.5,
        "u": np.array([3, 1, 3, 2, 1, 2, 2], np.int64),
        "m": m, "spd": m @ m.T + 3 * np.eye(3), "rhs": rng.standard_normal((3, 2)),
        "z": z, "hpd": z @ z.conj().T + 3 * np.eye(3),
        "t3": rng.standard_normal((2, 3, 4)).astype(np.float32),
        "special": np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -0.5, 0.5, 2.5], np.float32),
    }


def _descending(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """A stable descending argsort: equal elements keep their order."""
    return np.flip(np.argsort(np.flip(x, axis), axis=axis, stable=True), axis) * -1 + (
        x.shape[axis] - 1)


Case = Any
CASES: dict[str, Case] = {
    # creation
    "asarray": lambda xp, a, d: xp.asarray([[1, 2], [3, 4]], dtype=xp.int16, device=d),
    "asarray_copy": lambda xp, a, d: xp.asarray(a["f"], copy=True),
    "arange": lambda xp, a, d: xp.arange(1, 10, 3, device=d),
    "arange_empty": lambda xp, a, d: xp.arange(5, 1, device=d),
    "eye": lambda xp, a, d: xp.eye(3, 4, k=-1, dtype=xp.float32, device=d),
    "full": lambda xp, a, d: xp.full((2, 2), 7, dtype=xp.int32, device=d),
    "full_like": lambda xp, a, d: xp.full_like(a["i"], 3),
    "linspace": lambda xp, a, d: xp.linspace(0, 1, 5, dtype=xp.float64, device=d,
                                             endpoint=False),
    "meshgrid": lambda xp, a, d: list(xp.meshgrid(a["v"], a["s"])),
    "ones_like": lambda xp, a, d: xp.ones_like(a["j"]),
    "zeros": lambda xp, a, d: xp.zeros((2, 3), dtype=xp.int8, device=d),
    "tril_triu": lambda xp, a, d: (xp.tril(a["m"], k=-1), xp.triu(a["m"], k=1)),
    # elementwise
    "unary": lambda xp, a, d: [getattr(xp, n)(a["f"]) for n in (
        "abs", "atan", "ceil", "cos", "cosh", "exp", "expm1", "floor", "negative", "positive",
        "round", "sign", "signbit", "sin", "sinh", "square", "tan", "tanh", "trunc", "asinh",
        "real", "conj")],
    "unary_domain": lambda xp, a, d: [
        xp.acos(a["p"]), xp.asin(a["p"]), xp.atanh(a["p"]), xp.acosh(a["big"]),
        xp.log(a["big"]), xp.log1p(a["p"]), xp.log2(a["big"]), xp.log10(a["big"]),
        xp.sqrt(a["big"]), xp.reciprocal(a["big"])],
    "classify": lambda xp, a, d: [xp.isfinite(a["special"]), xp.isinf(a["special"]),
                                  xp.isnan(a["special"]), xp.sign(a["special"])],
    "binary": lambda xp, a, d: [getattr(xp, n)(a["f"], a["g"]) for n in (
        "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "maximum",
        "minimum", "atan2", "copysign", "hypot", "logaddexp", "nextafter", "equal", "not_equal",
        "less", "less_equal", "greater", "greater_equal")],
    "pow": lambda xp, a, d: xp.pow(xp.abs(a["f"]), a["g"]),
    "logical": lambda xp, a, d: [xp.logical_and(a["b"], a["c"]), xp.logical_or(a["b"], a["c"]),
                                 xp.logical_xor(a["b"], a["c"]), xp.logical_not(a["b"])],
    "bitwise": lambda xp, a, d: [
        xp.bitwise_and(a["i"], a["j"]), xp.bitwise_or(a["i"], a["j"]),
        xp.bitwise_xor(a["i"], a["j"]), xp.bitwise_invert(a["j"]),
        xp.bitwise_left_shift(a["j"], 2), xp.bitwise_right_shift(a["i"], a["j"])],
    "promote_0d": lambda xp, a, d: [
        xp.add(a["j"], xp.asarray(300, device=d)),
        xp.multiply(a["f"], xp.asarray(2.0, dtype=xp.float64, device=d))],
    "promote_scalar": lambda xp, a, d: [xp.add(a["j"], 3), xp.multiply(2.5, a["f"]),
                                        xp.where(a["b"], a["j"], 1)],
    "clip": lambda xp, a, d: xp.clip(a["f"], -0.5, 0.5),
    "clip_int": (lambda xp, a, d: xp.clip(a["j"], 1, 300),
                 lambda xp, a, d: np.clip(a["j"], 1, 127)),
    # manipulation and indexing
    "broadcast": lambda xp, a, d: [*xp.broadcast_arrays(a["v"][:, None], a["w"]),
                                   xp.broadcast_to(a["w"], (2, 4))],
    "concat": lambda xp, a, d: [xp.concat([a["f"], a["g"]], axis=1),
                                xp.concat([a["f"], a["g"]], axis=None)],
    "expand_dims": lambda xp, a, d: xp.expand_dims(a["f"], axis=-2),
    "flip": lambda xp, a, d: [xp.flip(a["t3"]), xp.flip(a["t3"], axis=(0, 2))],
    "moveaxis": lambda xp, a, d: xp.moveaxis(a["t3"], (0, 1), (2, 0)),
    "permute_dims": lambda xp, a, d: xp.permute_dims(a["t3"], (2, 0, 1)),
    "repeat": lambda xp, a, d: [xp.repeat(a["f"], 2, axis=1),
                                xp.repeat(a["v"], xp.asarray([1, 0, 2, 1], device=d))],
    "reshape": lambda xp, a, d: [xp.reshape(a["t3"], (4, -1)),
                                 xp.reshape(a["f"], (3, 2), copy=True)],
    "roll": lambda xp, a, d: [xp.roll(a["f"], 2), xp.roll(a["t3"], (1, -1), axis=(0, 2))],
    "squeeze": lambda xp, a, d: xp.squeeze(a["f"][:, None, :1], axis=(1, 2)),
    "stack": lambda xp, a, d: xp.stack([a["f"], a["g"]], axis=1),
    "tile": lambda xp, a, d: xp.tile(a["f"], (2, 1, 2)),
    "unstack": lambda xp, a, d: list(xp.unstack(a["f"], axis=1)),
    "take": lambda xp, a, d: [xp.take(a["f"], xp.asarray([2, 0, 2], device=d), axis=1),
                              xp.take(a["v"], xp.asarray([3, 1], device=d))],
    "take_along_axis": lambda xp, a, d: xp.take_along_axis(
        a["f"], xp.argsort(a["f"], axis=1), axis=1),
    # searching and sorting
    "argmax_argmin": lambda xp, a, d: [xp.argmax(a["f"], axis=1, keepdims=True),
                                       xp.argmin(a["f"]), xp.argmax(a["t3"], axis=0)],
    "count_nonzero": lambda xp, a, d: [xp.count_nonzero(a["i"], axis=1),
                                       xp.count_nonzero(a["i"])],
    "nonzero": lambda xp, a, d: list(xp.nonzero(a["i"])),
    "searchsorted": lambda xp, a, d: [xp.searchsorted(a["s"], a["v"]),
                                      xp.searchsorted(a["s"], a["s"], side="right"),
                                      xp.searchsorted(a["w"], a["v"], sorter=xp.argsort(a["w"]))],
    "where": lambda xp, a, d: xp.where(a["b"], a["f"], a["g"]),
    "sort": lambda xp, a, d: [xp.sort(a["t3"], axis=0), xp.argsort(a["u"], stable=True)],
    "sort_descending": (
        lambda xp, a, d: [xp.sort(a["f"], descending=True), xp.argsort(a["u"], descending=True)],
        lambda xp, a, d: [-np.sort(-a["f"]), _descending(a["u"])]),
    # sets
    "unique": lambda xp, a, d: [*xp.unique_all(a["u"]), *xp.unique_counts(a["u"]),
                                *xp.unique_inverse(a["u"].reshape(7, 1)),
                                xp.sort(xp.unique_values(a["u"]))],
    # statistics and utility
    "sum": lambda xp, a, d: [xp.sum(a["t3"], axis=(0, 2)), xp.sum(a["f"], dtype=xp.float64),
                             xp.sum(a["i"], axis=1, keepdims=True), xp.sum(a["f"], axis=())],
    "prod": lambda xp, a, d: [xp.prod(a["j"], axis=0), xp.prod(a["f"], axis=-1)],
    "mean_max_min": lambda xp, a, d: [xp.mean(a["t3"], axis=(1,), keepdims=True),
                                      xp.max(a["i"], axis=0), xp.min(a["t3"], axis=(0, 2))],
    "std_var": lambda xp, a, d: [xp.std(a["t3"], correction=1), xp.var(a["f"], axis=1),
                                 xp.var(a["t3"], axis=(0, 2), correction=1.5)],
    "cumulative": lambda xp, a, d: [
        xp.cumulative_sum(a["i"], axis=1, include_initial=True),
        xp.cumulative_sum(a["v"]), xp.cumulative_prod(a["f"], axis=0, include_initial=True)],
    "all_any": lambda xp, a, d: [xp.all(a["b"], axis=1), xp.any(a["i"]),
                                 xp.any(a["b"], axis=(), keepdims=True)],
    "diff": lambda xp, a, d: [xp.diff(a["i"], n=2), xp.diff(a["b"], axis=0),
                              xp.diff(a["v"], prepend=a["w"][:1], append=a["w"])],
    "astype": lambda xp, a, d: [xp.astype(a["f"], xp.int32), xp.astype(a["b"], xp.float32)],
    # linear algebra
    "products": lambda xp, a, d: [
        xp.matmul(a["m"], a["rhs"]), xp.matrix_transpose(a["t3"]),
        xp.tensordot(a["m"], a["rhs"], axes=1), xp.vecdot(a["f"], a["g"], axis=0),
        xp.linalg.outer(a["v"], a["w"]), xp.linalg.cross(a["m"], a["spd"])],
    "linalg": lambda xp, a, d: [
        xp.linalg.cholesky(a["spd"]), xp.linalg.det(a["m"]), xp.linalg.inv(a["m"]),
        xp.linalg.solve(a["m"], a["rhs"]), xp.linalg.solve(a["m"], a["rhs"][:, 0]),
        xp.linalg.eigvalsh(a["spd"]), xp.linalg.eigh(a["spd"]).eigenvalues,
        xp.linalg.svdvals(a["m"]), xp.linalg.svd(a["m"]).S, xp.linalg.pinv(a["rhs"]),
        xp.matmul(*xp.linalg.qr(a["m"])), *xp.linalg.slogdet(a["m"]),
        xp.linalg.matrix_power(a["m"], 3), xp.linalg.matrix_rank(a["m"])],
    "linalg_complex": lambda xp, a, d: [
        xp.linalg.cholesky(a["hpd"]), xp.linalg.det(a["z"]), xp.linalg.inv(a["z"]),
        xp.linalg.solve(a["z"], a["rhs"]), xp.linalg.eigvalsh(a["hpd"]),
        xp.linalg.svdvals(a["z"]), xp.linalg.pinv(a["z"]), *xp.linalg.slogdet(a["z"]),
        xp.matmul(*xp.linalg.qr(a["z"])), xp.linalg.matrix_rank(a["z"]),
        xp.linalg.matrix_norm(a["z"], ord="nuc"), xp.linalg.vector_norm(a["z"]),
        *xp.linalg.eig(a["z"]), xp.linalg.eigvals(a["z"])],
    "norms": lambda xp, a, d: [
        xp.linalg.matrix_norm(a["m"]), xp.linalg.matrix_norm(a["m"], ord=1),
        xp.linalg.matrix_norm(a["m"], ord="nuc", keepdims=True),
        xp.linalg.vector_norm(a["t3"], axis=(0, 2), ord=xp.inf),
        xp.linalg.vector_norm(a["v"], ord=1), xp.linalg.diagonal(a["m"], offset=1),
        xp.linalg.trace(a["m"], offset=-1)],
}


@pytest.fixture(scope="module")
def inputs() -> dict[str, np.ndarray]:
    return _inputs()


def _listed(out: Any) -> list[Any]:
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_numpy(name: str, device: str, inputs: dict[str, np.ndarray]) -> None:
    case = CASES[name]
    ours, ref = case if isinstance(case, tuple) else (case, case)
    args = {k: gt.tensor(v, device=device) for k, v in inputs.items()}
    got = _listed(ours(gxp, args, device))
    want = _listed(ref(np, inputs, None))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert isinstance(g, gt.Tensor) and g.device.type == device
        assert (g.dtype.name, g.shape) == (w.dtype.name, w.shape)
        tol = 2e-5 if w.dtype == np.float32 else 1e-10
        np.testing.assert_allclose(g.cpu().numpy(), w, rtol=tol, atol=tol)


def test_unsigned_sums_and_products_accumulate_in_uint64(device: str) -> None:
    """The standard's default for unsigned input is the default unsigned integer, not int64."""
    x = gt.tensor([[200, 100], [3, 4]], dtype=gt.uint8, device=device)
    assert gxp.sum(x).dtype is gt.uint64 and gxp.sum(x).item() == 307
    assert gxp.prod(x, axis=0).dtype is gt.uint64 and gxp.prod(x, axis=0).tolist() == [600, 400]
    assert gxp.cumulative_sum(x, axis=1).tolist() == [[200, 300], [3, 7]]
    assert gxp.cumulative_prod(x, axis=0, dtype=gt.int64).dtype is gt.int64
    assert gxp.sum(gt.tensor([1, 2], device=device)).dtype is gt.int64
