"""``gt.backends``: per-backend switches, one submodule per backend (as ``torch.backends``)."""

from . import cuda

__all__ = ["cuda"]
