"""Small matrix constructions the VJPs share, written with gtensor ops (differentiable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import check
from ..ops.closeness import allclose
from ..ops.creation import eye, zeros_like
from ..ops.elementwise import where
from ..shape_rules import broadcast_shapes

if TYPE_CHECKING:
    from ..tensor import Tensor


def diag_embed(v: Tensor) -> Tensor:
    """Matrices with ``v``'s last dim on their diagonals: ``(..., n) -> (..., n, n)``."""
    n = v.shape[-1]
    return v.unsqueeze(-1) * eye(n, dtype=v.dtype, device=v.device)


def inverse_gaps(values: Tensor) -> Tensor:
    """``1 / (values[j] - values[i])`` off the diagonal, 0 where the gap is 0 (the diagonal).

    Equal values make the vectors' gradient undefined; their terms are left out.
    """
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1)
    zero = gaps == 0
    return where(zero, 0.0, 1.0 / where(zero, 1.0, gaps))


def safe_reciprocal(x: Tensor) -> Tensor:
    """``1 / x``, with 0 where ``x`` is 0."""
    zero = x == 0
    return where(zero, 0.0, 1.0 / where(zero, 1.0, x))


def expand_batch(op: str, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """Broadcast the batch dims (all but the last two) of two (batches of) matrices."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], op=op)
    return a.expand(*batch, *a.shape[-2:]), b.expand(*batch, *b.shape[-2:])


def check_phase_free(op: str, phase: Tensor, what: str) -> None:
    """Refuse a loss that turns with the vectors' phases (``phase``: its rate per vector).

    Complex eigen- and singular vectors are fixed only up to ``e^{i phi}`` each;
    as PyTorch, allow a rate up to 1e-2 (a check on the host).
    """
    check(allclose(phase, zeros_like(phase), rtol=1e-2, atol=1e-2), op, lambda: f"the {what} "
          "in the complex case are specified up to multiplication by e^{i phi}; the loss "
          "depends on this phase term, making it ill-defined")
