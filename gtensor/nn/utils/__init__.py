"""Helpers for training: gradient clipping, packed and padded sequences (``utils.rnn``).

Example:
    >>> p = nn.Parameter(gt.zeros(2))
    >>> p.grad = gt.tensor([3.0, 4.0])
    >>> gt.nn.utils.clip_grad_norm_([p], max_norm=1.0)
    tensor(5.)
    >>> p.grad
    tensor([0.6000, 0.8000])
"""

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "rnn"]
