"""gt.compile against eager execution: the same expressions fused into one loop per output.

Each compiled case has an eager twin (``eager_*``) timed in the same run, so
the ratio compiled / eager gtensor is read off one report. PyTorch and CuPy
run their eager versions (``torch.compile`` needs a C++ toolchain for its cpu
backend, which a clean machine lacks); NumPy runs its own expression.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..libraries import Library
from ..registry import Unsupported, Workload, case

_N: dict[str, dict[str, Any]] = {"tiny": {"n": 1000}, "quick": {"n": 1 << 22},
                                 "full": {"n": 1 << 24}}
_TINY: dict[str, dict[str, Any]] = {p: {"n": 100} for p in ("tiny", "quick", "full")}


def _chain(lib: Library) -> Callable[[Any, Any, Any], Any]:
    return lambda a, b, c: lib.relu(a * b + c)


def _compiled(lib: Library, fn: Callable[..., Any]) -> Callable[..., Any]:
    return lib.ns.compile(fn) if lib.name == "gtensor" else fn


@case("compile.chain", threaded=True, sizes=_N)
def chain(lib: Library, n: int) -> Workload:
    """(a*b + c).relu() of n float32 values, compiled in gtensor (bytes: three reads, one write)."""
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    fn = _compiled(lib, _chain(lib))
    return Workload(lambda: fn(a, b, c), bytes=16 * n)


@case("compile.eager_chain", threaded=True, sizes=_N)
def eager_chain(lib: Library, n: int) -> Workload:
    """compile.chain run eagerly: three ops, two temporaries written and read back."""
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    fn = _chain(lib)
    return Workload(lambda: fn(a, b, c), bytes=16 * n)


def _gelu(lib: Library) -> Callable[[Any], Any]:
    def gelu(x: Any) -> Any:  # the tanh form, written out as a user would
        return 0.5 * x * (1.0 + lib.ns.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
    return gelu


@case("compile.gelu", threaded=True, sizes=_N)
def gelu(lib: Library, n: int) -> Workload:
    """GELU (tanh form) written out of nine elementwise ops, compiled in gtensor."""
    x = lib.randn(n)
    fn = _compiled(lib, _gelu(lib))
    return Workload(lambda: fn(x), bytes=8 * n)


@case("compile.eager_gelu", threaded=True, sizes=_N)
def eager_gelu(lib: Library, n: int) -> Workload:
    """compile.gelu run eagerly."""
    x = lib.randn(n)
    fn = _gelu(lib)
    return Workload(lambda: fn(x), bytes=8 * n)


@case("compile.chain_forward", sizes=_TINY)
def chain_forward(lib: Library, n: int) -> Workload:
    """overhead.chain_forward, (a*b + c).relu().sum() on 100 values, compiled in gtensor."""
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    chained = _chain(lib)
    fn = _compiled(lib, lambda a, b, c: chained(a, b, c).sum())
    return Workload(lambda: fn(a, b, c))


def _requires_grad(lib: Library, n: int, seed: int) -> Any:
    return lib.randn(n, seed=seed).requires_grad_()


@case("compile.chain_backward", sizes=_TINY)
def chain_backward(lib: Library, n: int) -> Workload:
    """overhead.chain_backward, forward and backward of (a*b + c).relu().sum() on 100 leaves
    needing grad, the whole step compiled in gtensor (gradients accumulate into .grad)."""
    if lib.name not in ("gtensor", "torch"):
        raise Unsupported("no autograd")
    a, b, c = (_requires_grad(lib, n, s) for s in (1, 2, 3))
    chained = _chain(lib)

    def step(a: Any, b: Any, c: Any) -> None:
        chained(a, b, c).sum().backward()

    fn = _compiled(lib, step)
    return Workload(lambda: fn(a, b, c))


@case("compile.chain_forward_backward", sizes=_TINY)
def chain_forward_backward(lib: Library, n: int) -> Workload:
    """compile.chain_backward with only the forward compiled in gtensor: the call returns the
    loss, whose backward (traced and fused with the forward) runs as one autograd node."""
    if lib.name not in ("gtensor", "torch"):
        raise Unsupported("no autograd")
    a, b, c = (_requires_grad(lib, n, s) for s in (1, 2, 3))
    chained = _chain(lib)
    fn = _compiled(lib, lambda a, b, c: chained(a, b, c).sum())

    def step() -> None:
        fn(a, b, c).backward()

    return Workload(step)


_MLP: dict[str, dict[str, Any]] = {"tiny": {"batch": 8, "features": 16, "hidden": 8},
                                   "quick": {"batch": 256, "features": 784, "hidden": 512},
                                   "full": {"batch": 256, "features": 784, "hidden": 512}}


def _mlp_grad(lib: Library, batch: int, features: int, hidden: int,
              compiled: bool) -> Workload:
    if lib.name not in ("gtensor", "torch"):
        raise Unsupported("no autograd")
    x = lib.randn(batch, features, seed=1)
    w1 = (lib.randn(features, hidden, seed=2) * 0.05).requires_grad_()
    b1 = lib.randn(hidden, seed=3).requires_grad_()
    w2 = (lib.randn(hidden, hidden, seed=4) * 0.05).requires_grad_()

    def loss(x: Any) -> Any:
        h = lib.relu(x @ w1 + b1)
        return (lib.relu(h @ w2) * 0.5).mean()

    fn = _compiled(lib, loss) if compiled else loss

    def step() -> None:
        for w in (w1, b1, w2):
            w.grad = None
        fn(x).backward()

    flops = 6.0 * batch * (features * hidden + hidden * hidden)
    return Workload(step, flops=flops)


@case("compile.mlp_grad", threaded=True, sizes=_MLP)
def mlp_grad(lib: Library, batch: int, features: int, hidden: int) -> Workload:
    """Loss and gradients of a two-layer ReLU MLP, compiled in gtensor: matmuls stay library
    calls, bias, ReLU and the loss around them fused, the backward traced with them."""
    return _mlp_grad(lib, batch, features, hidden, compiled=True)


@case("compile.eager_mlp_grad", threaded=True, sizes=_MLP)
def eager_mlp_grad(lib: Library, batch: int, features: int, hidden: int) -> Workload:
    """compile.mlp_grad run eagerly."""
    return _mlp_grad(lib, batch, features, hidden, compiled=False)
