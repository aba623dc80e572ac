"""Optimizers and learning-rate schedulers.

Example:
    >>> import gtensor as gt
    >>> w = gt.nn.Parameter(gt.zeros(3))
    >>> opt = gt.optim.SGD([w], lr=0.1, momentum=0.9)
"""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
