"""Discrete Fourier transforms with PyTorch's names and signatures (``torch.fft``).

Transforms run through NumPy's pocketfft on host memory (the cpu and the
simulated cuda device) and CuPy's cuFFT on a GPU; they are differentiable
(PyTorch's conventions for complex gradients).

Example:
    >>> import gtensor as gt
    >>> gt.fft.rfft(gt.ones(4)).tolist()
    [(4+0j), 0j, 0j]
"""

from .helpers import fftfreq, fftshift, ifftshift, rfftfreq
from .transforms import (
    fft,
    fft2,
    fftn,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft",
           "ifft2", "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2",
           "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn"]
