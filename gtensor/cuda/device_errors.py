"""Raise, on the host, the errors that CUDA kernels recorded on the device.

Bounds checks on a GPU never make the host wait: a kernel that meets a bad
index records it, and the error surfaces at the next call that synchronizes
with the device anyway (``gt.cuda.synchronize()``, ``Stream.synchronize()``,
``.item()``, ``.cpu()``, ``.numpy()``), named after the op that failed, as
PyTorch's device-side asserts do. The work queued after the bad op has run
by then; the bad rows themselves read zeros and write nothing.
"""

from __future__ import annotations

from ..kernels import is_loaded, lookup


def raise_pending() -> None:
    """Raise the first error a CUDA kernel recorded since the last check, if any.

    Call it after synchronizing with the device.

    Example:
        >>> raise_pending()
    """
    if not is_loaded("cuda"):
        return
    error = lookup("take_device_error", "cuda", ())()
    if error is not None:
        raise error
