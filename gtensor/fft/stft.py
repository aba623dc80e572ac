"""The short-time Fourier transform and its inverse (PyTorch's ``stft``/``istft``), composed of
``unfold``, ``rfft``/``fft`` and an overlap-add by ``index_add``, so both are differentiable
on every device.

Frames start every ``hop_length`` samples; each is multiplied by ``window`` (zero-padded
to ``n_fft`` around its centre) and transformed. ``istft`` inverts it by windowed
overlap-add, divided by the summed squared window (which must not vanish).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import DTypeError, ShapeError, check
from ..ops.complex_ops import view_as_real
from ..ops.creation import arange, ones, zeros
from ..ops.indexing.along_dim import index_add
from ..ops.layout.copies import pad
from ..tensor_base import TensorBase
from .transforms import fft, ifft, irfft, rfft

if TYPE_CHECKING:
    from ..tensor import Tensor


def _window(op: str, window: Tensor | None, n_fft: int, win_length: int | None, like: Tensor
            ) -> Tensor:
    """The window, zero-padded to ``n_fft`` samples around its centre."""
    length = n_fft if win_length is None else win_length
    check(0 < length <= n_fft, op, lambda: f"expected 0 < win_length <= n_fft, got "
          f"win_length={length}, n_fft={n_fft}", ValueError)
    if window is None:
        window = ones(length, dtype=like.dtype.real_dtype, device=like.device)
    check(window.ndim == 1 and window.shape[0] == length, op, lambda: f"expected a 1-D window "
          f"of win_length={length} samples, got shape {tuple(window.shape)}", ShapeError)
    left = (n_fft - length) // 2
    return pad(window, (left, n_fft - length - left)) if length < n_fft else window


def stft(input: Tensor, n_fft: int, hop_length: int | None = None,
         win_length: int | None = None, window: Tensor | None = None, center: bool = True,
         pad_mode: str = "reflect", normalized: bool = False, onesided: bool | None = None,
         return_complex: bool | None = None) -> Tensor:
    """The short-time Fourier transform of a signal ``(L,)`` or batch of signals ``(B, L)``.

    Args:
        input: the signals (real or complex).
        n_fft: the frame (and transform) length.
        hop_length: samples between frame starts (default ``n_fft // 4``).
        win_length: the window's length, at most ``n_fft`` (default ``n_fft``).
        window: a 1-D window of ``win_length`` samples (default all ones).
        center: pad ``n_fft // 2`` samples on both sides (with ``pad_mode``) so that frame
            ``t`` is centred on sample ``t * hop_length``.
        pad_mode: ``"reflect"``, ``"constant"``, ``"replicate"`` or ``"circular"``.
        normalized: scale by ``n_fft ** -0.5``.
        onesided: keep only the ``n_fft // 2 + 1`` non-negative frequencies (the default
            for a real signal and window; not allowed for complex ones).
        return_complex: must be given for a real signal; False returns the real and
            imaginary parts in a last dim of 2 (``view_as_real``).

    Returns:
        ``(B?, n_freq, n_frames)`` complex.

    Example:
        >>> gt.stft(gt.ones(8), 4, return_complex=True).shape
        (3, 9)
    """
    check(isinstance(input, TensorBase) and input.ndim in (1, 2), "stft",
          lambda: f"expected a 1-D or 2-D tensor, got "
          f"{tuple(input.shape) if isinstance(input, TensorBase) else type(input).__name__}",
          ShapeError)
    is_complex = input.dtype.is_complex or (window is not None and window.dtype.is_complex)
    check(return_complex is not None or is_complex, "stft", "return_complex must be given "
          "for real inputs (return_complex=True)", ValueError)
    check(input.dtype.is_floating_point or input.dtype.is_complex, "stft",
          lambda: f"expected a floating point or complex signal, got {input.dtype.name}",
          DTypeError)
    check(n_fft > 0, "stft", lambda: f"n_fft must be positive, got {n_fft}", ValueError)
    hop = n_fft // 4 if hop_length is None else hop_length
    check(hop > 0, "stft", lambda: f"hop_length must be positive, got {hop}", ValueError)
    one = onesided if onesided is not None else not is_complex
    check(not (one and is_complex), "stft", "onesided is not allowed for a complex signal or "
          "window", ValueError)
    x = input if input.ndim == 2 else input.unsqueeze(0)  # type: ignore[attr-defined]
    if center:
        half = n_fft // 2
        x = pad(x.unsqueeze(1), (half, half), mode=pad_mode).squeeze(1)  # type: ignore[attr-defined]
    check(n_fft <= x.shape[-1], "stft", lambda: f"n_fft={n_fft} exceeds the "
          f"{'padded ' if center else ''}signal length {x.shape[-1]}", ShapeError)
    frames = x.unfold(-1, n_fft, hop) * _window("stft", window, n_fft, win_length, x)  # type: ignore[attr-defined]
    norm = "ortho" if normalized else None
    spec = rfft(frames, dim=-1, norm=norm) if one else fft(frames, dim=-1, norm=norm)
    out = spec.transpose(-1, -2)  # type: ignore[attr-defined]
    out = out if input.ndim == 2 else out.squeeze(0)
    return out if return_complex is not False else view_as_real(out)


def istft(input: Tensor, n_fft: int, hop_length: int | None = None,
          win_length: int | None = None, window: Tensor | None = None, center: bool = True,
          normalized: bool = False, onesided: bool | None = None, length: int | None = None,
          return_complex: bool = False) -> Tensor:
    """The inverse of :func:`stft` by windowed overlap-add.

    Args:
        input: ``(B?, n_freq, n_frames)`` complex, as :func:`stft` returns.
        n_fft, hop_length, win_length, window, center, normalized: as given to :func:`stft`.
        onesided: whether ``input`` holds only the non-negative frequencies (default:
            ``n_freq != n_fft``).
        length: the signal length to return (trimmed or zero-padded).
        return_complex: return a complex signal (needs ``onesided=False``).

    Returns:
        ``(B?, length)``: the signal.

    Example:
        >>> x = gt.arange(8.0); w = gt.hann_window(4)
        >>> s = gt.stft(x, 4, 1, window=w, return_complex=True)
        >>> [round(v, 4) for v in gt.istft(s, 4, 1, window=w, length=8).tolist()]
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    """
    check(isinstance(input, TensorBase) and input.ndim in (2, 3) and input.dtype.is_complex,
          "istft", lambda: "expected a 2-D or 3-D complex tensor, got "
          f"{tuple(input.shape)} {input.dtype.name}" if isinstance(input, TensorBase)
          else f"expected a tensor, got {type(input).__name__}", ShapeError)
    hop = n_fft // 4 if hop_length is None else hop_length
    spec = input if input.ndim == 3 else input.unsqueeze(0)  # type: ignore[attr-defined]
    n_freq, n_frames = spec.shape[-2:]
    one = n_freq != n_fft if onesided is None else onesided
    check(n_freq == (n_fft // 2 + 1 if one else n_fft), "istft", lambda: f"expected "
          f"{n_fft // 2 + 1 if one else n_fft} frequencies for n_fft={n_fft}, got {n_freq}",
          ShapeError)
    check(not (one and return_complex), "istft", "return_complex needs onesided=False",
          ValueError)
    norm = "ortho" if normalized else "backward"
    cols = spec.transpose(-1, -2)  # type: ignore[attr-defined]
    if return_complex:
        frames = ifft(cols, n=n_fft, dim=-1, norm=norm)
    else:  # a real signal: as PyTorch, only the non-negative frequencies are read
        frames = irfft(cols[..., :n_fft // 2 + 1], n=n_fft, dim=-1, norm=norm)
    win = _window("istft", window, n_fft, win_length, frames)
    frames = frames * win
    total = n_fft + hop * (n_frames - 1)
    positions = (arange(n_frames, device=spec.device).unsqueeze(1) * hop
                 + arange(n_fft, device=spec.device)).reshape(-1)  # type: ignore[attr-defined]
    batch = spec.shape[0]
    signal = index_add(zeros(batch, total, dtype=frames.dtype, device=spec.device), 1,
                       positions, frames.reshape(batch, -1))
    envelope = index_add(zeros(total, dtype=win.dtype, device=spec.device), 0, positions,
                         (win * win).expand(n_frames, n_fft).reshape(-1))  # type: ignore[attr-defined]
    start = n_fft // 2 if center else 0
    end = total - (n_fft // 2 if center else 0) if length is None else min(start + length,
                                                                             total)
    envelope = envelope[start:end]
    low = float(envelope.abs().amin().item()) if envelope.numel() else 1.0  # type: ignore[attr-defined]
    check(low > 1e-11, "istft", "window overlap add min: the summed squared window vanishes "
          "somewhere (choose another window or hop_length)", ValueError)
    out = signal[:, start:end] / envelope
    if length is not None and out.shape[-1] < length:
        out = pad(out, (0, length - out.shape[-1]))
    return out if input.ndim == 3 else out.squeeze(0)
