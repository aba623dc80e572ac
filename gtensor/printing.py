"""``repr`` in PyTorch's form, summarised for large tensors.

Example: ``tensor([[1., 2.]], device='cuda:0', requires_grad=True)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .dtypes import bool_, default_complex_dtype, get_default_dtype, int64


@dataclass
class PrintOptions:
    """Printing knobs (PyTorch's defaults)."""

    precision: int = 4
    threshold: int = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_options = PrintOptions()


_PROFILES = {
    "default": PrintOptions(),
    "short": PrintOptions(precision=2, edgeitems=2),
    "full": PrintOptions(threshold=2**63 - 1),
}


def set_printoptions(precision: int | None = None, threshold: int | None = None,
                     edgeitems: int | None = None, linewidth: int | None = None,
                     profile: str | None = None, sci_mode: bool | None = None) -> None:
    """Change how tensors print (any argument left ``None`` keeps its value).

    Args:
        precision: digits after the decimal point.
        threshold: element count above which a tensor prints summarised.
        edgeitems: items shown at each end of a summarised dim.
        linewidth: characters per line.
        profile: ``"default"``, ``"short"`` or ``"full"`` (never summarised): all the
            options at once, before the others given apply.
        sci_mode: force scientific notation on (True) or off (False); None decides by the values.

    Example:
        >>> set_printoptions(precision=2)
        >>> gt.tensor([1.23456, 2.0])
        tensor([1.23, 2.00])
        >>> set_printoptions(profile="default")
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"[set_printoptions] unknown profile {profile!r}; expected one "
                             f"of {sorted(_PROFILES)}")
        chosen = _PROFILES[profile]
        for name in ("precision", "threshold", "edgeitems", "linewidth"):
            setattr(_options, name, getattr(chosen, name))
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(_options, name, value)
    _options.sci_mode = sci_mode


class _Formatter:
    def __init__(self, values: np.ndarray) -> None:
        self.kind = values.dtype.kind
        self.sci = False
        self.int_mode = True
        finite = values[np.isfinite(values)] if self.kind == "f" else values
        if self.kind == "f":
            finite = finite.astype(np.float64)
            nonzero = np.abs(finite[finite != 0])
            self.int_mode = bool(np.all(finite == np.ceil(finite)))
            if nonzero.size:
                hi, lo = float(nonzero.max()), float(nonzero.min())
                self.sci = hi / lo > 1000.0 or hi > 1e8 or lo < 1e-4
                if self.int_mode and hi <= 1e8:
                    self.sci = False
            if _options.sci_mode is not None:
                self.sci = _options.sci_mode
        # like PyTorch, only finite values set the column width
        self.width = max((len(self.format(v)) for v in finite.ravel()), default=1)

    def format(self, v: Any) -> str:
        if self.kind == "b":
            return "True" if v else "False"
        if self.kind != "f":
            return str(int(v))
        v = float(v)
        if not np.isfinite(v):
            return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")
        p = _options.precision
        if self.sci:
            return f"{v:.{p}e}"
        if self.int_mode:
            return f"{v:.0f}."
        return f"{v:.{p}f}"

    def pad(self, v: Any) -> str:
        return self.format(v).rjust(self.width)


class _ComplexFormatter:
    """PyTorch's complex form ``1.5000+2.0000j``: the real and the imaginary parts each
    formatted as a real tensor of those parts would be."""

    def __init__(self, values: np.ndarray) -> None:
        self.real, self.imag = _Formatter(values.real), _Formatter(values.imag)
        self.width = max((len(self.format(v)) for v in values.ravel()), default=1)

    def format(self, v: Any) -> str:
        imag = self.imag.format(v.imag) + "j"
        return self.real.format(v.real) + (imag if imag[0] in "+-" else "+" + imag)

    def pad(self, v: Any) -> str:
        return self.format(v).rjust(self.width)


def _formatter(values: np.ndarray) -> _Formatter | _ComplexFormatter:
    return _ComplexFormatter(values) if values.dtype.kind == "c" else _Formatter(values)


def _summarized(arr: np.ndarray, edge: int) -> np.ndarray:
    """Keep ``edge`` items at each end of every dim (for choosing widths)."""
    for axis, n in enumerate(arr.shape):
        if n > 2 * edge:
            idx = list(range(edge)) + list(range(n - edge, n))
            arr = np.take(arr, idx, axis=axis)
    return arr


def _render(arr: np.ndarray, fmt: _Formatter | _ComplexFormatter, indent: int,
            summarize: bool) -> str:
    edge = _options.edgeitems
    if arr.ndim == 0:
        return fmt.format(arr.item())
    n = arr.shape[0]
    cut = summarize and n > 2 * edge
    idx = list(range(edge)) + [None] + list(range(n - edge, n)) if cut else list(range(n))
    if arr.ndim == 1:
        items = [" ..." if i is None else fmt.pad(arr[i]) for i in idx]
        lines, line = [], ""
        limit = max(_options.linewidth - indent - 1, fmt.width + 2)
        for item in items:
            piece = item + ", "
            if line and len(line) + len(piece.rstrip()) > limit:
                lines.append(line.rstrip())
                line = ""
            line += piece
        lines.append(line.rstrip().rstrip(","))
        return "[" + ("\n" + " " * (indent + 1)).join(lines) + "]"
    sep = "," + "\n" * (arr.ndim - 1) + " " * (indent + 1)
    rows = ["..." if i is None else _render(arr[i], fmt, indent + 1, summarize) for i in idx]
    return "[" + sep.join(rows) + "]"


def tensor_repr(t: Any) -> str:
    """Return PyTorch-style text for tensor ``t``.

    Example:
        >>> import gtensor as gt
        >>> tensor_repr(gt.tensor([1.0, 2.5]))
        'tensor([1.0000, 2.5000])'
    """
    arr = t.detach().cpu().numpy()
    if t.dtype.is_half:
        arr = arr.astype(np.float32)  # the formatter computes in float32
    summarize = arr.size > _options.threshold
    shown = _summarized(arr, _options.edgeitems) if summarize else arr
    prefix = "tensor("
    suffix = []
    if t.device.type != "cpu":
        suffix.append(f"device='{t.device}'")
    if arr.size == 0:
        body = "[]"
        if arr.ndim != 1:
            suffix.append(f"size={tuple(arr.shape)}")
    else:
        body = _render(arr, _formatter(shown), len(prefix), summarize)
    if t.dtype not in (get_default_dtype(), default_complex_dtype(), int64, bool_):
        suffix.append(f"dtype=gtensor.{t.dtype.name}")
    if t.grad_fn is not None:
        suffix.append(f"grad_fn=<{t.grad_fn.label}>")
    elif t.requires_grad:
        suffix.append("requires_grad=True")
    return prefix + ", ".join([body, *suffix]) + ")"
