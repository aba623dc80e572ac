"""Helpers for training: gradient clipping.

Example:
    >>> gt.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # doctest: +SKIP
"""

from .clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_"]
