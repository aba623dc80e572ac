"""softmax/log_softmax and cumsum/cumprod in every CUDA thread layout, against NumPy.

Each case's shape is derived from the layout constants, so the same case
reaches the same layout on the simulator (tiny shapes) and on a GPU; the test
first checks that the planner really picks that layout. The CPU runs the
same cases as the reference behaviour for special values.
"""

from __future__ import annotations

import numpy as np
import pytest

try:
    from gtensor.kernels.common.strided import axis_operands
    from gtensor.kernels.cuda import _reduce_layout, axis_layout, scan_rows, softmax_rows
    from gtensor.kernels.simulator import SIMULATED
except ImportError:
    from kernels.common.strided import axis_operands
    from kernels.cuda import _reduce_layout, axis_layout, scan_rows, softmax_rows
    from kernels.simulator import SIMULATED

from kernel_inputs import BACKENDS, check, draw, lookup, poisoned

T = axis_layout.THREADS
FILL = _reduce_layout.target_blocks()
COLUMN_PER = axis_layout.column_teams(3, 1).per

# name -> (shape, axis, row teams (scans: tiles)?, several lines a team block?, split?,
#          dtypes); a scan without tiles runs a thread per line (teams of one).
SOFTMAX_CASES = {
    "rows_shared": ((9, 3), -1, True, True, False, ("float32",)),
    "row_per_line": ((FILL, 4 * T + 3), -1, True, False, False, ("float64",)),
    "row_split": ((3, 2 * T * softmax_rows.SPLIT_ITEMS + 5), -1, True, False, True,
                  ("float32",)),
    "columns": ((5, 9), 0, False, True, False, ("float64",)),
    "column_split": ((2 * COLUMN_PER * softmax_rows.SPLIT_ITEMS + 5, 3), 0, False, True, True,
                     ("float32",)),
}
SCAN_CASES = {
    "rows_shared": ((9, 3), -1, True, True, False, ("float32", "int8")),
    "row_tiles": ((FILL, 2 * T * scan_rows.ITEMS + 3), -1, True, False, False,
                  ("float64", "bool")),
    "row_split": ((2, 2 * scan_rows.SCAN_CHUNK + 5), -1, True, False, True, ("float32", "bool")),
    "lines": ((2 * scan_rows.LINE_CHUNK - 1, 5), 0, False, False, False, ("float64", "int8")),
    "line_split": ((4 * scan_rows.LINE_CHUNK + 1, 3), 0, False, False, True,
                   ("float32", "int8")),
}

def _layout(plan, shape, axis):  # noqa: ANN001, ANN202
    x = np.empty(shape, np.float32)
    kshape, kxs, _, length, sx, _ = axis_operands(x, x, axis)
    return plan(int(np.prod(kshape)), length, kxs, sx)


def _check_layout(teams, rows: bool, case) -> None:  # noqa: ANN001
    _, _, want_rows, shared, split, _ = case
    assert rows == want_rows
    assert (teams.chunks > 1) == split
    assert (teams.lpb > 1) == shared
    if SIMULATED and shared and not split:
        assert teams.blocks < -(-teams.lines // teams.lpb)  # blocks grid-stride


def _with_specials(x: np.ndarray, axis: int) -> np.ndarray:
    """Large logits; lines by index mod 5: all -inf, first half -inf, ascending, NaN, +inf."""
    lines = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    n = lines.shape[1]
    for k, line in enumerate(lines):
        kind = k % 5
        if kind == 0:
            line[:] = -np.inf
        elif kind == 1:
            line[: n // 2] = -np.inf
        elif kind == 2:
            line.sort()
        else:
            line[(7 * k) % n] = np.nan if kind == 3 else np.inf
    return np.moveaxis(lines.reshape(np.moveaxis(x, axis, -1).shape), -1, axis)


def _softmax_ref(x: np.ndarray, axis: int, log: bool) -> np.ndarray:
    with np.errstate(all="ignore"):
        z = x.astype(np.float64) - np.max(x, axis=axis, keepdims=True)
        w = z - np.log(np.exp(z).sum(axis=axis, keepdims=True))
        return w if log else np.exp(w)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # simulated inf - inf
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(SOFTMAX_CASES))
def test_softmax_layouts(backend: str, case: str) -> None:
    shape, axis, *_, (dtype,) = SOFTMAX_CASES[case]
    teams = _layout(softmax_rows.softmax_teams, shape, axis)
    _check_layout(teams, teams.tstride == teams.per, SOFTMAX_CASES[case])
    rng = np.random.default_rng(21)
    x = _with_specials(draw(rng, shape, dtype) * 30, axis)
    out = poisoned(shape, dtype)
    lookup("softmax", backend, (dtype,))(x, out, axis)
    np.testing.assert_allclose(out, _softmax_ref(x, axis, False), rtol=1e-5, atol=1e-6)
    assert np.isnan(out[(0,) * len(shape)])  # line 0 is all -inf
    flipped = np.flip(x, axis)
    out = poisoned(shape[::-1], dtype).T
    lookup("log_softmax", backend, (dtype,))(flipped, out, axis)
    np.testing.assert_allclose(out, _softmax_ref(flipped, axis, True), rtol=1e-5, atol=1e-5)


def _scan_input(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
                prod: bool) -> np.ndarray:
    if dtype.startswith("float"):
        return draw(rng, shape, dtype, 0.5, 1.5) if prod else draw(rng, shape, dtype)
    if dtype == "bool" or not prod:
        return draw(rng, shape, dtype, -3, 3)
    return rng.choice(np.array([-2, -1, 1, 2], dtype), shape)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("case", list(SCAN_CASES))
def test_scan_layouts(backend: str, op: str, case: str) -> None:
    shape, axis, *_, dtypes = SCAN_CASES[case]
    _check_layout(*_layout(scan_rows.scan_teams, shape, axis), SCAN_CASES[case])
    rng = np.random.default_rng(22)
    kernel = {dt: lookup(op, backend, (dt,)) for dt in dtypes}
    float_dt, int_dt = dtypes
    x = _scan_input(rng, shape, float_dt, op == "cumprod")
    out = poisoned(shape, float_dt)
    kernel[float_dt](x, out, axis)
    check(out, getattr(np, op)(x.astype(np.float64), axis=axis), float_dt)
    x = np.flip(_scan_input(rng, shape, int_dt, op == "cumprod"), axis)
    out = poisoned(shape[::-1], "int64").T
    kernel[int_dt](x, out, axis)
    check(out, getattr(np, op)(x.astype(np.int64), axis=axis), int_dt)


def test_plan_is_made_once_per_signature_and_runs_on_flat_buffers() -> None:
    kernel = lookup("softmax", "cuda", ("float32",))
    plans = getattr(kernel, "_plans", None)
    if plans is None:
        pytest.skip("the kernel comes wrapped for a real GPU")
    rng = np.random.default_rng(23)
    x = draw(rng, (4, 6), "float32")
    out = poisoned((4, 6), "float32")
    kernel(x, out, 1)
    made = dict(plans)
    kernel(x + 1, out, 1)
    assert plans == made and len(made) >= 1
    np.testing.assert_allclose(out, _softmax_ref(x + 1, 1, False), rtol=1e-5, atol=1e-6)
    run = kernel.plan((4, 6), (6, 1), (6, 1), 1, np.dtype("float32"), np.dtype("float32"))
    flat = poisoned((24,), "float32")
    run(x.reshape(-1), 0, flat, 0)
    np.testing.assert_allclose(flat.reshape(4, 6), _softmax_ref(x, 1, False), rtol=1e-5,
                               atol=1e-6)
