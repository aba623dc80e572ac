"""The bridge to LAPACK: NumPy on host memory, CuPy (cuSOLVER, cuBLAS) on a GPU.

A routine is written once as ``fn(xp, *arrays)`` over the array module ``xp``
and runs where the tensors are. Host-addressable memory (the cpu, and the
simulated cuda device whose memory is host memory) goes to ``numpy.linalg``
through views of the tensors' buffers, without copies beyond those LAPACK
makes; a cpu result is wrapped as it is (with NumPy's strides) and a
simulated-cuda result is copied to that device. GPU memory goes to
``cupy.linalg`` through the CUDA array interface, on gtensor's current
stream, as one batched cuSOLVER/cuBLAS call per routine where CuPy has one,
and the results are wrapped without copying (their memory comes from
gtensor's allocator, which CuPy uses). CuPy is asked to raise on a failed
factorization, as PyTorch does, which waits for the GPU.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cuda import current_stream, runtime
from ..device import device
from ..dtypes import complex64, complex128, dtype, float32, float64
from ..errors import DTypeError, ShapeError, check, check_same_device
from ..ops.interop import from_cuda_array_interface
from ..ops.tracing import library_calls
from ..tensor_base import TensorBase, from_numpy
from ..trace_state import state
from .failures import LinAlgError

if TYPE_CHECKING:
    from ..tensor import Tensor

Routine = Callable[..., Any]  # fn(xp, *arrays) -> an array or a tuple of arrays
Outputs = list[tuple[tuple[int, ...], dtype]]  # each result's shape and dtype
Failure = Callable[..., LinAlgError]  # host copies of the inputs -> the error to raise


LAPACK_DTYPES = (float32, float64, complex64, complex128)
"""The dtypes LAPACK and cuSOLVER factor: real and complex, single and double precision."""


def check_lapack_dtype(op: str, *tensors: Tensor) -> None:
    """Refuse anything but tensors of one LAPACK dtype (:data:`LAPACK_DTYPES`) on one device."""
    for t in tensors:
        check(isinstance(t, TensorBase), op, lambda: "expected a tensor, got "
              f"{type(t).__name__}", TypeError)
        check(t.dtype in LAPACK_DTYPES, op, lambda: "expected a float32, float64, complex64 or "
              f"complex128 tensor, got {t.dtype.name}", DTypeError)
    first = tensors[0]
    for t in tensors[1:]:
        check(t.dtype is first.dtype, op, lambda: "expected all inputs to have the same dtype, "
              f"got {first.dtype.name} and {t.dtype.name}", DTypeError)
    check_same_device(op, *(t.device for t in tensors))


def check_matrix(op: str, a: Tensor, square: bool = True, name: str = "A") -> None:
    """Check that ``a`` is a float or complex (batch of) matrix, square when asked."""
    check_lapack_dtype(op, a)
    check(a.ndim >= 2, op, lambda: f"the input tensor {name} must have at least 2 dimensions, "
          f"got shape {a.shape}", ShapeError)
    check(not square or a.shape[-1] == a.shape[-2], op, lambda: f"{name} must be batches of "
          f"square matrices, but they are {a.shape[-2]} by {a.shape[-1]} matrices", ShapeError)


def call(op: str, fn: Routine, *inputs: Tensor, failure: Failure | None = None,
         outputs: Outputs | None = None) -> tuple[Tensor, ...]:
    """Run ``fn(xp, *arrays)`` on the inputs' device and return its results as tensors there.

    Args:
        op: the op's name, for errors.
        fn: the routine, over NumPy or CuPy arrays.
        inputs: tensors on one device (checked by the caller).
        failure: builds the error for a failed factorization from host copies of the inputs.
        outputs: the shape and dtype of each result, known before the call: under
            ``gt.compile`` the routine is then a library call of the trace, run on
            every call (without them, a traced call runs the function eagerly).

    Example:
        >>> (inverse,) = call("linalg.inv", lambda xp, a: xp.linalg.inv(a), gt.eye(2) * 2)
        >>> inverse.tolist()
        [[0.5, 0.0], [0.0, 0.5]]
    """
    if outputs is not None and state.trace is not None:
        return library_calls(op, functools.partial(_traced_call, op, fn, failure, outputs),
                             inputs, outputs)
    dev = inputs[0].device
    if inputs[0]._storage.host is not None:
        arrays = [t._native() for t in inputs]
        with _raising(op, failure, arrays, np):
            outs = fn(np, *arrays)
        return tuple(_host_tensor(o, dev) for o in _as_tuple(outs))
    return _on_gpu(op, fn, inputs, dev, failure)


def _traced_call(op: str, fn: Routine, failure: Failure | None, outputs: Outputs,
                 *inputs: Tensor) -> tuple[Tensor, ...]:
    """:func:`call`'s results as a trace reads them: contiguous, of the announced dtypes."""
    outs = call(op, fn, *inputs, failure=failure)
    return tuple((o if o.dtype is dt else o.to(dt)).contiguous()  # type: ignore[attr-defined]
                 for o, (_, dt) in zip(outs, outputs, strict=True))


def _as_tuple(outs: Any) -> tuple[Any, ...]:
    return tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)


def _host_tensor(arr: Any, dev: device) -> Tensor:
    t = from_numpy(np.asarray(arr))
    return t if dev.type == "cpu" else t.to(dev)


@contextmanager
def _raising(op: str, failure: Failure | None, arrays: list[Any], xp: Any) -> Iterator[None]:
    """Turn a LAPACK failure raised inside into the op's :class:`LinAlgError`."""
    try:
        yield
    except np.linalg.LinAlgError as exc:
        if failure is None:
            raise LinAlgError(f"[{op}] {exc}") from None
        raise failure(*[a if xp is np else xp.asnumpy(a) for a in arrays]) from None


def _on_gpu(op: str, fn: Routine, inputs: tuple[Tensor, ...], dev: device,
            failure: Failure | None) -> tuple[Tensor, ...]:
    cp = runtime.cupy()
    import cupyx  # optional GPU stack, loaded with CuPy

    with cp.cuda.Device(dev.index or 0), cp.cuda.ExternalStream(current_stream(dev).handle):
        arrays = [cp.asarray(t) for t in inputs]
        with cupyx.errstate(linalg="raise"), _raising(op, failure, arrays, cp):
            outs = fn(cp, *arrays)
        return tuple(from_cuda_array_interface(o) for o in _as_tuple(outs))
