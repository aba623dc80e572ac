"""Datasets, samplers, ``default_collate`` and the DataLoader: ``torch.utils.data``'s map-style API.

The modules, each importing only those listed before it:

- ``dataset``: the ``Dataset`` protocol, ``TensorDataset``, ``Subset``,
  ``ConcatDataset``, ``random_split``.
- ``sampler``: ``SequentialSampler``, ``RandomSampler``, ``SubsetRandomSampler``,
  ``WeightedRandomSampler``, ``BatchSampler``.
- ``distributed``: ``DistributedSampler``.
- ``collate``: ``default_collate``.
- ``fetch``: building one batch from a list of indices.
- ``worker``: the worker process loop, ``get_worker_info``.
- ``multiprocess``: the worker pool and the iterator over its batches.
- ``dataloader``: ``DataLoader``.
"""

from .collate import default_collate
from .dataloader import DataLoader
from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split
from .distributed import DistributedSampler
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from .worker import WorkerInfo, get_worker_info

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "WorkerInfo", "default_collate",
           "get_worker_info", "random_split"]
