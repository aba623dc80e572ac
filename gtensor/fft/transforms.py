"""``gt.fft``'s transforms with PyTorch's names and signatures (``torch.fft``).

Each one checks its arguments, brings the input to the transform's dtype
(integers and bool to the default float dtype, float16/bfloat16 to float32;
complex transforms of real input to the matching complex dtype) and sizes
(``n``/``s`` crop or zero-pad the input along ``dim``), and runs one of the
primitives of :mod:`.primitives`. Results: complex64 for float32 or complex64
input, complex128 for float64 or complex128; the ``irfft``/``hfft`` family is real.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..dtypes import complex_of, float32, get_default_dtype
from ..errors import DTypeError, ShapeError, check
from ..ops.complex_ops import conj
from ..ops.elementwise import takes_out
from ..ops.layout.padding import pad_to
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .primitives import NORMS, c2c, c2r, dual, r2c

if TYPE_CHECKING:
    from ..tensor import Tensor

Dims = int | Sequence[int] | None


def _norm(norm: str | None, op: str) -> str:
    norm = "backward" if norm is None else norm
    check(norm in NORMS, op, lambda: f"invalid normalization mode {norm!r}; expected one of "
          f"{', '.join(NORMS)}", ValueError)
    return norm


def _real_input(x: Tensor, op: str) -> Tensor:
    """``x`` as float32/float64: integers and bool give the default float, halves float32."""
    check(isinstance(x, TensorBase), op, lambda: f"expected a Tensor, got {type(x).__name__}",
          TypeError)
    check(not x.dtype.is_complex, op, lambda: f"expects a real input tensor, but got "
          f"{x.dtype.name}", DTypeError)
    dt = x.dtype
    want = float32 if dt.is_half else dt if dt.is_floating_point else get_default_dtype()
    want = float32 if want.is_half else want
    return x if want is dt else x.to(want)  # type: ignore[attr-defined]


def _complex_input(x: Tensor, op: str) -> Tensor:
    """``x`` as complex64/complex128 (real inputs converted as :func:`_real_input` says)."""
    if isinstance(x, TensorBase) and x.dtype.is_complex:
        return x
    real = _real_input(x, op)
    return real.to(complex_of(real.dtype))  # type: ignore[attr-defined]


def _dims_and_sizes(x: Tensor, s: Sequence[int] | None, dim: Dims, op: str,
                    default_all: bool) -> tuple[tuple[int, ...], list[int | None]]:
    """The transformed dims (wrapped) and their requested sizes (None: the input's)."""
    if dim is None:
        if s is not None:
            dims = tuple(range(x.ndim - len(s), x.ndim))
        else:
            dims = tuple(range(x.ndim)) if default_all else (x.ndim - 2, x.ndim - 1)
    else:
        dims = tuple(wrap_dim(d, x.ndim, op) for d in ([dim] if isinstance(dim, int) else dim))
    check(x.ndim > 0, op, "expected a tensor with at least one dim, got a 0-d tensor",
          ShapeError)
    check(len(set(dims)) == len(dims), op, lambda: f"dims must be unique, got {dim}", ValueError)
    check(len(dims) > 0, op, lambda: f"expected at least one dim to transform, got {dim}",
          ShapeError)
    sizes: list[int | None] = [None] * len(dims) if s is None else list(s)
    check(len(sizes) == len(dims), op, lambda: f"got shape {tuple(sizes)} for {len(dims)} "
          "dims; they must have the same length", ShapeError)
    for n in sizes:
        check(n is None or n == -1 or n >= 1, op, lambda: f"invalid number of data points "
              f"({n}) specified", ValueError)
    return dims, [None if n == -1 else n for n in sizes]


def _resized(x: Tensor, dims: tuple[int, ...], sizes: Sequence[int]) -> Tensor:
    """Crop or zero-pad ``x`` at the end of each of ``dims`` to ``sizes`` (differentiable)."""
    shape = list(x.shape)
    for d, n in zip(dims, sizes, strict=True):
        shape[d] = n
    return pad_to(x, tuple(shape))


def _c2c_call(op: str, input: Tensor, s: Sequence[int] | None, dim: Dims, norm: str | None,
              inverse: bool, default_all: bool) -> Tensor:
    x = _complex_input(input, op)
    dims, sizes = _dims_and_sizes(x, s, dim, op, default_all)
    full = [x.shape[d] if n is None else n for d, n in zip(dims, sizes, strict=True)]
    check(all(n >= 1 for n in full), op, "invalid number of data points (0) specified",
          ValueError)
    return c2c(op, _resized(x, dims, full), dims, _norm(norm, op), inverse)


def _r2c_call(op: str, input: Tensor, s: Sequence[int] | None, dim: Dims, norm: str | None,
              default_all: bool) -> Tensor:
    x = _real_input(input, op)
    dims, sizes = _dims_and_sizes(x, s, dim, op, default_all)
    full = [x.shape[d] if n is None else n for d, n in zip(dims, sizes, strict=True)]
    check(all(n >= 1 for n in full), op, "invalid number of data points (0) specified",
          ValueError)
    return r2c(op, _resized(x, dims, full), dims, _norm(norm, op))


def _c2r_call(op: str, input: Tensor, s: Sequence[int] | None, dim: Dims, norm: str | None,
              default_all: bool) -> Tensor:
    x = _complex_input(input, op)
    dims, sizes = _dims_and_sizes(x, s, dim, op, default_all)
    last = sizes[-1]
    n = 2 * (x.shape[dims[-1]] - 1) if last is None else last
    check(n >= 1, op, lambda: f"invalid number of data points ({n}) specified", ValueError)
    half = [x.shape[d] if m is None else m for d, m in zip(dims[:-1], sizes[:-1], strict=True)]
    return c2r(op, _resized(x, dims, [*half, n // 2 + 1]), dims, n, _norm(norm, op))


@takes_out
def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The one-dimensional discrete Fourier transform along ``dim``.

    Args:
        input: the signal (real input is treated as complex with zero imaginary parts).
        n: the transform length: the input is cropped or zero-padded to it.
        dim: the dim to transform.
        norm: ``"backward"`` (default: no scaling), ``"forward"`` (scale by ``1/n``) or
            ``"ortho"`` (``1/sqrt(n)``).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.fft(gt.tensor([1.0, 0.0, 0.0, 0.0])).tolist()
        [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    return _c2c_call("fft.fft", input, None if n is None else [n], dim, norm, False, False)


@takes_out
def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`fft` (``"backward"`` scales by ``1/n``).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ifft(gt.tensor([4.0, 0.0, 0.0, 0.0])).tolist()
        [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    return _c2c_call("fft.ifft", input, None if n is None else [n], dim, norm, True, False)


@takes_out
def fft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
         norm: str | None = None) -> Tensor:
    """The two-dimensional DFT over ``dim`` (the last two dims by default).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.fft2(gt.ones(2, 2)).tolist()
        [[(4+0j), 0j], [0j, 0j]]
    """
    return _c2c_call("fft.fft2", input, s, dim, norm, False, False)


@takes_out
def ifft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """The inverse of :func:`fft2`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ifft2(gt.fft.fft2(gt.ones(2, 2))).real.tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    return _c2c_call("fft.ifft2", input, s, dim, norm, True, False)


@takes_out
def fftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
         norm: str | None = None) -> Tensor:
    """The N-dimensional DFT over ``dim`` (every dim, or the last ``len(s)``, by default).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.fftn(gt.ones(2, 2)).tolist()
        [[(4+0j), 0j], [0j, 0j]]
    """
    return _c2c_call("fft.fftn", input, s, dim, norm, False, True)


@takes_out
def ifftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
          norm: str | None = None) -> Tensor:
    """The inverse of :func:`fftn`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ifftn(gt.fft.fftn(gt.ones(2, 2))).real.tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    return _c2c_call("fft.ifftn", input, s, dim, norm, True, True)


@takes_out
def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The DFT of a real signal, one-sided: ``n // 2 + 1`` frequencies along ``dim``.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.rfft(gt.tensor([1.0, 1.0, 1.0, 1.0])).tolist()
        [(4+0j), 0j, 0j]
    """
    return _r2c_call("fft.rfft", input, None if n is None else [n], dim, norm, False)


@takes_out
def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft`: ``n`` real samples (``2 * (m - 1)`` for ``m`` bins).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.irfft(gt.tensor([4 + 0j, 0j, 0j])).tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    return _c2r_call("fft.irfft", input, None if n is None else [n], dim, norm, False)


@takes_out
def rfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """The two-dimensional :func:`rfftn` (one-sided along the last of ``dim``).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.rfft2(gt.ones(2, 2)).shape
        (2, 2)
    """
    return _r2c_call("fft.rfft2", input, s, dim, norm, False)


@takes_out
def irfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft2`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.irfft2(gt.fft.rfft2(gt.ones(2, 2)), s=(2, 2)).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    return _c2r_call("fft.irfft2", input, s, dim, norm, False)


@takes_out
def rfftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
          norm: str | None = None) -> Tensor:
    """The N-dimensional DFT of a real signal, one-sided along the last of ``dim``.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.rfftn(gt.ones(2, 4)).shape
        (2, 3)
    """
    return _r2c_call("fft.rfftn", input, s, dim, norm, True)


@takes_out
def irfftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
           norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfftn`; ``s[-1]`` (default ``2 * (m - 1)``) real samples last.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.irfftn(gt.fft.rfftn(gt.ones(2, 4))).shape
        (2, 4)
    """
    return _c2r_call("fft.irfftn", input, s, dim, norm, True)


@takes_out
def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The DFT of a Hermitian-symmetric signal given by its one-sided half: ``n`` real values.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.hfft(gt.tensor([1 + 0j, 0j, 0j])).tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    return _c2r_call("fft.hfft", conj(_complex_input(input, "fft.hfft")),
                     None if n is None else [n], dim, dual(_norm(norm, "fft.hfft")), False)


@takes_out
def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft`: the one-sided half of a real signal's inverse DFT.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ihfft(gt.tensor([1.0, 1.0, 1.0, 1.0])).tolist()
        [(1-0j), -0j, -0j]
    """
    return conj(_r2c_call("fft.ihfft", input, None if n is None else [n], dim,
                          dual(_norm(norm, "fft.ihfft")), False))


@takes_out
def hfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """The 2-D :func:`hfftn`: real output, ``s[-1]`` (default ``2 * (m - 1)``) samples last.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.hfft2(gt.ones(2, 2, dtype=gt.complex64)).tolist()
        [[4.0, 0.0], [0.0, 0.0]]
    """
    return _c2r_call("fft.hfft2", conj(_complex_input(input, "fft.hfft2")), s, dim,
                     dual(_norm(norm, "fft.hfft2")), False)


@takes_out
def ihfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Tensor:
    """The 2-D :func:`ihfftn`: the inverse of :func:`hfft2`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ihfft2(gt.ones(2, 4)).shape
        (2, 3)
    """
    return conj(_r2c_call("fft.ihfft2", input, s, dim, dual(_norm(norm, "fft.ihfft2")), False))


@takes_out
def hfftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
          norm: str | None = None) -> Tensor:
    """The N-dimensional DFT of a signal Hermitian-symmetric along the last of ``dim``.

    The input holds the one-sided half along the last dim; the output is real
    with ``s[-1]`` (default ``2 * (m - 1)``) samples there.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.hfftn(gt.ones(1, 3, dtype=gt.complex64)).tolist()
        [[4.0, 0.0, 0.0, 0.0]]
    """
    return _c2r_call("fft.hfftn", conj(_complex_input(input, "fft.hfftn")), s, dim,
                     dual(_norm(norm, "fft.hfftn")), True)


@takes_out
def ihfftn(input: Tensor, s: Sequence[int] | None = None, dim: Dims = None,
           norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfftn`: the one-sided half of a real signal's inverse N-D DFT.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ihfftn(gt.ones(1, 4)).shape
        (1, 3)
    """
    return conj(_r2c_call("fft.ihfftn", input, s, dim, dual(_norm(norm, "fft.ihfftn")), True))
