"""Row sort and unique-run kernels against NumPy on cpu and cuda, on both sides of the CuPy cut.

On a real GPU rows longer than ``SMALL_ROW`` take CuPy's sort and shorter ones
the insertion-sort kernel; the simulator takes the kernel for both.
"""

from __future__ import annotations

import numpy as np
import pytest
from gtensor.kernels.cuda.sorting import SMALL_ROW, row_sort_path
from kernel_inputs import BACKENDS, lookup


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [SMALL_ROW, SMALL_ROW + 1])
def test_sort_rows_stable_with_nan(backend: str, n: int) -> None:
    rng = np.random.default_rng(n)
    a = rng.integers(-2, 3, (3, n)).astype(np.float64)
    a[0, 1] = a[2, -1] = np.nan
    kernel = lookup("sort_rows", backend, ("float64",))
    for descending in (False, True):
        values, indices = a.copy(), np.zeros(a.shape, np.int64)
        kernel(values, indices, descending)
        order = np.argsort(a, 1, kind="stable") if not descending else (
            n - 1 - np.argsort(a[:, ::-1], 1, kind="stable")[:, ::-1])
        np.testing.assert_array_equal(indices, order)
        np.testing.assert_array_equal(values, np.take_along_axis(a, order, 1))
    assert (row_sort_path(n, True), row_sort_path(n, False)) == (
        "kernel" if n <= SMALL_ROW else "cupy", "kernel")


@pytest.mark.parametrize("backend", BACKENDS)
def test_unique_runs_long_runs(backend: str) -> None:
    n = 300  # past the simulator's grid: threads stride over elements
    starts = np.array([0, 1, 250, 299], np.int64)
    perm = np.random.default_rng(1).permutation(n).astype(np.int64)
    counts, inverse = np.full(4, -1, np.int64), np.full(n, -1, np.int64)
    lookup("unique_runs", backend, ("int64",))(starts, perm, counts, inverse)
    np.testing.assert_array_equal(counts, [1, 249, 49, 1])
    want = np.empty(n, np.int64)
    want[perm] = np.repeat(np.arange(4), [1, 249, 49, 1])
    np.testing.assert_array_equal(inverse, want)
