"""Functional transforms in PyTorch's ``torch.func`` shape.

``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` differentiate
through the autograd engine and nest; ``vmap`` maps a function over a batch
dimension; ``functional_call`` runs a module with substituted tensors.
"""

from .functional_call import functional_call
from .transforms import (
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacobian,
    jacrev,
    jvp,
    value_and_grad,
    vjp,
)
from .vmap import vmap

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacobian",
           "jacrev", "jvp", "value_and_grad", "vjp", "vmap"]
