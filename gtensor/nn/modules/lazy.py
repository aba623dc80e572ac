"""Lazy modules: layers whose input size is read from their first input.

A lazy layer holds :class:`~gtensor.nn.UninitializedParameter` (and
:class:`~gtensor.nn.UninitializedBuffer`) placeholders. A forward pre-hook
materializes them at the first call from the input's shape, initializes them
as the eager layer does, and turns the module into that layer's class
(``LazyLinear`` becomes ``Linear``). The placeholder objects are kept, so an
optimizer built before the first forward trains the materialized parameters;
``load_state_dict`` materializes them from the loaded shapes.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from ...dtypes import int64
from ...errors import ShapeError
from ...graph.grad_mode import no_grad
from ...ops.creation import zeros
from ...tensor import Tensor
from ...trace_state import state as tracing
from ..parameter import UninitializedBuffer, UninitializedParameter, UninitializedTensorMixin
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .linear import Linear
from .module import Module
from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
)


def _infer_parameters(module: Any, args: tuple[Any, ...]) -> None:
    """Forward pre-hook: materialize from the first input, then become the eager class.

    Under ``gt.compile`` the parameters are still made and initialized eagerly: they are
    the module's state, not values of the traced call.
    """
    trace, tracing.trace = tracing.trace, None
    try:
        module.initialize_parameters(*args)
    finally:
        tracing.trace = trace
    if module.has_uninitialized_params():
        raise RuntimeError(f"[{type(module).__name__}] module has not been fully initialized")
    module._initialize_hook.remove()
    del module._initialize_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyModuleMixin:
    """Shared machinery of the lazy layers (put it first among the bases).

    Example:
        >>> m = gt.nn.LazyLinear(2)
        >>> m.has_uninitialized_params()
        True
        >>> _ = m(gt.randn(3, 5))
        >>> type(m).__name__, m.weight.shape
        ('Linear', (2, 5))
    """

    cls_to_become: type[Module] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters)  # type: ignore[attr-defined]

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer still waits for its shape."""
        tensors = chain(self._parameters.values(), self._buffers.values())  # type: ignore[attr-defined]
        return any(isinstance(t, UninitializedTensorMixin) for t in tensors)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Materialize the parameters from the first input (each lazy layer defines it)."""
        raise TypeError(f"[{type(self).__name__}] does not define initialize_parameters()")

    def reset_parameters(self) -> None:
        """Initialize as the eager layer does, once the parameters have their shapes."""
        tensors = chain(self._parameters.values(), self._buffers.values())  # type: ignore[attr-defined]
        if self.has_uninitialized_params() or any(t is not None and t.ndim and not t.numel()
                                                   for t in tensors):
            return
        super().reset_parameters()  # type: ignore[misc]


class LazyLinear(LazyModuleMixin, Linear):
    """:class:`Linear` whose ``in_features`` is the first input's last dim.

    Example:
        >>> gt.nn.LazyLinear(3)(gt.randn(2, 4)).shape
        (2, 3)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:
        """Materialize ``(out_features, input.shape[-1])`` weights and initialize them."""
        if not self.has_uninitialized_params():
            self.in_features = int(self.weight.shape[1])
            return
        with no_grad():
            self.in_features = int(input.shape[-1])
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    transposed = False

    def _lazy_setup(self, out_channels: int, bias: bool, device: Any, dtype: Any) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def _in_channels(self, input: Tensor) -> int:
        n = len(self.kernel_size)  # type: ignore[attr-defined]
        if input.ndim not in (n + 1, n + 2):
            raise ShapeError(f"[{type(self).__name__}] expected a {n + 1}-D or {n + 2}-D "
                             f"input, got shape {input.shape}")
        return int(input.shape[1] if input.ndim == n + 2 else input.shape[0])

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:
        """Materialize the weights for the first input's channels and initialize them."""
        if not self.has_uninitialized_params():
            w = self.weight  # type: ignore[attr-defined]
            self.in_channels = int(w.shape[0] if self.transposed else w.shape[1] * self.groups)  # type: ignore[attr-defined]
            return
        c_in, c_out, g = self._in_channels(input), self.out_channels, self.groups  # type: ignore[attr-defined]
        if c_in % g:
            raise ValueError(f"[{type(self).__name__}] in_channels ({c_in}) must be divisible "
                             f"by groups ({g})")
        k = tuple(self.kernel_size)  # type: ignore[attr-defined]
        shape = (c_in, c_out // g, *k) if self.transposed else (c_out, c_in // g, *k)
        with no_grad():
            self.in_channels = c_in
            self.weight.materialize(shape)  # type: ignore[attr-defined]
            if self.bias is not None:  # type: ignore[attr-defined]
                self.bias.materialize((c_out,))  # type: ignore[attr-defined]
            self.reset_parameters()


class _LazyConv(_LazyConvMixin):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device, dtype)
        self._lazy_setup(out_channels, bias, device, dtype)


class _LazyConvTranspose(_LazyConvMixin):
    transposed = True

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, device, dtype)
        self._lazy_setup(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """:class:`Conv1d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConv1d(4, 3)(gt.randn(1, 2, 8)).shape
        (1, 4, 6)
    """

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """:class:`Conv2d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConv2d(4, 3)(gt.randn(1, 2, 5, 5)).shape
        (1, 4, 3, 3)
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """:class:`Conv3d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConv3d(4, 2)(gt.randn(1, 2, 3, 3, 3)).shape
        (1, 4, 2, 2, 2)
    """

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """:class:`ConvTranspose1d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConvTranspose1d(2, 2, stride=2)(gt.randn(1, 4, 3)).shape
        (1, 2, 6)
    """

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """:class:`ConvTranspose2d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConvTranspose2d(2, 2, stride=2)(gt.randn(1, 4, 3, 3)).shape
        (1, 2, 6, 6)
    """

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """:class:`ConvTranspose3d` whose ``in_channels`` is read from the first input.

    Example:
        >>> gt.nn.LazyConvTranspose3d(2, 2, stride=2)(gt.randn(1, 4, 1, 2, 2)).shape
        (1, 2, 2, 4, 4)
    """

    cls_to_become = ConvTranspose3d


class _LazyNormMixin(LazyModuleMixin):
    _unbatched_ndim: int | None = None

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.register_buffer("running_mean", UninitializedBuffer(device=device, dtype=dtype))  # type: ignore[attr-defined]
            self.register_buffer("running_var", UninitializedBuffer(device=device, dtype=dtype))  # type: ignore[attr-defined]
            self.register_buffer("num_batches_tracked", zeros((), dtype=int64, device=device))  # type: ignore[attr-defined]

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:
        """Materialize per-channel parameters and statistics for the first input."""
        unbatched = input.ndim == self._unbatched_ndim
        if input.ndim < 2 - unbatched:
            raise ShapeError(f"[{type(self).__name__}] expected an input with channels, got "
                             f"shape {input.shape}")
        self.num_features = int(input.shape[0] if unbatched else input.shape[1])
        if not self.has_uninitialized_params():
            return
        with no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                t = getattr(self, name)
                if isinstance(t, UninitializedTensorMixin):
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormMixin, BatchNorm1d):
    """:class:`BatchNorm1d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyBatchNorm1d()(gt.randn(4, 3)).shape
        (4, 3)
    """

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormMixin, BatchNorm2d):
    """:class:`BatchNorm2d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyBatchNorm2d()(gt.randn(2, 3, 2, 2)).shape
        (2, 3, 2, 2)
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormMixin, BatchNorm3d):
    """:class:`BatchNorm3d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyBatchNorm3d()(gt.randn(2, 3, 2, 2, 2)).shape
        (2, 3, 2, 2, 2)
    """

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormMixin, InstanceNorm1d):
    """:class:`InstanceNorm1d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyInstanceNorm1d()(gt.randn(2, 3, 4)).shape
        (2, 3, 4)
    """

    cls_to_become = InstanceNorm1d
    _unbatched_ndim = 2


class LazyInstanceNorm2d(_LazyNormMixin, InstanceNorm2d):
    """:class:`InstanceNorm2d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyInstanceNorm2d()(gt.randn(2, 3, 2, 2)).shape
        (2, 3, 2, 2)
    """

    cls_to_become = InstanceNorm2d
    _unbatched_ndim = 3


class LazyInstanceNorm3d(_LazyNormMixin, InstanceNorm3d):
    """:class:`InstanceNorm3d` whose ``num_features`` is read from the first input.

    Example:
        >>> gt.nn.LazyInstanceNorm3d()(gt.randn(2, 3, 2, 2, 2)).shape
        (2, 3, 2, 2, 2)
    """

    cls_to_become = InstanceNorm3d
    _unbatched_ndim = 4
