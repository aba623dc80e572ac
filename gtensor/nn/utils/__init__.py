"""Helpers for training: gradient clipping, parameters as one vector, packed and padded
sequences (``utils.rnn``).

Example:
    >>> p = nn.Parameter(gt.zeros(2))
    >>> p.grad = gt.tensor([3.0, 4.0])
    >>> gt.nn.utils.clip_grad_norm_([p], max_norm=1.0)
    tensor(5.)
    >>> p.grad
    tensor([0.6000, 0.8000])
"""

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "rnn", "vector_to_parameters"]
