"""Constant padding: crop (negative pads) and pad with a value, in one ``constant_pad`` kernel.

:func:`gtensor.pad` (in :mod:`.copies`) adds the ``reflect`` and ``replicate``
modes (index selects) on top of :func:`constant_pad`; gradients of gathers use
:func:`pad_to` to grow back to their source's shape, so this module sits below
:mod:`gtensor.ops.indexing` and :mod:`.copies` above it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import check
from ...graph.grad_mode import no_grad
from ...graph.node import Node, record
from ...tensor_base import TensorBase
from ..creation import creation_args, kernel_scalar
from ..dispatch import bits_native, launch
from ..tracing import library_call

if TYPE_CHECKING:
    from ...tensor import Tensor


def constant_pad(input: Tensor, pad: Sequence[int], value: float = 0.0) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims with ``value``; negative pads crop.

    ``pad`` lists (left, right) pairs, last dim first (PyTorch's ``F.pad``
    order). Differentiable: the gradient is cropped back (and padded where
    the input was cropped).

    Example:
        >>> constant_pad(gt.tensor([1, 2]), (1, -1)).tolist()
        [0, 1]
    """
    pads = [int(p) for p in pad]
    pairs = pad_pairs(input, pads)
    with no_grad():
        out = _constant_pad(input, pairs, value)
    record("constant_pad", out, (input,), _constant_pad_vjp, pads=[-p for p in pads])
    return out


def pad_pairs(input: Tensor, pads: list[int]) -> dict[int, tuple[int, int]]:
    """Check ``pads`` (pairs, last dim first) against ``input``; return ``{dim: (left, right)}``."""
    check(len(pads) % 2 == 0 and len(pads) // 2 <= input.ndim, "pad", lambda: "pad must hold "
          f"(left, right) pairs for at most {input.ndim} dims, got {tuple(pads)}", ValueError)
    return {input.ndim - 1 - i: (pads[2 * i], pads[2 * i + 1]) for i in range(len(pads) // 2)}


def _constant_pad(input: Tensor, pairs: dict[int, tuple[int, int]], value: float) -> Tensor:
    """Crop (negative pads) and pad with ``value`` in one kernel pass; no recording."""
    src = input
    for d, (lo, hi) in pairs.items():
        n = src.shape[d]
        start, stop = max(-lo, 0), n - max(-hi, 0)
        check(start <= stop, "pad", lambda: f"negative padding crops dim {d} below zero",
              ValueError)
        src = src.narrow(d, start, stop - start)
    lows = tuple(max(pairs.get(d, (0, 0))[0], 0) for d in range(src.ndim))
    shape = tuple(n + lo + max(pairs.get(d, (0, 0))[1], 0)
                  for d, (n, lo) in enumerate(zip(src.shape, lows, strict=True)))
    dims, dt, _ = creation_args(shape, input.dtype, input.device, "full")
    return library_call("constant_pad", functools.partial(_pad_run, dims, lows, value), (src,),
                        dims, dt)


def _pad_run(shape: tuple[int, ...], lows: tuple[int, ...], value: float, src: Tensor) -> Tensor:
    out = TensorBase.empty(shape, src.dtype, src.device)
    if out.numel():
        # a half type's bits are moved, the padding value's too
        launch("constant_pad", src.device, (src.dtype,), bits_native(src), bits_native(out),
               lows, kernel_scalar(value, src.dtype))
    return out


def _constant_pad_vjp(ctx: Node, g: Tensor) -> Tensor:
    return constant_pad(g, ctx.pads)


def pad_to(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Zero-pad ``t`` at the end of each dim up to ``shape`` (differentiable)."""
    if t.shape == shape:
        return t
    pads: list[int] = []
    for n, m in zip(reversed(t.shape), reversed(shape), strict=True):
        pads += [0, m - n]
    return constant_pad(t, pads)
