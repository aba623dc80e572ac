"""CUDA cumsum/cumprod and softmax/log_softmax along one axis.

Same calling convention and accumulation as the CPU (``kernels.cpu.axis_ops``):
``kernel(x, out, axis, stream=None)``. Each kernel also has ``plan(shape,
x_strides, out_strides, axis, dtype, out_dtype, stream)``, which chooses the
thread layout and the launches once per call signature (``softmax_rows`` and
``scan_rows`` describe them); calls through the kernel keep their plans as
the reductions do (``_launch.remembered``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..common.dtype_groups import ALL, COMPLEX, FLOAT, HALF
from ..common.operands import nothing
from ..common.scalar_rows import scan_start
from ..common.strided import axis_plan, element_strides
from ..registry import register
from ._launch import flat_operand, remembered, stream_pointer
from .axis_layout import _eoff, _line
from .scan_rows import plan_scan
from .softmax_rows import plan_softmax

__all__ = ["CudaAxisOp", "_eoff", "_line"]

class CudaAxisOp:
    """The CUDA kernel of one axis op: ``kernel(x, out, axis, stream=None)``."""

    def __init__(self, op: str, half: str | None = None) -> None:
        self.op = op
        self.half = half  # over float16/bfloat16 bits
        self.__name__ = f"gtensor_{op}_cuda"
        self.__doc__ = f"CUDA ``{op}`` kernel: ``kernel(x, out, axis, stream=None)``."
        self._plans: dict[Any, Callable[..., None]] = {}

    def __call__(self, x: Any, out: Any, axis: int, stream: Any = None) -> None:
        if out.size == 0:
            return
        sig = (tuple(x.shape), element_strides(x), element_strides(out), axis,
               np.dtype(x.dtype), np.dtype(out.dtype))
        run = remembered(self._plans, (*sig, stream_pointer(stream)), self.plan, *sig, stream)
        xb, xo, _ = flat_operand(x)
        ob, oo, _ = flat_operand(out)
        run(xb, xo, ob, oo)

    def plan(self, shape: tuple[int, ...], x_strides: tuple[int, ...],
             out_strides: tuple[int, ...], axis: int, dtype: np.dtype, out_dtype: np.dtype,
             stream: Any = None) -> Callable[..., None]:
        """Work out layout, kernels and launches once; return ``run(xb, xo, ob, oo)``.

        ``xb``/``ob`` are flat device buffers of ``dtype``/``out_dtype`` and
        ``xo``/``oo`` the element offsets of the first element; every launch
        goes to ``stream``.
        """
        if 0 in shape:
            return nothing
        kshape, kxs, kos, length, sx, so = axis_plan(shape, x_strides, out_strides, axis)
        if self.op in ("cumsum", "cumprod"):
            values = np.empty(0, np.float32 if self.half else dtype)  # half: float sums
            ident, is_prod = scan_start(values, self.op == "cumprod")
            return plan_scan(kshape, kxs, kos, length, sx, so, ident, is_prod, stream, self.half)
        return plan_softmax(kshape, kxs, kos, length, sx, so, dtype, self.op == "log_softmax",
                            stream, self.half)


register("cumsum", "cuda", (*ALL, *COMPLEX))(CudaAxisOp("cumsum"))
register("cumprod", "cuda", (*ALL, *COMPLEX))(CudaAxisOp("cumprod"))
register("softmax", "cuda", FLOAT)(CudaAxisOp("softmax"))
register("log_softmax", "cuda", FLOAT)(CudaAxisOp("log_softmax"))
for _half in HALF:
    register("cumsum", "cuda", [_half])(CudaAxisOp("cumsum", _half))
    register("cumprod", "cuda", [_half])(CudaAxisOp("cumprod", _half))
    register("softmax", "cuda", [_half])(CudaAxisOp("softmax", _half))
    register("log_softmax", "cuda", [_half])(CudaAxisOp("log_softmax", _half))
