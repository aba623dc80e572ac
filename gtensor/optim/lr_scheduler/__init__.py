"""Learning-rate schedulers, as in ``torch.optim.lr_scheduler``.

Most schedulers set ``group["lr"]`` from a closed form of the step count
``last_epoch`` and the groups' initial rates (``group["initial_lr"]``), so
the rate after ``n`` calls to :meth:`LRScheduler.step` depends only on
``n``; MultiplicativeLR and ReduceLROnPlateau scale the current rate. Call
``scheduler.step()`` after ``optimizer.step()``.

The modules: ``base`` (the base class, LambdaLR, MultiplicativeLR),
``decay`` (closed-form decays and warm restarts), ``cyclic`` (OneCycleLR,
CyclicLR), ``plateau`` (ReduceLROnPlateau), ``sequential`` (SequentialLR).
"""

from .base import LambdaLR, LRScheduler, MultiplicativeLR
from .cyclic import CyclicLR, OneCycleLR
from .decay import (
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    ExponentialLR,
    LinearLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau
from .sequential import SequentialLR

__all__ = ["CosineAnnealingLR", "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialLR",
           "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR",
           "OneCycleLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR", "StepLR"]
