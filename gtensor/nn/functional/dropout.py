"""Dropout."""

from __future__ import annotations

from ...errors import check
from ...generator import Generator
from ...ops.random_extra import dropout_mask
from ...tensor import Tensor


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
            generator: Generator | None = None) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    The mask is drawn on the input's device from gtensor's generator; in
    evaluation (``training=False``) or with ``p = 0`` the input is returned.

    Args:
        input: any floating tensor.
        p: drop probability in ``[0, 1]``.
        training: apply dropout only when True.
        inplace: multiply ``input`` in place.
        generator: the random stream (the device's default one when None).

    Example:
        >>> F.dropout(x, 0.1, training=model.training)  # doctest: +SKIP
    """
    check(0.0 <= p <= 1.0, "dropout", lambda: f"p must be in [0, 1], got {p}", ValueError)
    if not training or p == 0.0:
        return input
    mask = dropout_mask(input.shape, p=p, dtype=input.dtype, device=input.device,
                        generator=generator)
    return input.mul_(mask) if inplace else input * mask
