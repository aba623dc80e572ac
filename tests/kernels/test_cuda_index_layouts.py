"""gather/scatter kernels on every thread layout (row tiles, strided, serial) against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F

try:
    from gtensor.kernels.cuda import _gather_scatter as gather_scatter
except ImportError:
    from kernels.cuda import _gather_scatter as gather_scatter

from kernel_inputs import BACKENDS, lookup, poisoned

BAD = -(2**63)


def _walk(n: int, length: int, blocks: int, geo: tuple[int, ...], threads: int) -> np.ndarray:
    """How often the row-tile kernel's loop visits each element (emulated on the host)."""
    _, _, shift, dr, dc, rows_tile, cols_tile, tiles_r, tiles_c, step_r, step_c = geo
    t = np.arange(threads)
    sub, lane = t >> shift, t & ((1 << shift) - 1)
    seen = np.zeros((n, length), np.int64)
    for block in range(blocks):
        rt, ct = divmod(block, tiles_c)
        while rt < tiles_r:
            for u in range(4):
                r = rt * rows_tile + sub + u * dr
                c = ct * cols_tile + lane + u * dc
                ok = (r < n) & (c < length)
                np.add.at(seen, (r[ok], c[ok]), 1)
            rt, ct = rt + step_r, ct + step_c
            if ct >= tiles_c:
                rt, ct = rt + 1, ct - tiles_c
    return seen


@pytest.mark.parametrize("n, length, strides, cap, lanes, kind", [
    (37, 256, (256, 1, 1), 1056, 64, "along"),    # rows of a C-contiguous matrix
    (5, 3000, (3000, 1, 1), 7, 256, "along"),     # long rows split into column tiles
    (1000, 1, (1, 1, 1), 3, 1, "short"),          # gather along a dim, take
    (50, 20, (20, 1, 1), 5, 32, "short"),
    (300, 40, (1, 300, 50), 4, 1, "down"),        # x[:, idx]: output rows innermost
])
def test_row_tiles_visit_every_element_once(n, length, strides, cap, lanes, kind):
    blocks, geo = gather_scatter.row_geometry(n, length, *strides, cap, threads=256, short_row=32)
    assert 1 << geo[2] == lanes and blocks <= cap
    assert kind == ("short" if geo[4] == 0 else "down" if lanes == 1 else "along")
    assert (_walk(n, length, blocks, geo, 256) == 1).all()


def _rows(offsets: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...],
          base: int) -> tuple[np.ndarray, np.ndarray]:
    """Element positions ``(n, *shape)`` read or written per row, and which rows are bad."""
    rest = np.full((), base, np.int64)
    for size, stride in zip(shape, strides, strict=True):
        rest = rest[..., None] + np.arange(size) * stride
    bad = offsets == BAD
    where = np.where(bad, 0, offsets).reshape((-1,) + (1,) * len(shape)) + rest
    return where, bad


# (dtype, storage size, base, rest shape, rest strides, row stride, rows, out layout)
GATHERS = {
    "along": ("float32", 7 * 70, 0, (70,), (1,), 70, 9, "contiguous"),
    "along-reversed-out": ("float32", 4 * 37, 0, (37,), (1,), 37, 9, "reversed"),
    "short": ("int64", 6 * 3 + 1, 1, (3,), (1,), 3, 10, "contiguous"),
    "down": ("float32", 5 * 6, 0, (5,), (6,), 1, 4, "columns"),
    "strided": ("int64", 40, 2, (3, 4), (10, 2), 1, 5, "contiguous"),
}


def _dense(shape: tuple[int, ...], dtype: str, layout: str) -> np.ndarray:
    """A poisoned ``(n, *R)`` array: contiguous, rows reversed, or rows innermost."""
    if layout == "reversed":
        return poisoned(shape, dtype)[::-1]
    if layout == "columns":
        return poisoned(shape[::-1], dtype).T
    return poisoned(shape, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(GATHERS))
def test_gather_layouts(backend, case, rng):
    _check_gather(backend, case, rng)


def _check_gather(backend: str, case: str, rng: np.random.Generator) -> None:
    dtype, size, base, shape, strides, row, n, layout = GATHERS[case]
    src = rng.integers(-50, 50, size).astype(dtype)
    span = base + sum((s - 1) * st for s, st in zip(shape, strides, strict=True))
    offsets = rng.integers(0, (size - span) // row, n).astype(np.int64) * row
    if backend == "cuda":
        offsets[1] = BAD
    out = _dense((n, *shape), dtype, layout)
    lookup("gather", backend, (dtype,))(src, base, shape, strides, offsets, out)
    where, bad = _rows(offsets, shape, strides, base)
    want = src[where]
    want[bad] = 0
    np.testing.assert_array_equal(out, want)


# (mode, dtype, dst size, rest shape, rest strides, row stride, rows, values layout)
SCATTERS = {
    "add-along": ("add", "float32", 6 * 70, (70,), (1,), 70, 9, "contiguous"),
    "add-short-broadcast": ("add", "int64", 5 * 3, (3,), (1,), 3, 11, "broadcast"),
    "add-strided": ("add", "float64", 40, (3, 4), (10, 2), 1, 6, "contiguous"),
    "amax-along": ("amax", "float64", 4 * 9, (9,), (1,), 9, 7, "reversed"),
    "copy-along": ("copy", "float32", 12 * 37, (37,), (1,), 37, 9, "reversed"),
    "copy-down": ("copy", "int64", 5 * 8, (5,), (8,), 1, 6, "columns"),
    "copy-strided": ("copy", "int64", 27 * 5, (3, 4), (9, 2), 27, 4, "reversed"),
    "prod-serial": ("prod", "float32", 4 * 3, (3,), (1,), 3, 7, "contiguous"),
    "add-int8-serial": ("add", "int8", 4 * 5, (5,), (1,), 5, 6, "contiguous"),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(SCATTERS))
def test_scatter_layouts(backend, case, rng):
    _check_scatter(backend, case, rng)


def _check_scatter(backend: str, case: str, rng: np.random.Generator) -> None:
    mode, dtype, size, shape, strides, row, n, layout = SCATTERS[case]
    dst = rng.integers(-4, 5, size).astype(dtype)
    span = sum((s - 1) * st for s, st in zip(shape, strides, strict=True))
    rows = (size - span - 1) // row + 1
    idx = rng.permutation(rows)[:n] if mode == "copy" else rng.integers(0, rows, n)
    if mode != "copy":
        idx[:2] = idx[2]  # duplicates combine
    offsets = idx.astype(np.int64) * row
    if backend == "cuda":
        offsets[-1] = BAD
    values = rng.integers(-3, 4, (n, *shape)).astype(dtype)
    if layout == "broadcast":
        values = np.broadcast_to(values[:1], values.shape)
    else:
        dense = _dense(values.shape, dtype, layout)
        dense[...] = values
        values = dense
    want = dst.copy()
    where, bad = _rows(offsets, shape, strides, 0)
    ufunc = {"add": np.add, "amax": np.maximum, "prod": np.multiply}.get(mode)
    if ufunc is None:
        want[where[~bad]] = values[~bad]
    else:
        ufunc.at(want, where[~bad], values[~bad])
    lookup("scatter", backend, (dtype, dtype))(dst, 0, shape, strides, offsets, values, mode)
    np.testing.assert_array_equal(dst, want)


def test_row_kernels_in_64_bit_index_math(monkeypatch, rng):
    monkeypatch.setattr(gather_scatter, "NARROW_LIMIT", 0)
    monkeypatch.setattr(gather_scatter, "_plans", {})
    _check_gather("cuda", "along-reversed-out", rng)
    _check_scatter("cuda", "add-short-broadcast", rng)
    assert {k[0].__name__ for k in gather_scatter._launches} >= {
        "gtensor_gather_rows64", "gtensor_scatter_atomic_rows64"}


def test_row_gathers_and_embedding_match_numpy(device, rng):
    table = rng.standard_normal((6, 5)).astype(np.float32)
    idx = np.array([4, 0, 4, 5, 1])
    x = gt.tensor(table, device=device)
    np.testing.assert_array_equal(x[gt.tensor(idx, device=device)].cpu().numpy(), table[idx])
    cols = gt.tensor(idx[:3], device=device)
    np.testing.assert_array_equal(x.index_select(1, cols).cpu().numpy(), table[:, idx[:3]])
    w = gt.tensor(table, device=device, requires_grad=True)
    tokens = idx.reshape(1, 5)
    out = F.embedding(gt.tensor(tokens, device=device), w)
    np.testing.assert_array_equal(out.detach().cpu().numpy(), table[tokens])
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(gt.tensor(g, device=device))
    want = np.zeros_like(table)
    np.add.at(want, idx, g[0])
    np.testing.assert_allclose(w.grad.cpu().numpy(), want, rtol=1e-6, atol=1e-6)
