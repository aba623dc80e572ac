"""A user-defined elementwise op: one scalar function, kernels on cpu and simulated cuda."""

from __future__ import annotations

import math

import numpy as np
import pytest

try:
    from gtensor.kernels import KernelRegistrationError, define_elementwise, lookup
except ImportError:
    from kernels import KernelRegistrationError, define_elementwise, lookup

from kernel_inputs import BACKENDS, poisoned


def scaled_hypot(a, b, s):  # noqa: ANN001, ANN201
    return s * math.sqrt(a * a + b * b)


define_elementwise("test_scaled_hypot", scaled_hypot, ["float64"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_user_op_runs_like_a_builtin(backend: str) -> None:
    rng = np.random.default_rng(21)
    a = rng.standard_normal((3, 4))
    b = rng.standard_normal(4)
    kernel = lookup("test_scaled_hypot", backend, ("float64",) * 3)
    out = poisoned((3, 4), "float64")
    kernel(a[:, ::-1], np.broadcast_to(b, (3, 4)), 2.0, out)
    np.testing.assert_allclose(out, 2.0 * np.hypot(a[:, ::-1], b))


def test_user_op_name_clash_and_missing_dtype_raise() -> None:
    with pytest.raises(KernelRegistrationError, match="already registered"):
        define_elementwise("test_scaled_hypot", scaled_hypot, ["float64"])
    with pytest.raises(NotImplementedError, match=r"\[test_scaled_hypot\].*float32"):
        lookup("test_scaled_hypot", "cpu", ("float32",) * 3)


def test_lambda_body_gets_a_valid_kernel_name() -> None:
    define_elementwise("test_twice", lambda x: x + x, ["int32"])
    out = poisoned((3,), "int32")
    lookup("test_twice", "cpu", ("int32",))(np.arange(3, dtype=np.int32), out)
    np.testing.assert_array_equal(out, [0, 2, 4])


def test_body_run_by_exec_in_a_module_namespace_is_not_cached() -> None:
    # as a doctest runs it: the module has a loader, the file name is a placeholder
    namespace = {"__name__": __name__}
    exec(compile("def doubled(x):\n    return x + x\n", "<generated>", "exec"), namespace)  # noqa: S102
    define_elementwise("test_doubled_generated", namespace["doubled"], ["float64"])
    out = poisoned((2,), "float64")
    lookup("test_doubled_generated", "cpu", ("float64",))(np.array([1.0, 2.5]), out)
    np.testing.assert_array_equal(out, [2.0, 5.0])
