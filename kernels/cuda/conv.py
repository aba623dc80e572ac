"""CUDA convolution kernels: ``conv2d``, ``conv_transpose2d`` and ``conv2d_weight``.

Calling conventions match ``kernels.cpu.conv``. On a real GPU with the cuDNN
frontend each op first asks cuDNN (``cudnn_conv``: fprop, dgrad, wgrad); where
cuDNN does not run, and always on the simulator, each op is im2col (or its
gathering transpose, col2im) as a grid-stride Numba kernel over the math of
``common/window_math.py``, plus one batched matmul: cuBLAS through CuPy on a
real GPU (the arrays are wrapped zero-copy and CuPy runs on the caller's
stream), the tiled Numba matmul kernel on the simulator. ``conv2d_weight``
lays its columns out as ``(C*KH*KW, N, L)`` so that the whole batch folds into
a single GEMM per group.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda

from ..common import window_math
from ..common.dtype_groups import FLOAT, same
from ..registry import register
from . import cudnn_conv
from ._launch import SIMULATED, on, stream_pointer
from .copy import gtensor_copy_cuda
from .matmul import gtensor_matmul_cuda

_dev = window_math.build(cuda.jit(device=True))
_im2col_at = _dev.im2col_at
_col2im_at = _dev.col2im_at

Pair = tuple[int, int]


@cuda.jit
def gtensor_im2col(x, cols, kh, kw, sh, sw, ph, pw, dh, dw, ow_n, rows_first):  # noqa: ANN001
    i = cuda.grid(1)
    while i < cols.size:
        _im2col_at(i, x, cols, kh, kw, sh, sw, ph, pw, dh, dw, ow_n, rows_first)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_col2im(cols, out, kh, kw, sh, sw, ph, pw, dh, dw, oh_n, ow_n):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _col2im_at(i, cols, out, kh, kw, sh, sw, ph, pw, dh, dw, oh_n, ow_n)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_conv_bias(out, bias):  # noqa: ANN001
    i = cuda.grid(1)
    plane = out.shape[2] * out.shape[3]
    while i < out.size:
        t = i // plane
        c = t % out.shape[1]
        out[t // out.shape[1], c, (i % plane) // out.shape[3], i % out.shape[3]] += bias[c]
        i += cuda.gridsize(1)


@contextlib.contextmanager
def _on_stream(stream: Any) -> Iterator[Any]:
    """Yield the array module (NumPy on the simulator, CuPy on ``stream`` on a GPU)."""
    if SIMULATED:
        yield np
        return
    import cupy

    with cupy.cuda.ExternalStream(stream_pointer(stream)):
        yield cupy


def _bmm(xp: Any, a: Any, b: Any, out: Any, stream: Any) -> None:
    """``out = a @ b`` with ``a``/``b`` broadcast over ``out``'s batch dims."""
    if xp is not np:
        xp.matmul(a, b, out=out)
        return
    batch = out.shape[:-2]
    gtensor_matmul_cuda(np.broadcast_to(a, batch + a.shape[-2:]),
                        np.broadcast_to(b, batch + b.shape[-2:]), out, stream=stream)


def _add_bias(out: Any, bias: Any, stream: Any) -> None:
    if bias is not None and out.size:
        on(gtensor_conv_bias, out.size, stream)(out, bias)


@register("conv2d", "cuda", same(FLOAT, 2))
def conv2d(x: Any, w: Any, bias: Any, out: Any, stride: Pair, padding: Pair, dilation: Pair,
           groups: int, stream: Any = None) -> None:
    """Write the cross-correlation of ``x`` with ``w`` (plus ``bias``) into ``out``.

    Example:
        >>> out = np.empty((1, 2, 3, 3), np.float32)  # device arrays on a GPU (cuDNN)
        >>> conv2d(np.ones((1, 1, 3, 3), np.float32), np.ones((2, 1, 3, 3), np.float32), None,
        ...        out, (1, 1), (1, 1), (1, 1), 1)  # doctest: +SKIP
        >>> out[0, 0].tolist()  # doctest: +SKIP
        [[4.0, 6.0, 4.0], [6.0, 9.0, 6.0], [4.0, 6.0, 4.0]]
    """
    if out.size == 0:
        return
    if cudnn_conv.fprop(x, w, bias, out, stride, padding, dilation, stream):
        return
    if bias is not None and cudnn_conv.fprop(x, w, None, out, stride, padding, dilation, stream):
        _add_bias(out, bias, stream)  # no fused conv + bias graph for this signature
        return
    n_img = x.shape[0]
    o, cg, kh, kw = w.shape
    oh_n, ow_n = out.shape[2:]
    cgk, n_l = cg * kh * kw, oh_n * ow_n
    with _on_stream(stream) as xp:
        x, w, out = xp.asarray(x), xp.asarray(w), xp.asarray(out)
        if x.size == 0 or cgk == 0:
            out[...] = 0
        else:
            cols = xp.empty((n_img, x.shape[1] * kh * kw, n_l), x.dtype)
            on(gtensor_im2col, cols.size, stream)(x, cols, kh, kw, *stride, *padding,
                                                   *dilation, ow_n, False)
            _bmm(xp, w.reshape(groups, o // groups, cgk), cols.reshape(n_img, groups, cgk, n_l),
                 out.reshape(n_img, groups, o // groups, n_l), stream)
        _add_bias(out, None if bias is None else xp.asarray(bias), stream)


@register("conv_transpose2d", "cuda", same(FLOAT, 2))
def conv_transpose2d(x: Any, w: Any, bias: Any, out: Any, stride: Pair, padding: Pair,
                     dilation: Pair, groups: int, stream: Any = None) -> None:
    """Write the transposed convolution of ``x`` with ``w`` (plus ``bias``) into ``out``.

    Example:
        >>> out = np.empty((1, 1, 3, 3))
        >>> conv_transpose2d(np.ones((1, 1, 2, 2)), np.ones((1, 1, 2, 2)), None, out,
        ...                  (1, 1), (0, 0), (1, 1), 1)  # doctest: +SKIP
        >>> out[0, 0].tolist()  # doctest: +SKIP
        [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    if out.size == 0:
        return
    if cudnn_conv.dgrad(x, w, out, stride, padding, dilation, stream):
        _add_bias(out, bias, stream)
        return
    n_img, c_in, h, wd = x.shape
    coutg, kh, kw = w.shape[1:]
    cing, ck = c_in // groups, coutg * kh * kw
    with _on_stream(stream) as xp:
        x, w, out = xp.asarray(x), xp.asarray(w), xp.asarray(out)
        if x.size == 0 or cing == 0:
            out[...] = 0
        else:
            cols = xp.empty((n_img, groups, ck, h * wd), x.dtype)
            _bmm(xp, w.reshape(groups, cing, ck).transpose(0, 2, 1),
                 x.reshape(n_img, groups, cing, h * wd), cols, stream)
            on(gtensor_col2im, out.size, stream)(cols.reshape(n_img, groups * ck, h * wd), out,
                                                  kh, kw, *stride, *padding, *dilation, h, wd)
        _add_bias(out, None if bias is None else xp.asarray(bias), stream)


@register("conv2d_weight", "cuda", same(FLOAT, 2))
def conv2d_weight(x: Any, g: Any, out: Any, stride: Pair, padding: Pair, dilation: Pair,
                  groups: int, stream: Any = None) -> None:
    """Write the gradient of ``conv2d``'s weight for input ``x`` and output gradient ``g``.

    Example:
        >>> out = np.empty((1, 1, 1, 1))
        >>> conv2d_weight(np.ones((1, 1, 2, 2)), np.ones((1, 1, 2, 2)), out,
        ...               (1, 1), (0, 0), (1, 1), 1)  # doctest: +SKIP
        >>> out.item()  # doctest: +SKIP
        4.0
    """
    if out.size == 0 or cudnn_conv.wgrad(x, g, out, stride, padding, dilation, stream):
        return
    o, cg, kh, kw = out.shape
    n_img, c_in = x.shape[:2]
    og, cgk = o // groups, cg * kh * kw
    oh_n, ow_n = g.shape[2:]
    n_l = n_img * oh_n * ow_n
    with _on_stream(stream) as xp:
        x, g, out = xp.asarray(x), xp.asarray(g), xp.asarray(out)
        if n_l == 0 or x.size == 0:
            out[...] = 0
            return
        cols = xp.empty((c_in * kh * kw, n_img, oh_n * ow_n), x.dtype)
        on(gtensor_im2col, cols.size, stream)(x, cols, kh, kw, *stride, *padding, *dilation,
                                               ow_n, True)
        grads = xp.empty((groups, og, n_img, oh_n * ow_n), g.dtype)
        gtensor_copy_cuda(g.reshape(n_img, groups, og, oh_n * ow_n).transpose(1, 2, 0, 3), grads,
                          stream=stream)
        _bmm(xp, grads.reshape(groups, og, n_l), cols.reshape(groups, cgk, n_l).transpose(0, 2, 1),
             out.reshape(groups, og, cgk), stream)
