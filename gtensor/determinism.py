"""``use_deterministic_algorithms``: make ops without a deterministic CUDA implementation
raise (or warn), as PyTorch does.

On a CUDA device, gtensor's floating point scatter-adds (``scatter_add_``, ``index_add_``,
``index_put_(accumulate=True)``, ``scatter_reduce`` with ``sum``/``mean``, and the gradients
of gathers and indexing) and ``bincount`` with weights combine values with atomics, in an
order that can differ from run to run; those consult :func:`alert_not_deterministic`.
cuDNN convolutions follow ``gt.backends.cudnn.deterministic``. Every cpu kernel is
deterministic.

Example:
    >>> import gtensor as gt
    >>> gt.are_deterministic_algorithms_enabled()
    False
"""

from __future__ import annotations

import warnings


class _State:
    enabled = False
    warn_only = False


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Make ops that have no deterministic implementation raise ``RuntimeError`` (or warn,
    with ``warn_only``) while ``mode`` is True.

    Example:
        >>> use_deterministic_algorithms(True, warn_only=True)
        >>> is_deterministic_algorithms_warn_only_enabled()
        True
        >>> use_deterministic_algorithms(False)
    """
    if not isinstance(mode, bool):
        raise TypeError(f"[use_deterministic_algorithms] mode must be a bool, got "
                        f"{type(mode).__name__}")
    _State.enabled, _State.warn_only = mode, bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` is on.

    Example:
        >>> are_deterministic_algorithms_enabled()
        False
    """
    return _State.enabled


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` only warns.

    Example:
        >>> is_deterministic_algorithms_warn_only_enabled()
        False
    """
    return _State.warn_only


def alert_not_deterministic(op: str, what: str) -> None:
    """Raise (or warn) when determinism was asked for and ``op`` is about to run ``what``,
    which has no deterministic implementation.

    Example:
        >>> alert_not_deterministic("bincount", "a weighted bincount on cuda")
    """
    if not _State.enabled:
        return
    text = (f"[{op}] {what} does not have a deterministic implementation, but "
            "use_deterministic_algorithms(True) was set")
    if _State.warn_only:
        warnings.warn(text, UserWarning, stacklevel=3)
        return
    raise RuntimeError(text)
