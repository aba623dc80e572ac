"""matmul kernels against NumPy on cpu and simulated cuda: strided, broadcast batch, empty K."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_inputs import BACKENDS, check, draw, lookup, poisoned

DTYPES = ["float32", "float64", "int32", "int64", "uint8", "int8", "int16"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_2d_strided(backend: str, dtype: str) -> None:
    rng = np.random.default_rng(5)
    kernel = lookup("matmul", backend, (dtype, dtype))
    a = draw(rng, (6, 5), dtype, -3, 3)
    b = draw(rng, (7, 5), dtype, -3, 3).T[:, ::-1]
    out = poisoned((6, 7), dtype)
    kernel(a, b, out)
    check(out, (a.astype(np.float64) @ b.astype(np.float64)).astype(dtype), dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_matmul_broadcast_batch_and_empty_inner(backend: str) -> None:
    rng = np.random.default_rng(6)
    kernel = lookup("matmul", backend, ("float32", "float32"))
    a = draw(rng, (2, 3, 4), "float32")
    b = np.broadcast_to(draw(rng, (4, 2), "float32"), (2, 4, 2))
    out = poisoned((2, 3, 2), "float32")
    kernel(a, b, out)
    check(out, a @ b, "float32")
    out = poisoned((3, 2), "float32")
    kernel(np.empty((3, 0), np.float32), np.empty((0, 2), np.float32), out)
    np.testing.assert_array_equal(out, np.zeros((3, 2)))
