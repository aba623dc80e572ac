"""2-D convolution: a ResNet-style 3x3 layer in float32, NCHW."""

from __future__ import annotations

from ..libraries import Library
from ..registry import Unsupported, Workload, case


@case("conv.conv2d_3x3", threaded=True, max_rounds=7, sizes={
    "tiny": {"batch": 2, "channels": 4, "size": 8},
    "quick": {"batch": 8, "channels": 64, "size": 28},
    "full": {"batch": 32, "channels": 64, "size": 56}})
def conv2d_3x3(lib: Library, batch: int, channels: int, size: int) -> Workload:
    """conv2d of (batch, C, size, size) with C -> C filters 3x3, padding 1 (flops: 2 N C^2 9 HW).

    NumPy and CuPy have no conv2d: theirs is an im2col composition (a strided
    window view contracted with the filters by one GEMM).

    Example:
        >>> conv2d_3x3(Library("numpy", "cpu"), 1, 2, 4).flops
        1152
    """
    x = lib.randn(batch, channels, size, size, seed=1)
    w = lib.randn(channels, channels, 3, 3, seed=2)
    flops = 2 * batch * channels * channels * 9 * size * size
    return Workload(lambda: lib.conv2d(x, w, 1), flops=flops)


@case("conv.conv2d_3x3_backward", threaded=True, max_rounds=7, sizes={
    "tiny": {"batch": 2, "channels": 4, "size": 8},
    "quick": {"batch": 8, "channels": 64, "size": 28},
    "full": {"batch": 32, "channels": 64, "size": 56}})
def conv2d_3x3_backward(lib: Library, batch: int, channels: int, size: int) -> Workload:
    """The gradients of conv.conv2d_3x3 for its input and its filters (flops: 2 x the forward's).

    NumPy and CuPy have no autograd: this case is gtensor against PyTorch.

    Example:
        >>> conv2d_3x3_backward(Library("numpy", "cpu"), 1, 2, 4)
        Traceback (most recent call last):
        ...
        bench.registry.Unsupported: no autograd
    """
    if lib.name not in ("gtensor", "torch"):
        raise Unsupported("no autograd")
    x = lib.randn(batch, channels, size, size, seed=1).requires_grad_()
    w = lib.randn(channels, channels, 3, 3, seed=2).requires_grad_()
    out = lib.conv2d(x, w, 1)
    g = lib.randn(*out.shape, seed=3)

    def step() -> None:
        x.grad = w.grad = None
        out.backward(g, retain_graph=True)

    flops = 4 * batch * channels * channels * 9 * size * size
    return Workload(step, flops=flops)
