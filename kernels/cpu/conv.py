"""CPU convolution kernels: ``conv2d``, ``conv_transpose2d`` and ``conv2d_weight`` on NumPy's BLAS.

Calling convention: 4-D contiguous ``(N, C, H, W)`` arrays, weights
``(O, C/groups, KH, KW)`` for ``conv2d`` (``(C_in, C_out/groups, KH, KW)`` for
``conv_transpose2d``, as in PyTorch), an output allocated by the caller (its
shape fixes the output size) and geometry pairs: ``stride``, top/left
``padding`` (bottom/right padding is implied by the output size) and
``dilation``.

Two ``conv2d`` paths, picked by what measured faster on a 2-core host:

* stride 1 with at least :data:`SHIFT_MIN_CHANNELS` channels per group: one
  GEMM per image ``W_stacked (KH*KW*O, C) @ x_padded (C, Hp*Wp)`` followed by
  a shifted sum of its ``KH*KW`` row blocks (no im2col buffer; the GEMM's
  inner dimension is ``C``);
* otherwise im2col over a chunk of images (:data:`CHUNK_BYTES` of columns),
  one GEMM ``W (O, C*KH*KW) @ cols`` for the chunk, and its rows copied into
  the ``(N, O, OH, OW)`` output.

``conv2d_weight`` is one GEMM per chunk and group, ``g (O, images*positions)
@ cols.T``; ``conv_transpose2d`` one GEMM per chunk and group, ``W.T @ x``,
then col2im. The njit helpers are serial on purpose: NumPy's BLAS threads are busy right
before and after them, and an OpenMP team on the same cores slowed the whole
conv by ~3x when tried.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common.dtype_groups import FLOAT, same
from ..registry import register

SHIFT_MIN_CHANNELS = 64
CHUNK_BYTES = 32 << 20
"""Bytes of im2col columns built at once: images are taken in chunks that fit."""

Pair = tuple[int, int]


@numba.njit(cache=True)
def gtensor_im2col_cpu(x, cols, kh, kw, sh, sw, ph, pw, dh, dw, oh_n, ow_n):  # noqa: ANN001, ANN201
    """``cols[(c*kh + ki)*kw + kj, (n*oh_n + oh)*ow_n + ow]``: the input under that tap, or 0.

    Row by row of ``cols``, so each output row segment is written contiguously.
    """
    n_img, c_n, h_n, w_n = x.shape
    for c in range(c_n):
        for ki in range(kh):
            for kj in range(kw):
                row = cols[(c * kh + ki) * kw + kj]
                for n in range(n_img):
                    for oh in range(oh_n):
                        ih = oh * sh - ph + ki * dh
                        base = (n * oh_n + oh) * ow_n
                        if ih < 0 or ih >= h_n:
                            row[base:base + ow_n] = 0
                            continue
                        src = x[n, c, ih]
                        for ow in range(ow_n):
                            iw = ow * sw - pw + kj * dw
                            row[base + ow] = src[iw] if 0 <= iw < w_n else 0


@numba.njit(cache=True)
def gtensor_col2im_cpu(cols, out, kh, kw, sh, sw, ph, pw, dh, dw, oh_n, ow_n):  # noqa: ANN001, ANN201
    """The adjoint of :func:`gtensor_im2col_cpu`: ``out`` (zeroed here) gets every column
    entry added at the input position it was read from."""
    n_img, c_n, h_n, w_n = out.shape
    out[...] = 0
    for c in range(c_n):
        for ki in range(kh):
            for kj in range(kw):
                row = cols[(c * kh + ki) * kw + kj]
                for n in range(n_img):
                    for oh in range(oh_n):
                        ih = oh * sh - ph + ki * dh
                        if ih < 0 or ih >= h_n:
                            continue
                        dst = out[n, c, ih]
                        base = (n * oh_n + oh) * ow_n
                        for ow in range(ow_n):
                            iw = ow * sw - pw + kj * dw
                            if 0 <= iw < w_n:
                                dst[iw] += row[base + ow]


def _chunks(n_img: int, rows: int, positions: int, itemsize: int) -> list[tuple[int, int]]:
    """Image ranges whose ``rows x (images * positions)`` columns fit :data:`CHUNK_BYTES`."""
    step = max(1, CHUNK_BYTES // max(1, rows * positions * itemsize))
    return [(n, min(n + step, n_img)) for n in range(0, n_img, step)]


@numba.njit(cache=True)
def gtensor_shift_sum_cpu(y, out, offsets, wp, bias):  # noqa: ANN001, ANN201
    og, oh_n, ow_n = out.shape
    for c in range(og):
        b = bias[c]
        for oh in range(oh_n):
            row = out[c, oh]
            base = oh * wp + offsets[0]
            src = y[c, base:base + ow_n]
            for ow in range(ow_n):
                row[ow] = src[ow] + b
            for k in range(1, offsets.size):
                base = oh * wp + offsets[k]
                src = y[k * og + c, base:base + ow_n]
                for ow in range(ow_n):
                    row[ow] += src[ow]


def _conv_shift(x: np.ndarray, w: np.ndarray, bias: np.ndarray, out: np.ndarray,
                padding: Pair, dilation: Pair, groups: int) -> None:
    n_img, c_in, h, wd = x.shape
    o, cg, kh, kw = w.shape
    og = o // groups
    oh_n, ow_n = out.shape[2:]
    hp, wp = oh_n + dilation[0] * (kh - 1), ow_n + dilation[1] * (kw - 1)
    ph, pw = padding
    xp = np.zeros((c_in, hp, wp), x.dtype)
    hs, he = 0, min(h, hp - ph)
    ws, we = 0, min(wd, wp - pw)
    stacked = np.ascontiguousarray(
        w.reshape(groups, og, cg, kh * kw).transpose(0, 3, 1, 2).reshape(groups, kh * kw * og, cg))
    offsets = np.array([ki * dilation[0] * wp + kj * dilation[1]
                        for ki in range(kh) for kj in range(kw)], np.int64)
    y = np.empty((kh * kw * og, hp * wp), x.dtype)
    flat = xp.reshape(c_in, hp * wp)
    for n in range(n_img):
        xp[:, ph + hs:ph + he, pw + ws:pw + we] = x[n, :, hs:he, ws:we]
        for g in range(groups):
            np.matmul(stacked[g], flat[g * cg:(g + 1) * cg], out=y)
            gtensor_shift_sum_cpu(y, out[n, g * og:(g + 1) * og], offsets, wp,
                                  bias[g * og:(g + 1) * og])


def _conv_im2col(x: np.ndarray, w: np.ndarray, out: np.ndarray, stride: Pair, padding: Pair,
                 dilation: Pair, groups: int) -> None:
    o, cg, kh, kw = w.shape
    og, cgk = o // groups, cg * kh * kw
    oh_n, ow_n = out.shape[2:]
    size = oh_n * ow_n
    wr = w.reshape(groups, og, cgk)
    for n0, n1 in _chunks(x.shape[0], groups * cgk, size, x.itemsize):
        cols = np.empty((groups * cgk, (n1 - n0) * size), x.dtype)
        gtensor_im2col_cpu(x[n0:n1], cols, kh, kw, *stride, *padding, *dilation, oh_n, ow_n)
        y = np.empty((og, (n1 - n0) * size), x.dtype)
        for g in range(groups):
            # one GEMM over the chunk's images, then rows of ``size`` copied into place
            np.dot(wr[g], cols[g * cgk:(g + 1) * cgk], out=y)
            out[n0:n1, g * og:(g + 1) * og] = y.reshape(og, n1 - n0, oh_n, ow_n).transpose(
                1, 0, 2, 3)


@register("conv2d", "cpu", same(FLOAT, 2))
def conv2d(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, out: np.ndarray,
           stride: Pair, padding: Pair, dilation: Pair, groups: int,
           stream: object = None) -> None:
    """Write the cross-correlation of ``x`` with ``w`` (plus ``bias``) into ``out``.

    Args:
        x: ``(N, C, H, W)`` contiguous input.
        w: ``(O, C/groups, KH, KW)`` contiguous weight.
        bias: ``(O,)`` or None.
        out: ``(N, O, OH, OW)`` contiguous result.
        stride, padding, dilation: geometry pairs (padding is top/left).
        groups: channel groups.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 2, 3, 3), np.float32)
        >>> conv2d(np.ones((1, 1, 3, 3), np.float32), np.ones((2, 1, 3, 3), np.float32), None,
        ...        out, (1, 1), (1, 1), (1, 1), 1)
        >>> out[0, 0, 1, 1].item()
        9.0
    """
    if out.size == 0:
        return
    if x.size == 0 or w.shape[1] == 0:
        out[...] = 0
    elif stride == (1, 1) and w.shape[1] >= SHIFT_MIN_CHANNELS:
        zeros = np.zeros(out.shape[1], out.dtype)
        _conv_shift(x, w, zeros if bias is None else bias, out, padding, dilation, groups)
        return
    else:
        _conv_im2col(x, w, out, stride, padding, dilation, groups)
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)


@register("conv_transpose2d", "cpu", same(FLOAT, 2))
def conv_transpose2d(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, out: np.ndarray,
                     stride: Pair, padding: Pair, dilation: Pair, groups: int,
                     stream: object = None) -> None:
    """Write the transposed convolution of ``x`` with ``w`` (plus ``bias``) into ``out``.

    It is the adjoint of :func:`conv2d` with the same geometry, mapping ``conv2d``'s
    output space (``x``'s shape) to its input space (``out``'s shape).

    Args:
        x: ``(N, C_in, H, W)`` contiguous input.
        w: ``(C_in, C_out/groups, KH, KW)`` contiguous weight.
        bias: ``(C_out,)`` or None.
        out: ``(N, C_out, OH, OW)`` contiguous result.
        stride, padding, dilation, groups: geometry of the matching ``conv2d``.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 1, 3, 3))
        >>> conv_transpose2d(np.ones((1, 1, 2, 2)), np.ones((1, 1, 2, 2)), None, out,
        ...                  (1, 1), (0, 0), (1, 1), 1)
        >>> out[0, 0, 1, 1].item()
        4.0
    """
    if out.size == 0:
        return
    c_in, coutg, kh, kw = w.shape
    h, wd = x.shape[2:]
    cing, ck = c_in // groups, coutg * kh * kw
    if x.size == 0 or cing == 0:
        out[...] = 0
    else:
        size = h * wd
        wt = w.reshape(groups, cing, ck).transpose(0, 2, 1)
        for n0, n1 in _chunks(x.shape[0], groups * ck, size, x.itemsize):
            # (C_in, images * positions): each group's rows are one GEMM operand
            xt = np.ascontiguousarray(x[n0:n1].transpose(1, 0, 2, 3)).reshape(c_in, -1)
            cols = np.empty((groups * ck, (n1 - n0) * size), x.dtype)
            for g in range(groups):
                np.dot(wt[g], xt[g * cing:(g + 1) * cing], out=cols[g * ck:(g + 1) * ck])
            gtensor_col2im_cpu(cols, out[n0:n1], kh, kw, *stride, *padding, *dilation, h, wd)
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)


@register("conv2d_weight", "cpu", same(FLOAT, 2))
def conv2d_weight(x: np.ndarray, g: np.ndarray, out: np.ndarray, stride: Pair, padding: Pair,
                  dilation: Pair, groups: int, stream: object = None) -> None:
    """Write the gradient of ``conv2d``'s weight: ``out[o, c, ki, kj] = sum g * shifted x``.

    Args:
        x: ``(N, C, H, W)`` contiguous input of the convolution.
        g: ``(N, O, OH, OW)`` contiguous gradient of its output.
        out: ``(O, C/groups, KH, KW)`` contiguous result.
        stride, padding, dilation, groups: the convolution's geometry.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 1, 1, 1))
        >>> conv2d_weight(np.ones((1, 1, 2, 2)), np.ones((1, 1, 2, 2)), out,
        ...               (1, 1), (0, 0), (1, 1), 1)
        >>> out.item()
        4.0
    """
    if out.size == 0:
        return
    o, cg, kh, kw = out.shape
    og, cgk = o // groups, cg * kh * kw
    oh_n, ow_n = g.shape[2:]
    size = oh_n * ow_n
    acc = np.zeros((groups, cgk, og), out.dtype)
    if x.size and g.size:
        part = np.empty((cgk, og), out.dtype)
        for n0, n1 in _chunks(x.shape[0], groups * cgk, size, x.itemsize):
            cols = np.empty((groups * cgk, (n1 - n0) * size), x.dtype)
            gtensor_im2col_cpu(x[n0:n1], cols, kh, kw, *stride, *padding, *dilation, oh_n, ow_n)
            # (O, images * positions), the other GEMM operand
            gt = np.ascontiguousarray(g[n0:n1].transpose(1, 0, 2, 3)).reshape(o, -1)
            for j in range(groups):
                # cols @ gt.T, transposed afterwards: with the long (images * positions)
                # dim inner and the wider operand first, multi-threaded OpenBLAS runs this
                # product 3x (idle cores) to 30x (busy ones) faster than gt @ cols.T
                np.dot(cols[j * cgk:(j + 1) * cgk], gt[j * og:(j + 1) * og].T, out=part)
                acc[j] += part
    out[...] = acc.transpose(0, 2, 1).reshape(out.shape)
