"""Volumetric and adaptive pooling composed of gathers: ``max_pool3d``, ``avg_pool3d``,
``adaptive_avg_pool1d``/``3d``, ``adaptive_max_pool1d``/``3d`` and the ``_with_indices`` forms.

``max_pool3d`` and ``avg_pool3d`` read every window of the padded volume with one
``index_select`` through the host-built position table of :mod:`.fold` and reduce
over the window; autograd routes the max's gradient to its argmax and spreads the
mean's. Adaptive averages are separable: one matmul per dim by a constant
``(size, out)`` bin-averaging matrix. ``adaptive_max_pool3d`` gathers each bin
through a table of positions, as :func:`adaptive_max_pool2d` does.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np

from ...errors import DTypeError, ShapeError, check
from ...ops.creation import tensor
from ...ops.layout.copies import pad
from ...ops.pooling import pool_out
from ...ops.widen import half_in_float32
from ...tensor import Tensor
from ...tensor_base import TensorBase
from .fold import _positions, tuple_of
from .pooling import adaptive_max_pool2d, max_pool1d
from .pooling import max_pool2d as _max_pool2d


def batched_nd(input: Any, nd: int, op: str) -> tuple[Tensor, bool]:
    """``(N, C, *spatial)`` view of a batched or unbatched float input, and whether it was
    unbatched."""
    check(isinstance(input, TensorBase), op, "input must be a tensor", TypeError)
    check(input.ndim in (nd + 1, nd + 2), op, lambda: f"expected a {nd + 1}-D or {nd + 2}-D "
          f"input, got shape {input.shape}", ShapeError)
    check(input.dtype.is_floating_point, op, lambda: f"expected a floating tensor, got "
          f"{input.dtype.name}", DTypeError)
    if input.ndim == nd + 1:
        return input.unsqueeze(0), True
    return input, False


def unbatch(t: Tensor, squeeze: bool) -> Tensor:
    return t.squeeze(0) if squeeze else t


def pool_geometry(op: str, x: Tensor, nd: int, kernel_size: Any, stride: Any, padding: Any,
                  dilation: Any, ceil_mode: bool) -> tuple[tuple[int, ...], ...]:
    """Checked ``(kernel, stride, padding, dilation, out)`` of an ``nd``-dim pool."""
    k = tuple_of(kernel_size, nd, op, "kernel_size", 1)
    empty = stride is None or (not isinstance(stride, int) and len(stride) == 0)
    s = k if empty else tuple_of(stride, nd, op, "stride", 1)
    p = tuple_of(padding, nd, op, "padding", 0)
    d = tuple_of(dilation, nd, op, "dilation", 1)
    check(all(2 * pi <= di * (ki - 1) + 1 for pi, ki, di in zip(p, k, d, strict=True)), op,
          lambda: f"pad should be at most half of effective kernel size, got padding {p}, "
          f"kernel {k} and dilation {d}", ValueError)
    sizes = x.shape[2:]
    out = tuple(pool_out(sizes[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(nd))
    check(all(v > 0 for v in out), op, lambda: f"input of spatial size {tuple(sizes)} gives "
          f"output size {out}, which is too small", ShapeError)
    return k, s, p, d, out


def _windows(x: Tensor, k: tuple[int, ...], s: tuple[int, ...], p: tuple[int, ...],
             d: tuple[int, ...], out: tuple[int, ...], fill: float
             ) -> tuple[Tensor, np.ndarray, tuple[int, ...]]:
    """``(N, C, K, L)`` windows of ``x`` padded with ``fill``, the ``(K, L)`` table of their
    positions in the padded volume, and the right padding of each dim."""
    sizes = tuple(x.shape[2:])
    right = tuple(max(0, (o - 1) * si + di * (ki - 1) + 1 - n - pi)
                  for o, si, di, ki, n, pi in zip(out, s, d, k, sizes, p, strict=True))
    widths = [w for pi, r in zip(reversed(p), reversed(right), strict=True) for w in (pi, r)]
    padded = pad(x, widths, value=fill) if any(widths) else x
    table = _positions(tuple(padded.shape[2:]), k, s, d, out)
    n, c = x.shape[:2]
    cols = padded.reshape(n, c, -1).index_select(2, tensor(table.reshape(-1), device=x.device))
    return cols.reshape(n, c, *table.shape), table, right


@functools.lru_cache(maxsize=64)
def _unpadded_index(sizes: tuple[int, ...], lo: tuple[int, ...], hi: tuple[int, ...]
                    ) -> np.ndarray:
    """Flat index in the unpadded volume of each position of the padded one (-1 in padding)."""
    grids = np.meshgrid(*[np.arange(-a, n + b) for n, a, b in zip(sizes, lo, hi, strict=True)],
                        indexing="ij")
    inside = np.all([(g >= 0) & (g < n) for g, n in zip(grids, sizes, strict=True)], axis=0)
    flat = np.ravel_multi_index([np.clip(g, 0, n - 1) for g, n in zip(grids, sizes,
                                                                       strict=True)], sizes)
    return np.where(inside, flat, -1).reshape(-1)


def _picked(positions: np.ndarray, arg: Tensor, n: int, c: int) -> Tensor:
    """``positions[k, l]`` at ``k = arg[n, c, l]``: the flat index of each window's pick."""
    table = tensor(positions, device=arg.device).reshape(1, 1, *positions.shape)
    return table.expand(n, c, *positions.shape).gather(2, arg.unsqueeze(2)).squeeze(2)


@half_in_float32
def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """3-D max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Args:
        input: float tensor.
        kernel_size: int or triple.
        stride: int or triple (default: ``kernel_size``).
        padding: implicit ``-inf`` padding, at most half the effective kernel.
        dilation: spacing between window elements.
        ceil_mode: round the output size up.
        return_indices: also return the int64 flat ``(d*H + h)*W + w`` position of each
            maximum.

    Example:
        >>> F.max_pool3d(gt.randn(1, 2, 4, 4, 4), 2).shape
        (1, 2, 2, 2, 2)
    """
    op = "max_pool3d"
    x, squeeze = batched_nd(input, 3, op)
    k, s, p, d, out = pool_geometry(op, x, 3, kernel_size, stride, padding, dilation,
                                    ceil_mode)
    windows, table, right = _windows(x, k, s, p, d, out, -math.inf)
    n, c = x.shape[:2]
    values, arg = windows.max(2)
    values = unbatch(values.reshape(n, c, *out), squeeze)
    if not return_indices:
        return values
    positions = _unpadded_index(tuple(x.shape[2:]), p, right)[table]
    return values, unbatch(_picked(positions, arg, n, c).reshape(n, c, *out), squeeze)


def _extent(start: int, k: int, p: int, size: int) -> tuple[int, int]:
    """A window's size within the padded input and its size within the input proper."""
    end = min(start + k, size + p)
    return end - start, min(end, size) - max(start, 0)


@functools.lru_cache(maxsize=64)
def _divisors(sizes: tuple[int, ...], k: tuple[int, ...], s: tuple[int, ...],
              p: tuple[int, ...], out: tuple[int, ...], count_include_pad: bool) -> np.ndarray:
    """Each window's divisor, PyTorch's rule: padded zeros count, the ceil-mode overhang not."""
    per_dim = []
    for n, ki, si, pi, oi in zip(sizes, k, s, p, out, strict=True):
        ext = [_extent(o * si - pi, ki, pi, n) for o in range(oi)]
        per_dim.append(np.array([e[0] if count_include_pad else e[1] for e in ext], float))
    return functools.reduce(np.multiply.outer, per_dim)


@half_in_float32
def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Args:
        input: float tensor.
        kernel_size: int or triple.
        stride: int or triple (default: ``kernel_size``).
        padding: implicit zero padding, at most half the kernel.
        ceil_mode: round the output size up.
        count_include_pad: count padded zeros in the divisor.
        divisor_override: positive int used as every window's divisor.

    Example:
        >>> F.avg_pool3d(gt.ones(1, 1, 2, 2, 2), 2).flatten().tolist()
        [1.0]
    """
    op = "avg_pool3d"
    x, squeeze = batched_nd(input, 3, op)
    check(divisor_override is None or (isinstance(divisor_override, int)
                                       and divisor_override > 0), op,
          lambda: f"divisor_override must be a positive int, got {divisor_override!r}",
          ValueError)
    k, s, p, d, out = pool_geometry(op, x, 3, kernel_size, stride, padding, 1, ceil_mode)
    windows, _, _ = _windows(x, k, s, p, d, out, 0.0)
    n, c = x.shape[:2]
    total = windows.sum(2).reshape(n, c, *out)
    if divisor_override:
        return unbatch(total / divisor_override, squeeze)
    div = _divisors(tuple(x.shape[2:]), k, s, p, out, bool(count_include_pad))
    return unbatch(total / tensor(div, dtype=x.dtype, device=x.device), squeeze)


def adaptive_sizes(x: Tensor, output_size: Any, nd: int, op: str) -> tuple[int, ...]:
    """The checked output sizes of an ``nd``-dim adaptive pool; None keeps the input's size."""
    sizes = (output_size,) * nd if output_size is None or isinstance(output_size, int) \
        else tuple(output_size)
    check(len(sizes) == nd, op, lambda: f"output_size must be an int or {nd} ints, got "
          f"{output_size!r}", TypeError)
    out = tuple(x.shape[2 + i] if v is None else v for i, v in enumerate(sizes))
    check(all(isinstance(v, int) and v > 0 for v in out), op,
          lambda: f"output_size must be positive ints, got {output_size!r}", ValueError)
    check(all(v > 0 for v in x.shape[2:]), op,
          lambda: f"expected non-empty spatial dims, got shape {x.shape}", ShapeError)
    return out


def _bins(size: int, n_out: int) -> list[range]:
    return [range(o * size // n_out, -(-(o + 1) * size // n_out)) for o in range(n_out)]


@functools.lru_cache(maxsize=64)
def _average_matrix(size: int, n_out: int) -> np.ndarray:
    """``(size, n_out)``: column ``o`` averages adaptive bin ``o``."""
    m = np.zeros((size, n_out))
    for o, b in enumerate(_bins(size, n_out)):
        m[b.start:b.stop, o] = 1.0 / len(b)
    return m


def _adaptive_avg(input: Tensor, output_size: Any, nd: int, op: str) -> Tensor:
    x, squeeze = batched_nd(input, nd, op)
    out = adaptive_sizes(x, output_size, nd, op)
    for i, o in enumerate(out):
        m = tensor(_average_matrix(x.shape[2 + i], o), dtype=x.dtype, device=x.device)
        x = (x.transpose(2 + i, -1) @ m).transpose(2 + i, -1)
    return unbatch(x, squeeze)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Average over adaptive bins of ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> F.adaptive_avg_pool1d(gt.arange(4.0).reshape(1, 1, 4), 2).tolist()
        [[[0.5, 2.5]]]
    """
    return _adaptive_avg(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """Average over adaptive bins of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> F.adaptive_avg_pool3d(gt.ones(1, 2, 3, 4, 5), (1, 2, None)).shape
        (1, 2, 1, 2, 5)
    """
    return _adaptive_avg(input, output_size, 3, "adaptive_avg_pool3d")


@functools.lru_cache(maxsize=64)
def _bin_table(sizes: tuple[int, ...], out: tuple[int, ...]) -> np.ndarray:
    """Flat positions ``(K, prod(out))`` of each adaptive bin, short bins padded by repeats."""
    bins = [_bins(n, o) for n, o in zip(sizes, out, strict=True)]
    kmax = math.prod(max(len(b) for b in per) for per in bins)
    table = np.empty((kmax, math.prod(out)), dtype=np.int64)
    for j, cell in enumerate(itertools.product(*bins)):
        flat = np.ravel_multi_index(np.meshgrid(*cell, indexing="ij"), sizes).reshape(-1)
        table[:flat.size, j] = flat
        table[flat.size:, j] = flat[0]
    return table


@half_in_float32
def adaptive_max_pool3d(input: Tensor, output_size: Any,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Args:
        input: float tensor.
        output_size: int or triple; a None entry keeps the input's size.
        return_indices: also return the int64 flat ``(d*H + h)*W + w`` position of each
            maximum.

    Example:
        >>> F.adaptive_max_pool3d(gt.randn(2, 3, 4, 5, 3), 2).shape
        (2, 3, 2, 2, 2)
    """
    op = "adaptive_max_pool3d"
    x, squeeze = batched_nd(input, 3, op)
    out = adaptive_sizes(x, output_size, 3, op)
    n, c = x.shape[:2]
    table = _bin_table(tuple(x.shape[2:]), out)
    flat = tensor(table.reshape(-1), device=x.device)
    windows = x.reshape(n, c, -1).index_select(2, flat).reshape(n, c, *table.shape)
    values, arg = windows.max(2)
    values = unbatch(values.reshape(n, c, *out), squeeze)
    if not return_indices:
        return values
    return values, unbatch(_picked(table, arg, n, c).reshape(n, c, *out), squeeze)


def adaptive_max_pool1d(input: Tensor, output_size: Any,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins of ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> F.adaptive_max_pool1d(gt.arange(4.0).reshape(1, 1, 4), 2).tolist()
        [[[1.0, 3.0]]]
    """
    op = "adaptive_max_pool1d"
    x, squeeze = batched_nd(input, 1, op)
    (o,) = adaptive_sizes(x, output_size, 1, op)
    res = adaptive_max_pool2d(x.unsqueeze(2), (1, o), return_indices)
    if return_indices:
        return unbatch(res[0].squeeze(2), squeeze), unbatch(res[1].squeeze(2), squeeze)
    return unbatch(res.squeeze(2), squeeze)  # type: ignore[union-attr]


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`max_pool1d` with its indices, whatever ``return_indices`` says.

    Example:
        >>> F.max_pool1d_with_indices(gt.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)[1].tolist()
        [[[1, 2]]]
    """
    del return_indices
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)  # type: ignore[return-value]


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`max_pool2d` with its indices, whatever ``return_indices`` says.

    Example:
        >>> F.max_pool2d_with_indices(gt.randn(1, 1, 4, 4), 2)[1].shape
        (1, 1, 2, 2)
    """
    del return_indices
    return _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)  # type: ignore[return-value]


def max_pool3d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`max_pool3d` with its indices, whatever ``return_indices`` says.

    Example:
        >>> F.max_pool3d_with_indices(gt.randn(1, 1, 2, 2, 2), 2)[1].shape
        (1, 1, 1, 1, 1)
    """
    del return_indices
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)  # type: ignore[return-value]


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`adaptive_max_pool1d` with its indices.

    Example:
        >>> F.adaptive_max_pool1d_with_indices(gt.randn(1, 1, 5), 2)[1].shape
        (1, 1, 2)
    """
    del return_indices
    return adaptive_max_pool1d(input, output_size, True)  # type: ignore[return-value]


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`adaptive_max_pool2d` with its indices.

    Example:
        >>> F.adaptive_max_pool2d_with_indices(gt.randn(1, 1, 5, 5), 2)[1].shape
        (1, 1, 2, 2)
    """
    del return_indices
    return adaptive_max_pool2d(input, output_size, True)  # type: ignore[return-value]


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`adaptive_max_pool3d` with its indices.

    Example:
        >>> F.adaptive_max_pool3d_with_indices(gt.randn(1, 1, 3, 3, 3), 2)[1].shape
        (1, 1, 2, 2, 2)
    """
    del return_indices
    return adaptive_max_pool3d(input, output_size, True)  # type: ignore[return-value]
