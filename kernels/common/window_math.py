"""Per-element math of the convolution, pooling and resampling kernels, compiled per target.

Each ``*_at(i, ...)`` function computes element ``i`` (C order) of its output
array, reading 4-D ``(N, C, H, W)`` inputs. Every op has a forward function and
a transpose (the adjoint linear map, used for gradients) written as a *gather*:
an input position sums the outputs whose windows cover it, so a CUDA thread per
element needs no atomics and results are deterministic. :func:`build` compiles
the functions with ``numba.njit`` or ``numba.cuda.jit(device=True)``, binding
their calls to each other, as ``common/search_math.py`` does.

Geometry arguments: kernel ``kh, kw``, stride ``sh, sw``, top/left padding
``ph, pw`` (the bottom/right padding is implied by the output size) and
dilation ``dh, dw``.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable

from numpy import float32 as float32_type

from .jit_build import build_functions


def unravel4(i, shape):  # noqa: ANN001, ANN201
    """Return the 4-D C-order coordinates ``(n, c, h, w)`` of flat index ``i`` in ``shape``.

    Example:
        >>> unravel4(7, (2, 2, 2, 2))
        (0, 1, 1, 1)
    """
    w = i % shape[3]
    t = i // shape[3]
    h = t % shape[2]
    t //= shape[2]
    return t // shape[1], t % shape[1], h, w


def im2col_at(i, x, cols, kh, kw, sh, sw, ph, pw, dh, dw, ow_n, rows_first):  # noqa: ANN001, ANN201
    """Write ``cols[n, (c*kh + ki)*kw + kj, oh*ow_n + ow]``: the input under that tap, 0 in padding.

    With ``rows_first`` the layout is ``cols[row, n, pos]`` instead.

    Example:
        >>> import numpy as np
        >>> x = np.arange(4.0).reshape(1, 1, 2, 2); cols = np.zeros((1, 1, 4))
        >>> for i in range(4): im2col_at(i, x, cols, 1, 1, 1, 1, 0, 0, 1, 1, 2, False)
        >>> cols.ravel().tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    n_l = cols.shape[2]
    pos = i % n_l
    t = i // n_l
    if rows_first:
        n = t % x.shape[0]
        r = t // x.shape[0]
    else:
        r = t % cols.shape[1]
        n = t // cols.shape[1]
    kj = r % kw
    t = r // kw
    ki = t % kh
    c = t // kh
    h = (pos // ow_n) * sh - ph + ki * dh
    w = (pos % ow_n) * sw - pw + kj * dw
    v = x[n, c, h, w] if 0 <= h < x.shape[2] and 0 <= w < x.shape[3] else 0
    if rows_first:
        cols[r, n, pos] = v
    else:
        cols[n, r, pos] = v


def col2im_at(i, cols, out, kh, kw, sh, sw, ph, pw, dh, dw, oh_n, ow_n):  # noqa: ANN001, ANN201
    """Write ``out[n, c, h, w]``: the sum of the ``cols`` entries :func:`im2col_at` reads there.

    Example:
        >>> import numpy as np
        >>> cols = np.ones((1, 4, 1)); out = np.zeros((1, 1, 2, 2))
        >>> for i in range(4): col2im_at(i, cols, out, 2, 2, 1, 1, 0, 0, 1, 1, 1, 1)
        >>> out.ravel().tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    n, c, h, w = unravel4(i, out.shape)
    acc = 0.0
    for ki in range(kh):
        th = h + ph - ki * dh
        if th < 0 or th % sh != 0 or th // sh >= oh_n:
            continue
        for kj in range(kw):
            tw = w + pw - kj * dw
            if tw < 0 or tw % sw != 0 or tw // sw >= ow_n:
                continue
            acc += cols[n, (c * kh + ki) * kw + kj, (th // sh) * ow_n + tw // sw]
    out[n, c, h, w] = acc


def max_pool_at(i, x, out, idx, kh, kw, sh, sw, ph, pw, dh, dw):  # noqa: ANN001, ANN201
    """Write the window maximum to ``out`` and its flat ``h*W + w`` position to ``idx``.

    NaN wins (as in PyTorch); ties keep the first position in row-major order.

    Example:
        >>> import numpy as np
        >>> x = np.array([[[[1.0, 3.0], [2.0, 0.0]]]]); out = np.zeros((1, 1, 1, 1))
        >>> idx = np.zeros((1, 1, 1, 1), np.int64)
        >>> max_pool_at(0, x, out, idx, 2, 2, 2, 2, 0, 0, 1, 1); idx.item()
        1
    """
    n, c, oh, ow = unravel4(i, out.shape)
    best = x[n, c, 0, 0]
    where = -1
    for ki in range(kh):
        h = oh * sh - ph + ki * dh
        if h < 0 or h >= x.shape[2]:
            continue
        for kj in range(kw):
            w = ow * sw - pw + kj * dw
            if w < 0 or w >= x.shape[3]:
                continue
            v = x[n, c, h, w]
            if where < 0 or v > best or v != v:
                best = v
                where = h * x.shape[3] + w
    out[n, c, oh, ow] = best
    idx[n, c, oh, ow] = where


def max_pool_grad_at(i, g, idx, gx, kh, kw, sh, sw, ph, pw, dh, dw):  # noqa: ANN001, ANN201
    """Write ``gx[n, c, h, w]`` = the sum of ``g`` over the windows whose maximum sat at ``(h, w)``.

    Example:
        >>> import numpy as np
        >>> g = np.ones((1, 1, 1, 1)); idx = np.array([[[[1]]]]); gx = np.zeros((1, 1, 1, 2))
        >>> for i in range(2): max_pool_grad_at(i, g, idx, gx, 1, 2, 1, 2, 0, 0, 1, 1)
        >>> gx.ravel().tolist()
        [0.0, 1.0]
    """
    n, c, h, w = unravel4(i, gx.shape)
    target = h * gx.shape[3] + w
    acc = 0.0
    for ki in range(kh):
        th = h + ph - ki * dh
        if th < 0 or th % sh != 0 or th // sh >= g.shape[2]:
            continue
        for kj in range(kw):
            tw = w + pw - kj * dw
            if tw < 0 or tw % sw != 0 or tw // sw >= g.shape[3]:
                continue
            if idx[n, c, th // sh, tw // sw] == target:
                acc += g[n, c, th // sh, tw // sw]
    gx[n, c, h, w] = acc


def plane_gather_at(i, x, idx, out):  # noqa: ANN001, ANN201
    """Write ``out[n, c, oh, ow] = x[n, c].flat[idx[n, c, oh, ow]]``.

    Example:
        >>> import numpy as np
        >>> x = np.array([[[[5.0, 7.0]]]]); out = np.zeros((1, 1, 1, 1))
        >>> plane_gather_at(0, x, np.array([[[[1]]]]), out); out.item()
        7.0
    """
    n, c, oh, ow = unravel4(i, out.shape)
    j = idx[n, c, oh, ow]
    out[n, c, oh, ow] = x[n, c, j // x.shape[3], j % x.shape[3]]


def avg_divisor(oh, ow, h_in, w_in, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001, ANN201
    """Return the divisor of average-pool window ``(oh, ow)`` (PyTorch's rule).

    Example:
        >>> avg_divisor(0, 0, 4, 4, 3, 3, 1, 1, 1, 1, False, 0)
        4
    """
    if divisor > 0:
        return divisor
    hs = oh * sh - ph
    ws = ow * sw - pw
    he = min(hs + kh, h_in + ph)
    we = min(ws + kw, w_in + pw)
    if include_pad:
        return (he - hs) * (we - ws)
    return (min(he, h_in) - max(hs, 0)) * (min(we, w_in) - max(ws, 0))


def avg_pool_at(i, x, out, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001, ANN201
    """Write the mean of window ``(oh, ow)`` (sum over its in-bounds part / :func:`avg_divisor`).

    Example:
        >>> import numpy as np
        >>> x = np.arange(4.0).reshape(1, 1, 2, 2); out = np.zeros((1, 1, 1, 1))
        >>> avg_pool_at(0, x, out, 2, 2, 2, 2, 0, 0, True, 0); out.item()
        1.5
    """
    n, c, oh, ow = unravel4(i, out.shape)
    acc = 0.0
    for h in range(max(oh * sh - ph, 0), min(oh * sh - ph + kh, x.shape[2])):
        for w in range(max(ow * sw - pw, 0), min(ow * sw - pw + kw, x.shape[3])):
            acc += x[n, c, h, w]
    out[n, c, oh, ow] = acc / avg_divisor(oh, ow, x.shape[2], x.shape[3], kh, kw, sh, sw, ph,
                                          pw, include_pad, divisor)


def avg_pool_grad_at(i, g, gx, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001, ANN201
    """Write ``gx[n, c, h, w]`` = the sum of ``g / divisor`` over the windows covering ``(h, w)``.

    Example:
        >>> import numpy as np
        >>> g = np.ones((1, 1, 1, 1)); gx = np.zeros((1, 1, 2, 2))
        >>> for i in range(4): avg_pool_grad_at(i, g, gx, 2, 2, 2, 2, 0, 0, True, 0)
        >>> gx.ravel().tolist()
        [0.25, 0.25, 0.25, 0.25]
    """
    n, c, h, w = unravel4(i, gx.shape)
    acc = 0.0
    for ki in range(kh):
        th = h + ph - ki
        if th < 0 or th % sh != 0 or th // sh >= g.shape[2]:
            continue
        for kj in range(kw):
            tw = w + pw - kj
            if tw < 0 or tw % sw != 0 or tw // sw >= g.shape[3]:
                continue
            d = avg_divisor(th // sh, tw // sw, gx.shape[2], gx.shape[3], kh, kw, sh, sw, ph, pw,
                            include_pad, divisor)
            acc += g[n, c, th // sh, tw // sw] / d
    gx[n, c, h, w] = acc


def adaptive_start(o, n_in, n_out):  # noqa: ANN001, ANN201
    """First input index of adaptive bin ``o``: ``floor(o * n_in / n_out)``.

    Example:
        >>> adaptive_start(1, 5, 3), adaptive_end(1, 5, 3)
        (1, 4)
    """
    return (o * n_in) // n_out


def adaptive_end(o, n_in, n_out):  # noqa: ANN001, ANN201
    """One past the last input index of adaptive bin ``o``: ``ceil((o + 1) * n_in / n_out)``."""
    return ((o + 1) * n_in + n_out - 1) // n_out


def adaptive_avg_at(i, x, out):  # noqa: ANN001, ANN201
    """Write the mean of adaptive bin ``(oh, ow)`` of ``x`` to ``out``.

    Example:
        >>> import numpy as np
        >>> x = np.arange(4.0).reshape(1, 1, 2, 2); out = np.zeros((1, 1, 1, 1))
        >>> adaptive_avg_at(0, x, out); out.item()
        1.5
    """
    n, c, oh, ow = unravel4(i, out.shape)
    h0 = adaptive_start(oh, x.shape[2], out.shape[2])
    h1 = adaptive_end(oh, x.shape[2], out.shape[2])
    w0 = adaptive_start(ow, x.shape[3], out.shape[3])
    w1 = adaptive_end(ow, x.shape[3], out.shape[3])
    acc = 0.0
    for h in range(h0, h1):
        for w in range(w0, w1):
            acc += x[n, c, h, w]
    out[n, c, oh, ow] = acc / ((h1 - h0) * (w1 - w0))


def adaptive_avg_grad_at(i, g, gx):  # noqa: ANN001, ANN201
    """Write ``gx[n, c, h, w]`` = the sum of ``g / bin area`` over the bins containing ``(h, w)``.

    Example:
        >>> import numpy as np
        >>> g = np.ones((1, 1, 1, 1)); gx = np.zeros((1, 1, 1, 2))
        >>> for i in range(2): adaptive_avg_grad_at(i, g, gx)
        >>> gx.ravel().tolist()
        [0.5, 0.5]
    """
    n, c, h, w = unravel4(i, gx.shape)
    hi, wi, ho, wo = gx.shape[2], gx.shape[3], g.shape[2], g.shape[3]
    acc = 0.0
    for oh in range(max((h * ho) // hi - 1, 0), min(((h + 1) * ho) // hi + 2, ho)):
        h0 = adaptive_start(oh, hi, ho)
        h1 = adaptive_end(oh, hi, ho)
        if h < h0 or h >= h1:
            continue
        for ow in range(max((w * wo) // wi - 1, 0), min(((w + 1) * wo) // wi + 2, wo)):
            w0 = adaptive_start(ow, wi, wo)
            w1 = adaptive_end(ow, wi, wo)
            if w0 <= w < w1:
                acc += g[n, c, oh, ow] / ((h1 - h0) * (w1 - w0))
    gx[n, c, h, w] = acc


def source_index(o, scale, n_in, n_out, bilinear, align):  # noqa: ANN001, ANN201
    """Return ``(i0, i1, lam)``: output ``o`` reads ``(1 - lam) * in[i0] + lam * in[i1]``.

    ``scale`` is PyTorch's per-axis source step: ``(n_in - 1) / (n_out - 1)``
    with ``align`` corners, else ``1 / scale_factor`` or ``n_in / n_out``.
    Nearest follows PyTorch's CPU rule (exact for equal and doubled sizes,
    float32 ``floor(o * scale)`` otherwise).

    Example:
        >>> source_index(1, 0.5, 2, 4, True, False)
        (0, 1, 0.25)
    """
    if not bilinear:
        if n_out == n_in:
            return o, o, 0.0
        if n_out == 2 * n_in:
            return o // 2, o // 2, 0.0
        s = int(math.floor(float(float32_round(float32_round(o) * float32_round(scale)))))
        s = min(s, n_in - 1)
        return s, s, 0.0
    if align:
        src = scale * o
    else:
        src = scale * (o + 0.5) - 0.5
        if src < 0.0:
            src = 0.0
    i0 = min(int(src), n_in - 1)
    i1 = i0 + 1 if i0 < n_in - 1 else i0
    return i0, i1, src - i0


def float32_round(v):  # noqa: ANN001, ANN201
    """Round a float to the nearest float32 value (as PyTorch's float math does).

    Example:
        >>> float32_round(0.1) == 0.1
        False
    """
    return float(float32_type(v))


def source_range(j, scale, n_in, n_out):  # noqa: ANN001, ANN201
    """Return a range ``[lo, hi)`` of outputs that contains every output reading input ``j``.

    Example:
        >>> lo, hi = source_range(1, 0.5, 2, 4); lo <= 1 and hi == 4
        True
    """
    if scale <= 0.0 or j == n_in - 1:
        hi = n_out
    else:
        hi = min(int((j + 2) / scale) + 3, n_out)
    lo = 0 if scale <= 0.0 else max(int(math.floor((j - 2) / scale)) - 2, 0)
    return lo, hi


def resample_at(i, x, out, scale_h, scale_w, bilinear, align):  # noqa: ANN001, ANN201
    """Write ``out[n, c, oh, ow]``, bilinear or nearest from ``x`` (see :func:`source_index`).

    Example:
        >>> import numpy as np
        >>> x = np.array([[[[0.0, 2.0]]]]); out = np.zeros((1, 1, 1, 3))
        >>> for i in range(3): resample_at(i, x, out, 1.0, 0.5, True, True)
        >>> out.ravel().tolist()
        [0.0, 1.0, 2.0]
    """
    n, c, oh, ow = unravel4(i, out.shape)
    h0, h1, lh = source_index(oh, scale_h, x.shape[2], out.shape[2], bilinear, align)
    w0, w1, lw = source_index(ow, scale_w, x.shape[3], out.shape[3], bilinear, align)
    top = (1.0 - lw) * x[n, c, h0, w0] + lw * x[n, c, h0, w1]
    bottom = (1.0 - lw) * x[n, c, h1, w0] + lw * x[n, c, h1, w1]
    out[n, c, oh, ow] = (1.0 - lh) * top + lh * bottom


def tap_weight(j, o, scale, n_in, n_out, bilinear, align):  # noqa: ANN001, ANN201
    """Weight of input ``j`` in output ``o`` along one axis (0 when it is not read).

    Example:
        >>> tap_weight(0, 1, 0.5, 2, 4, True, False)
        0.75
    """
    i0, i1, lam = source_index(o, scale, n_in, n_out, bilinear, align)
    wgt = 0.0
    if i0 == j:
        wgt += 1.0 - lam
    if i1 == j:
        wgt += lam
    return wgt


def resample_grad_at(i, g, gx, scale_h, scale_w, bilinear, align):  # noqa: ANN001, ANN201
    """Write ``gx[n, c, h, w]`` = the sum of ``g`` weighted by how much each output read ``(h, w)``.

    Example:
        >>> import numpy as np
        >>> g = np.ones((1, 1, 1, 3)); gx = np.zeros((1, 1, 1, 2))
        >>> for i in range(2): resample_grad_at(i, g, gx, 1.0, 0.5, True, True)
        >>> gx.ravel().tolist()
        [1.5, 1.5]
    """
    n, c, h, w = unravel4(i, gx.shape)
    hi, wi, ho, wo = gx.shape[2], gx.shape[3], g.shape[2], g.shape[3]
    hlo, hhi = source_range(h, scale_h, hi, ho)
    wlo, whi = source_range(w, scale_w, wi, wo)
    acc = 0.0
    for oh in range(hlo, hhi):
        a = tap_weight(h, oh, scale_h, hi, ho, bilinear, align)
        if a == 0.0:
            continue
        for ow in range(wlo, whi):
            b = tap_weight(w, ow, scale_w, wi, wo, bilinear, align)
            if b != 0.0:
                acc += a * b * g[n, c, oh, ow]
    gx[n, c, h, w] = acc


DEVICE_FUNCTIONS = (
    "unravel4", "im2col_at", "col2im_at", "max_pool_at", "max_pool_grad_at", "plane_gather_at",
    "avg_divisor", "avg_pool_at", "avg_pool_grad_at", "adaptive_start", "adaptive_end",
    "adaptive_avg_at", "adaptive_avg_grad_at", "float32_round", "source_index", "source_range",
    "resample_at", "tap_weight", "resample_grad_at",
)


def build(jit: Callable[[Callable], Callable]) -> types.SimpleNamespace:
    """Compile the functions in ``DEVICE_FUNCTIONS`` with ``jit``, bound to each other.

    Example:
        >>> import numba
        >>> build(numba.njit).adaptive_end(0, 5, 3)
        2
    """
    return build_functions(globals(), DEVICE_FUNCTIONS, jit)
