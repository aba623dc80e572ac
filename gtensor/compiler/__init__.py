"""``gt.compile``: functions of tensors traced once and run as fused kernels."""

from .compiled import CompiledFunction, compile

__all__ = ["CompiledFunction", "compile"]
