"""``LinAlgError`` and the messages that say why a factorization failed, as PyTorch words them.

LAPACK (and cuSOLVER) report a failure as one integer per matrix; NumPy and
CuPy turn it into a bare "Singular matrix". On that error path only, the
input is examined again on the host to name the batch element and the
leading minor or pivot at fault.
"""

from __future__ import annotations

import numpy as np

from ..errors import GTensorError


class LinAlgError(GTensorError):
    """A linear-algebra routine failed on its input (singular, not positive-definite, ...).

    A ``RuntimeError``, as ``torch.linalg.LinAlgError`` is.

    Example:
        >>> gt.linalg.inv(gt.zeros(2, 2))
        Traceback (most recent call last):
        gtensor.linalg.failures.LinAlgError: [linalg.inv] the diagonal element 1 is zero, ...
    """


def _batch_prefix(index: int, batched: bool) -> str:
    return f"(batch element {index}) " if batched else ""


def _first_zero_pivot(a: np.ndarray) -> int:
    """The 1-based index of the first zero pivot of LU with partial pivoting (0 when none)."""
    a = np.array(a, dtype=np.result_type(a.dtype, np.float64))
    n = a.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        if a[p, k] == 0:
            return k + 1
        a[[k, p]] = a[[p, k]]
        a[k + 1:, k:] -= np.outer(a[k + 1:, k] / a[k, k], a[k, k:])
    return 0


def _first_bad_minor(a: np.ndarray) -> int:
    """The order of the first leading minor that is not positive-definite (0 when none)."""
    for k in range(1, a.shape[0] + 1):
        try:
            np.linalg.cholesky(a[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return 0


def singular(op: str, a: np.ndarray, action: str) -> LinAlgError:
    """The error for a singular (batch of) matrix ``a`` found by an LU-based routine.

    ``action`` ends the message: ``"the inversion could not be completed"``.
    """
    flat = a.reshape(-1, *a.shape[-2:])
    for i, m in enumerate(flat):
        k = _first_zero_pivot(m)
        if k:
            return LinAlgError(f"[{op}] {_batch_prefix(i, a.ndim > 2)}the diagonal element {k} "
                               f"is zero, {action} because the input matrix is singular")
    return LinAlgError(f"[{op}] {action} because the input matrix is singular")


def not_positive_definite(op: str, a: np.ndarray) -> LinAlgError:
    """The error for a (batch of) matrix ``a`` whose Cholesky factorization failed."""
    flat = a.reshape(-1, *a.shape[-2:])
    for i, m in enumerate(flat):
        k = _first_bad_minor(m)
        if k:
            return LinAlgError(f"[{op}] {_batch_prefix(i, a.ndim > 2)}the input is not "
                               f"positive-definite (the leading minor of order {k} is not "
                               "positive)")
    return LinAlgError(f"[{op}] the input is not positive-definite")


def no_convergence(op: str) -> LinAlgError:
    """The error for an eigenvalue or singular value iteration that did not converge."""
    return LinAlgError(f"[{op}] the algorithm failed to converge because the input matrix is "
                       "ill-conditioned or has too many repeated eigenvalues")
