"""Reverse-mode automatic differentiation: ``backward``, ``grad``, gradcheck and grad modes.

The engine walks the graph that ops record through :mod:`gtensor.graph` and runs
gtensor ops on the gradients, so gradients stay on the tensors' device and can
themselves be differentiated (``create_graph=True``). The recording names
(grad modes, ``Function``, anomaly mode) are re-exported here, as in
``torch.autograd``.
"""

from __future__ import annotations

from ..graph.anomaly import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from ..graph.function import Function, FunctionCtx, once_differentiable
from ..graph.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ..graph.node import Node
from . import functional
from .engine import backward, grad
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "Function", "FunctionCtx", "GradcheckError", "gradcheck", "gradgradcheck",
    "Node", "backward", "functional", "detect_anomaly", "enable_grad", "grad",
    "inference_mode", "is_anomaly_enabled", "is_grad_enabled", "is_inference_mode_enabled",
    "no_grad", "once_differentiable", "set_detect_anomaly", "set_grad_enabled",
]
