"""The three discrete Fourier transforms every ``gt.fft`` function reduces to, with their VJPs.

- ``c2c``: complex to complex over ``dims``, forward or inverse;
- ``r2c``: real to the one-sided complex spectrum (the last dim keeps ``n // 2 + 1``);
- ``c2r``: a one-sided spectrum back to a real signal of ``n`` samples along the last dim.

The inputs arrive at their transform sizes (the callers pad or crop first, a
differentiable step), in float32/float64 or complex64/complex128. The
transform runs where the tensor is, through :func:`gtensor.linalg.lapack.call`:
NumPy's pocketfft on host memory (the cpu and the simulated cuda device), CuPy's
cuFFT on a GPU, over the tensor's memory as it is, on gtensor's current stream,
the result allocated by gtensor's allocator (CuPy's).

``norm`` is NumPy's and PyTorch's: ``"backward"`` scales the inverse by
``1/n``, ``"forward"`` the forward transform, ``"ortho"`` both by
``1/sqrt(n)``. The adjoint of a transform is the opposite one with the dual
norm (``backward`` <-> ``forward``), which the VJPs use (PyTorch's convention
for complex gradients: ``g`` times the conjugate transpose).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import complex_of, dtype
from ..graph.node import Node, record
from ..linalg.lapack import call
from ..ops.creation import ones
from ..ops.layout.padding import pad_to

if TYPE_CHECKING:
    from ..tensor import Tensor

NORMS = ("backward", "forward", "ortho")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def dual(norm: str) -> str:
    """The norm that scales the opposite transform as ``norm`` scales this one.

    Example:
        >>> dual("backward")
        'forward'
    """
    return _DUAL[norm]


def _transform(op: str, run: Any, x: Tensor, shape: tuple[int, ...], dt: dtype) -> Tensor:
    """``run`` over ``x`` through the library (under ``gt.compile`` a library call of the
    trace, whose result has ``shape`` and ``dt``)."""
    return call(op, run, x, outputs=[(shape, dt)])[0]


def c2c(op: str, x: Tensor, dims: tuple[int, ...], norm: str, inverse: bool) -> Tensor:
    """The complex DFT of complex ``x`` over ``dims`` (forward, or inverse when ``inverse``).

    Example:
        >>> import gtensor as gt
        >>> c2c("fft.fft", gt.ones(2, dtype=gt.complex64), (0,), "backward", False).tolist()
        [(2+0j), 0j]
    """
    def run(xp: Any, a: Any) -> Any:
        return (xp.fft.ifftn if inverse else xp.fft.fftn)(a, axes=dims, norm=norm)

    out = _transform(op, run, x, x.shape, x.dtype)
    record(op, out, (x,), _c2c_vjp, dims=dims, norm=norm, inverse=inverse)
    return out


def _c2c_vjp(ctx: Node, g: Tensor) -> Tensor:
    return c2c(ctx.name, g, ctx.dims, _DUAL[ctx.norm], not ctx.inverse)


def r2c(op: str, x: Tensor, dims: tuple[int, ...], norm: str) -> Tensor:
    """The forward DFT of real ``x`` over ``dims``, one-sided along ``dims[-1]``.

    Example:
        >>> import gtensor as gt
        >>> r2c("fft.rfft", gt.ones(4), (0,), "backward").shape
        (3,)
    """
    shape = list(x.shape)
    shape[dims[-1]] = shape[dims[-1]] // 2 + 1
    out = _transform(op, lambda xp, a: xp.fft.rfftn(a, axes=dims, norm=norm), x, tuple(shape),
                     complex_of(x.dtype))
    record(op, out, (x,), _r2c_vjp, dims=dims, norm=norm, n=x.shape[dims[-1]])
    return out


def _r2c_vjp(ctx: Node, g: Tensor) -> Tensor:
    """The full spectrum with zeros for the bins ``r2c`` drops, transformed back, real part."""
    full = list(g.shape)
    full[ctx.dims[-1]] = ctx.n
    spectrum = pad_to(g, tuple(full))
    return c2c(ctx.name, spectrum, ctx.dims, _DUAL[ctx.norm], True).real  # type: ignore[attr-defined]


def c2r(op: str, x: Tensor, dims: tuple[int, ...], n: int, norm: str) -> Tensor:
    """The inverse DFT of a one-sided spectrum ``x`` to ``n`` real samples along ``dims[-1]``
    (``x.shape[dims[-1]] == n // 2 + 1``).

    Example:
        >>> import gtensor as gt
        >>> c2r("fft.irfft", gt.ones(3, dtype=gt.complex64), (0,), 4, "backward").shape
        (4,)
    """
    sizes = [x.shape[d] for d in dims[:-1]] + [n]
    shape = list(x.shape)
    shape[dims[-1]] = n
    out = _transform(op, lambda xp, a: xp.fft.irfftn(a, s=sizes, axes=dims, norm=norm), x,
                     tuple(shape), x.dtype.real_dtype)
    record(op, out, (x,), _c2r_vjp, dims=dims, norm=norm, n=n)
    return out


def _c2r_vjp(ctx: Node, g: Tensor) -> Tensor:
    """PyTorch's rule: the one-sided forward transform of ``g`` (dual norm), with the bins
    that stand for two (a bin and its mirror) doubled."""
    spectrum = r2c(ctx.name, g, ctx.dims, _DUAL[ctx.norm])
    last = ctx.dims[-1]
    bins = spectrum.shape[last]
    doubled = ctx.n - bins
    if doubled <= 0:
        return spectrum
    weight = ones(bins, dtype=g.dtype, device=g.device)
    weight[1:1 + doubled] = 2.0
    shape = [1] * spectrum.ndim
    shape[last] = bins
    return spectrum * weight.reshape(shape)  # type: ignore[attr-defined]
