"""Complex-number methods: ``.real``/``.imag`` (views, settable), ``conj``, ``angle``, ``sgn``,
``adjoint``/``.mH``, and the short-time Fourier transforms ``stft``/``istft``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..fft import stft as spectral
from ..ops import complex_ops

if TYPE_CHECKING:
    from ..tensor import Tensor


def _set_real(self: Tensor, value: Any) -> None:
    complex_ops.real(self).copy_(value)


def _set_imag(self: Tensor, value: Any) -> None:
    complex_ops.imag(self).copy_(value)


class ComplexMethods:
    """The parts of complex tensors and the ops that take them apart."""

    __slots__ = ()

    real = property(complex_ops.real, _set_real, doc="The real parts (a view); settable.")
    imag = property(complex_ops.imag, _set_imag,
                    doc="The imaginary parts (a view) of a complex tensor; settable.")
    conj = complex_ops.conj
    conj_physical = complex_ops.conj_physical
    resolve_conj = complex_ops.resolve_conj
    is_conj = complex_ops.is_conj
    is_complex = complex_ops.is_complex
    angle = complex_ops.angle
    sgn = complex_ops.sgn
    adjoint = complex_ops.adjoint
    mH = property(complex_ops.adjoint, doc="The conjugate transpose of the last two dims.")
    stft = spectral.stft
    istft = spectral.istft
