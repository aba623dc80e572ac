"""``pad`` in ``constant``, ``reflect`` and ``replicate`` modes (PyTorch's ``F.pad`` order)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..autograd.grad_mode import no_grad
from ..autograd.node import Node, record
from ..dtypes import int64
from ..errors import check
from ..tensor import Tensor


def _pad_index(n: int, left: int, right: int, mode: str, dev: Any) -> Tensor:
    from .creation import tensor

    check(n > 0, "pad", lambda: f"{mode} padding needs a non-empty dim", ValueError)
    if mode == "reflect":
        check(left < n and right < n, "pad", lambda: f"reflect padding ({left}, {right}) must "
              f"be smaller than the dim size {n}", ValueError)
    idx = np.pad(np.arange(n), (left, right), mode="reflect" if mode == "reflect" else "edge")
    return tensor(idx, dtype=int64, device=dev)


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float = 0.0
        ) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims; ``pad`` lists (left, right) pairs, last dim first.

    Args:
        input: the tensor.
        pad: even-length ints; negative values crop in ``constant`` mode.
        mode: ``constant``, ``reflect`` or ``replicate``.
        value: the fill value of ``constant`` mode.

    Differentiable in every mode: ``constant`` crops the gradient back (pads
    it where the input was cropped); ``reflect``/``replicate`` are index
    selects whose gradients add up at the reused positions.

    Example:
        >>> pad(gt.tensor([1, 2, 3]), (1, 2), mode="reflect").tolist()
        [2, 1, 2, 3, 2, 1]
    """
    from .index_ops import index_select

    pads = [int(p) for p in pad]
    check(len(pads) % 2 == 0 and len(pads) // 2 <= input.ndim, "pad", lambda: "pad must hold "
          f"(left, right) pairs for at most {input.ndim} dims, got {tuple(pads)}", ValueError)
    check(mode in ("constant", "reflect", "replicate"), "pad", lambda: "mode must be "
          f"'constant', 'reflect' or 'replicate', got {mode!r}", ValueError)
    pairs = {input.ndim - 1 - i: (pads[2 * i], pads[2 * i + 1]) for i in range(len(pads) // 2)}
    if mode != "constant":
        check(all(v >= 0 for v in pads), "pad", f"{mode} padding must be non-negative",
              ValueError)
        out = input
        for d, (lo, hi) in sorted(pairs.items()):
            if lo or hi:
                out = index_select(out, d, _pad_index(out.shape[d], lo, hi, mode, input.device))
        return out if out is not input else input.clone()  # type: ignore[attr-defined]
    with no_grad():
        out = _constant_pad(input, pairs, value)
    record("constant_pad", out, (input,), _constant_pad_vjp, pads=[-p for p in pads])
    return out


def _constant_pad(input: Tensor, pairs: dict[int, tuple[int, int]], value: float) -> Tensor:
    """Crop (negative pads) and pad with ``value``; no recording."""
    from .creation import full

    src = input
    for d, (lo, hi) in pairs.items():
        n = src.shape[d]
        start, stop = max(-lo, 0), n - max(-hi, 0)
        check(start <= stop, "pad", lambda: f"negative padding crops dim {d} below zero",
              ValueError)
        src = src.narrow(d, start, stop - start)  # type: ignore[attr-defined]
    shape = tuple(n + max(pairs.get(d, (0, 0))[0], 0) + max(pairs.get(d, (0, 0))[1], 0)
                  for d, n in enumerate(src.shape))
    out = full(shape, value, dtype=input.dtype, device=input.device)
    inner = out
    for d, (lo, _) in pairs.items():
        inner = inner.narrow(d, max(lo, 0), src.shape[d])  # type: ignore[attr-defined]
    if src.numel():
        inner.copy_(src)  # type: ignore[attr-defined]
    return out


def _constant_pad_vjp(ctx: Node, g: Tensor) -> Tensor:
    return pad(g, ctx.pads)
