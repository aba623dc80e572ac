"""Helpers for training: gradient clipping, packed and padded sequences (``utils.rnn``).

Example:
    >>> gt.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # doctest: +SKIP
"""

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "rnn"]
