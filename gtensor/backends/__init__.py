"""``gt.backends``: switches for the libraries gtensor's kernels call, one submodule per library.

Example:
    >>> import gtensor as gt
    >>> gt.backends.cudnn.enabled in (True, False)
    True
"""

from . import cudnn

__all__ = ["cudnn"]
