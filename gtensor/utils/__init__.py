"""Utilities: :mod:`gtensor.utils.data` (datasets and the DataLoader) and
:mod:`gtensor.utils.checkpoint` (activation checkpointing)."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
