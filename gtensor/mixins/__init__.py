"""The method families of :class:`gtensor.Tensor`, declared statically, one mixin per family.

Each mixin's body assigns gtensor's op functions as methods (``sum = reduction.sum``),
so the whole Tensor API reads in this package and type checkers see every
method with its signature. :mod:`gtensor.tensor` composes them over
:class:`~gtensor.tensor_base.TensorBase`. The mixins hold no state
(``__slots__ = ()``); a tensor's ``__dict__`` (from :class:`~gtensor.tensor_base.TensorBase`)
holds only rarely set autograd fields and user attributes.
"""

from .arithmetic import ArithmeticMethods
from .autograd import AutogradMethods
from .complex import ComplexMethods
from .copy import CopyMethods
from .indexing import IndexingMethods
from .movement import MovementMethods
from .random import RandomMethods
from .reduce import ReductionMethods
from .unary import UnaryMethods

__all__ = ["ArithmeticMethods", "AutogradMethods", "ComplexMethods", "CopyMethods",
           "IndexingMethods",
           "MovementMethods", "RandomMethods", "ReductionMethods", "UnaryMethods"]
