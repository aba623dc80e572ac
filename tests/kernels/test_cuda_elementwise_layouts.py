"""CUDA elementwise kernel variants against NumPy: every layout, both index widths, every tail.

These test the CUDA builder's choice of loop, so they run on ``cuda`` only (the
CPU loops are checked in ``test_elementwise_kernels.py``). The simulated grid is
tiny (``SIMULATED_BLOCKS`` blocks of ``SIMULATED_THREADS``, ``UNROLL`` elements
per thread and step), so small shapes reach the unrolled loop, the grid stride
and the one-at-a-time tail; on a real GPU the same shapes stay in one block.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from gtensor.kernels.cuda import _elementwise_build as builder
from gtensor.kernels.cuda import _launch as launch
from kernel_inputs import check, draw, lookup, poisoned

STEP = builder.SIMULATED_THREADS * builder.SIMULATED_BLOCKS * builder.UNROLL
"""Elements in one grid-stride step of the simulated grid (a GPU's first block's share)."""
PAD = 3


@pytest.fixture
def chosen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The ``(layout, bits)`` of each kernel the calls in a test plan."""
    seen: list[tuple[str, int]] = []
    kernel = builder.CudaElementwise.kernel

    def spy(self: builder.CudaElementwise, layout: str, bits: int) -> object:
        seen.append((layout, bits))
        return kernel(self, layout, bits)

    monkeypatch.setattr(builder.CudaElementwise, "kernel", spy)
    return seen


@pytest.fixture(params=[32, 64])
def bits(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Index width under test: 64 by lowering the 32-bit limit below every size here."""
    if request.param == 64:
        monkeypatch.setattr(builder, "INDEX32_LIMIT", 1)
    return request.param


def _padded(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """A poisoned float32 output ``PAD`` elements into a larger poisoned buffer."""
    size = int(np.prod(shape))
    buf = poisoned((size + 2 * PAD,), "float32")
    return buf, buf[PAD:PAD + size].reshape(shape)


def _run(op: str, args: list, want: Callable[..., np.ndarray], shape: tuple[int, ...]) -> None:
    """Run float32 kernel ``op`` into a padded output; check it and the untouched margins."""
    dtypes = ("bool", "float32", "float32") if op == "where" else ("float32",) * min(len(args), 3)
    buf, out = _padded(shape)
    lookup(op, "cuda", dtypes)(*args, out)
    check(out, want(*[np.asarray(a) for a in args]), "float32")
    assert np.isnan(buf[:PAD]).all() and np.isnan(buf[PAD + out.size:]).all()


def _offset(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Random float32 values of ``shape`` that start one element into their buffer."""
    size = int(np.prod(shape))
    return draw(rng, (size + 1,), "float32")[1:].reshape(shape)


def test_contiguous_binary_every_tail(chosen: list[tuple[str, int]]) -> None:
    rng = np.random.default_rng(0)
    sizes = [1, builder.UNROLL + 1, STEP // 2 + 3, *range(STEP, 2 * STEP)]
    for n in sizes:
        a, b = _offset(rng, (n,)), _offset(rng, (n,))
        _run("sub", [a, b], np.subtract, (n,))
    _run("sub", [2.5, a], np.subtract, (n,))
    assert chosen == [("flat", 32)] * (len(sizes) + 1)


def test_contiguous_unary_and_ternary_with_scalars(bits: int,
                                                   chosen: list[tuple[str, int]]) -> None:
    rng = np.random.default_rng(1)
    sizes = [STEP + r for r in range(builder.UNROLL)]
    for n in sizes:
        x, a = _offset(rng, (n,)), _offset(rng, (n,))
        _run("exp", [x], np.exp, (n,))
        _run("addcmul", [x, a, 1.5, -0.5], lambda x, a, b, v: x + v * a * b, (n,))
    assert chosen == [("flat", bits)] * (2 * len(sizes))


def test_one_strided_dim(bits: int, chosen: list[tuple[str, int]]) -> None:
    rng = np.random.default_rng(2)
    n = STEP + 5
    x = draw(rng, (2 * n,), "float32")
    y = draw(rng, (n,), "float32")
    _run("sub", [x[::2], y[::-1]], np.subtract, (n,))
    _run("where", [x[::2] > 0, np.broadcast_to(np.float32(4), (n,)), -1.0],
         lambda c, a, b: np.where(c, a, np.float32(b)), (n,))
    assert chosen == [("strided1", bits)] * 2


@pytest.mark.parametrize("shape", [(5, 7), (11, 3)])
def test_two_dims_broadcast_and_transposed(shape: tuple[int, int], bits: int,
                                           chosen: list[tuple[str, int]]) -> None:
    rng = np.random.default_rng(3)
    rows, cols = shape
    x = draw(rng, shape, "float32")
    row = np.broadcast_to(draw(rng, (cols,), "float32"), shape)
    column = np.broadcast_to(draw(rng, (rows, 1), "float32"), shape)
    transposed = np.ascontiguousarray(x.T).T
    _run("sub", [row, x], np.subtract, shape)
    _run("sub", [x, column], np.subtract, shape)
    _run("exp", [transposed], np.exp, shape)
    _run("addcmul", [transposed, column, row, 2.0], lambda x, a, b, v: x + v * a * b, shape)
    _run("where", [x > 0, column, 0.25], lambda c, a, b: np.where(c, a, np.float32(b)), shape)
    assert chosen == [("strided2", bits)] * 5


def test_more_dims_take_the_general_loop(bits: int, chosen: list[tuple[str, int]]) -> None:
    rng = np.random.default_rng(4)
    shape = (3, 4, 5)
    x = draw(rng, (3, 6, 10), "float32")[:, :4, ::-2]
    middle = np.broadcast_to(draw(rng, (4, 1), "float32"), shape)
    y = np.ascontiguousarray(draw(rng, (5, 4, 3), "float32")).transpose(2, 1, 0)
    _run("sub", [x, middle], np.subtract, shape)
    _run("exp", [x], np.exp, shape)
    _run("addcmul", [y, middle, x, 3.0], lambda x, a, b, v: x + v * a * b, shape)
    assert chosen == [("strided", bits)] * 3


class _Device:
    """A device answering only the attributes Numba's ``Device`` resolves through the driver."""

    id = 0

    def __getattr__(self, name: str) -> int:
        driver = pytest.importorskip("cuda.bindings.driver")
        assert hasattr(driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}"), name
        return {"MULTIPROCESSOR_COUNT": 132, "MAX_THREADS_PER_MULTIPROCESSOR": 2048}[name]


def test_grid_is_a_few_waves_of_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder, "SIMULATED", False)
    monkeypatch.setattr(launch, "_multiprocessors", {})
    monkeypatch.setattr(builder.cuda, "get_current_device", _Device, raising=False)
    per_block = builder.THREADS * builder.UNROLL
    waves = builder.WAVES * 132 * (2048 // builder.THREADS)
    assert [builder.launch_blocks(n) for n in (1, per_block, per_block + 1, 2**40)] == [
        1, 1, 2, waves]
