"""NumPy references for the convolution, pooling and resampling tests (plain loops, float64)."""

from __future__ import annotations

import math

import numpy as np


def conv2d_ref(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple[int, int],
               pad: tuple[int, int, int, int], dilation: tuple[int, int],
               groups: int) -> np.ndarray:
    """Cross-correlation; ``pad`` is (top, bottom, left, right)."""
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pad[:2], pad[2:]))
    n, c, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    sh, sw = stride
    dh, dw = dilation
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for ki in range(kh):
            for kj in range(kw):
                patch = xs[:, :, ki * dh:ki * dh + sh * (oh - 1) + 1:sh,
                           kj * dw:kj * dw + sw * (ow - 1) + 1:sw]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, ki, kj])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def conv_transpose2d_ref(x: np.ndarray, w: np.ndarray, b: np.ndarray | None,
                         stride: tuple[int, int], padding: tuple[int, int],
                         output_padding: tuple[int, int], dilation: tuple[int, int],
                         groups: int) -> np.ndarray:
    """Scatter each input pixel times the kernel into a full canvas, then crop the padding."""
    n, c_in, h, wd = x.shape
    _, cog, kh, kw = w.shape
    sh, sw = stride
    dh, dw = dilation
    full_h = (h - 1) * sh + dh * (kh - 1) + 1 + output_padding[0]
    full_w = (wd - 1) * sw + dw * (kw - 1) + 1 + output_padding[1]
    canvas = np.zeros((n, cog * groups, full_h, full_w))
    cig = c_in // groups
    for ci in range(c_in):
        g = ci // cig
        for i in range(h):
            for j in range(wd):
                for ki in range(kh):
                    for kj in range(kw):
                        canvas[:, g * cog:(g + 1) * cog, i * sh + ki * dh, j * sw + kj * dw] += (
                            x[:, ci, i, j, None] * w[ci, :, ki, kj][None])
    out = canvas[:, :, padding[0]:full_h - padding[0], padding[1]:full_w - padding[1]]
    if b is not None:
        out = out + b.reshape(1, -1, 1, 1)
    return out


def pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooled output size."""
    num = size + 2 * p - d * (k - 1) - 1
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def max_pool_ref(x: np.ndarray, k: int, s: int, p: int, d: int,
                 ceil_mode: bool) -> tuple[np.ndarray, np.ndarray]:
    """Window maxima and flat argmax positions (first maximum wins)."""
    n, c, h, w = x.shape
    oh, ow = pool_out(h, k, s, p, d, ceil_mode), pool_out(w, k, s, p, d, ceil_mode)
    out = np.empty((n, c, oh, ow))
    idx = np.empty((n, c, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            rows = [r for r in range(i * s - p, i * s - p + d * (k - 1) + 1, d) if 0 <= r < h]
            cols = [q for q in range(j * s - p, j * s - p + d * (k - 1) + 1, d) if 0 <= q < w]
            flat = np.array([r * w + q for r in rows for q in cols])
            vals = x[:, :, rows][:, :, :, cols].reshape(n, c, -1)
            arg = vals.argmax(axis=2)
            out[:, :, i, j] = vals.max(axis=2)
            idx[:, :, i, j] = flat[arg]
    return out, idx


def avg_pool_ref(x: np.ndarray, k: int, s: int, p: int, ceil_mode: bool, include_pad: bool,
                 divisor: int | None) -> np.ndarray:
    """Window means with PyTorch's divisor rule."""
    n, c, h, w = x.shape
    oh, ow = pool_out(h, k, s, p, 1, ceil_mode), pool_out(w, k, s, p, 1, ceil_mode)
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * s - p, j * s - p
            h1, w1 = min(h0 + k, h + p), min(w0 + k, w + p)
            size = (h1 - h0) * (w1 - w0)
            h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            total = x[:, :, h0:h1, w0:w1].sum(axis=(2, 3))
            div = divisor or (size if include_pad else (h1 - h0) * (w1 - w0))
            out[:, :, i, j] = total / div
    return out


def adaptive_avg_ref(x: np.ndarray, oh: int, ow: int) -> np.ndarray:
    """Means over bins ``[floor(i*H/OH), ceil((i+1)*H/OH))``."""
    n, c, h, w = x.shape
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            hs, he = (i * h) // oh, math.ceil((i + 1) * h / oh)
            ws, we = (j * w) // ow, math.ceil((j + 1) * w / ow)
            out[:, :, i, j] = x[:, :, hs:he, ws:we].mean(axis=(2, 3))
    return out


def resample_matrix(n_in: int, n_out: int, mode: str, align: bool,
                    factor: float | None) -> np.ndarray:
    """``(n_out, n_in)`` matrix of one axis of PyTorch's nearest / bilinear interpolation."""
    a = np.zeros((n_out, n_in))
    for o in range(n_out):
        if mode == "nearest":
            scale = np.float32(1.0 / factor if factor else n_in / n_out)
            src = o if n_out == n_in else min(int(np.floor(np.float32(o) * scale)), n_in - 1)
            a[o, src] = 1.0
            continue
        if align:
            src = o * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
        else:
            src = max(((1.0 / factor) if factor else n_in / n_out) * (o + 0.5) - 0.5, 0.0)
        i0 = min(int(src), n_in - 1)
        i1 = min(i0 + 1, n_in - 1)
        lam = src - i0
        a[o, i0] += 1 - lam
        a[o, i1] += lam
    return a
