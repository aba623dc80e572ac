"""Each thread layout of the CUDA reductions (split, block or group per output, columns).

The simulator shrinks the layout thresholds (``cuda._reduce_layout``), so these
tiny shapes select each path there; on a real GPU the same cases check values
only. The layouts are the CUDA backend's own, so only ``cuda`` runs here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

try:
    from gtensor.kernels.common.strided import reduction_arrays, reduction_plan
    from gtensor.kernels.cuda import _reduce_layout as layout
except ImportError:
    from kernels.common.strided import reduction_arrays, reduction_plan
    from kernels.cuda import _reduce_layout as layout

from kernel_inputs import check, draw, lookup, poisoned


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64 if x.dtype.kind == "f" else np.int64)


# op -> (NumPy reference(x, axis), output dtype for an input dtype)
REFS: dict[str, tuple[Callable, Callable[[str], str]]] = {
    "sum": (lambda x, a, p: np.sum(_wide(x), axis=a),
            lambda d: d if d.startswith("float") else "int64"),
    "prod": (lambda x, a, p: np.prod(_wide(x), axis=a), lambda d: "int64"),
    "mean": (lambda x, a, p: np.mean(_wide(x), axis=a), lambda d: d),
    "var": (lambda x, a, p: np.var(_wide(x), axis=a, ddof=p), lambda d: d),
    "amax": (lambda x, a, p: np.max(x, axis=a), lambda d: d),
}


def _cols(base: np.ndarray) -> np.ndarray:
    return base[:, ::-1]  # kept dim of stride -1: still adjacent outputs


def _two_reduced_dims(base: np.ndarray) -> np.ndarray:
    return base[:, ::-1].transpose(2, 0, 1)  # reduced dims (0, 2) do not collapse


# id -> (base shape, view of the base, reduced axes, expected (cols, lanes, chunks > 1)),
# then the (op, dtype, param) calls it runs. "lanes": THREADS for a block per output.
CASES = {
    "split-full": ((58,), lambda b: b[::2], (0,), (False, "block", True),
                   [("var", "float64", 2), ("argmax", "int32", 0)]),
    "split-rows": ((2, 20), lambda b: b, (1,), (False, "block", True),
                   [("prod", "int8", 0), ("argmin", "float32", 0)]),
    "split-generic-offsets": ((3, 4, 5), _two_reduced_dims, (0, 2), (False, "block", True),
                              [("sum", "float32", 0), ("argmax", "float32", 0)]),
    "block-per-output": ((3, 6), lambda b: b, (1,), (False, "block", False),
                         [("mean", "float32", 0), ("amax", "int32", 0)]),
    "group-per-output": ((5, 4), lambda b: b, (1,), (False, "group", False),
                         [("sum", "int32", 0), ("var", "float32", 1)]),
    "columns": ((3, 5), _cols, (0,), (True, "group", False),
                [("sum", "float64", 0), ("argmax", "float64", 0)]),
    "columns-split": ((20, 3), lambda b: b, (0,), (True, "group", True),
                      [("var", "float32", 0), ("amax", "float64", 0), ("argmin", "int32", 0)]),
    "empty": ((0, 3), lambda b: b, (0,), (False, "group", False),
              [("var", "float64", 1), ("prod", "int32", 0)]),
}


def _layout(x: np.ndarray, out: np.ndarray, axes: tuple[int, ...]) -> layout.Layout:
    kshape, kxs, _, _, rxs, n = reduction_plan(*reduction_arrays(x, out, axes))
    return layout.choose(kshape, kxs, rxs, n)


def _input(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
           op: str) -> np.ndarray:
    base = draw(rng, shape, dtype, -2, 2)
    if op == "prod":
        base[base == 0] = -1  # a zero would hide the other factors
    if op in ("argmax", "argmin") and dtype == "float32" and base.size:
        base.flat[[3, -4]] = np.nan  # the first nan wins, across chunks too
    return base


@pytest.mark.filterwarnings("ignore:Degrees of freedom")
@pytest.mark.parametrize("case", list(CASES))
def test_each_layout_matches_numpy(case: str) -> None:
    shape, view, axes, (cols, lanes, split), calls = CASES[case]
    rng = np.random.default_rng(len(case))
    for op, dtype, param in calls:
        arg = op in ("argmax", "argmin")
        x = view(_input(rng, shape, dtype, op))
        kept = tuple(n for d, n in enumerate(x.shape) if d not in axes)
        kernel = lookup(op, "cuda", (dtype,))
        if arg:
            out, values = np.full(kept, -1, np.int64), poisoned(kept, dtype)
            kernel(x, out, axes, values=values)
            moved = np.moveaxis(x, axes, range(-len(axes), 0)).reshape(*kept, -1)
            want = getattr(np, op)(moved, axis=-1)
            np.testing.assert_array_equal(out, want)
            np.testing.assert_array_equal(values, np.take_along_axis(moved, want[..., None], -1)
                                          [..., 0])
        else:
            ref, out_dtype = REFS[op]
            out = poisoned(kept, out_dtype(dtype))
            kernel(x, out, axes, float(param))
            with np.errstate(all="ignore"):
                check(out, ref(x, axes, param), dtype)
        if layout.SIMULATED:
            lay = _layout(x, out, axes)
            assert (lay.cols, lay.chunks > 1) == (cols, split)
            assert (lay.lanes == layout.THREADS) == (lanes == "block")


def test_argmax_writes_values_laid_out_unlike_the_indices() -> None:
    x = draw(np.random.default_rng(3), (3, 2, 5), "float32")
    out = np.full((2, 5), -1, np.int64)
    values = poisoned((5, 2), "float32").T  # does not collapse like x and out
    lookup("argmax", "cuda", ("float32",))(x, out, (0,), values=values)
    np.testing.assert_array_equal(out, np.argmax(x, axis=0))
    np.testing.assert_array_equal(values, np.max(x, axis=0))
