"""Reverse-mode automatic differentiation.

Ops record :class:`~gtensor.autograd.node.Node` objects while grad mode is on;
:func:`backward` and :func:`grad` run them in reverse topological order with
gtensor ops, so gradients stay on the tensors' device and can themselves be
differentiated (``create_graph=True``).
"""

from . import hooks as _hooks  # noqa: F401 - attaches Tensor.backward and hook methods
from .anomaly import detect_anomaly, is_anomaly_enabled
from .engine import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .node import Node

__all__ = [
    "Function", "FunctionCtx", "GradcheckError", "gradcheck", "gradgradcheck",
    "Node", "backward", "detect_anomaly", "enable_grad", "grad",
    "inference_mode", "is_anomaly_enabled", "is_grad_enabled", "is_inference_mode_enabled",
    "no_grad", "once_differentiable", "set_grad_enabled",
]
