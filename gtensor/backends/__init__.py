"""``gt.backends``: switches for the libraries gtensor's kernels call, one submodule per backend
(as ``torch.backends``).

Example:
    >>> import gtensor as gt
    >>> gt.backends.cudnn.enabled in (True, False), gt.backends.cuda.matmul.allow_tf32
    (True, False)
"""

from . import cuda, cudnn

__all__ = ["cuda", "cudnn"]
