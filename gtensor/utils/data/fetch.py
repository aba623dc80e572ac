"""How a DataLoader turns one list of sample indices into a batch, in-process or in a worker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...ops.creation import tensor
from ...tensor import Tensor
from .dataset import Subset, TensorDataset


def rows_source(ds: Any) -> tuple[TensorDataset, list[int] | None] | None:
    """The TensorDataset under ``ds`` and the map from ``ds``'s indices to its rows, if any."""
    rows: list[int] | None = None
    while isinstance(ds, Subset):
        idx = list(ds.indices)
        rows = idx if rows is None else [idx[i] for i in rows]
        ds = ds.dataset
    return (ds, rows) if isinstance(ds, TensorDataset) else None


def gather(ds: TensorDataset, rows: list[int]) -> tuple[Tensor, ...]:
    """The rows ``rows`` of every tensor of ``ds``: one ``index_select`` each."""
    index = tensor(rows, device=ds.tensors[0].device)
    return tuple(t.index_select(0, index) for t in ds.tensors)


class BatchFetcher:
    """Build the batch of a list of indices: a gather for tensor rows, else ``collate_fn``.

    Args:
        dataset: any object with ``__getitem__``.
        collate_fn: builds a batch from a list of samples.
        gather_rows: the collation is the default one, so a TensorDataset (or a
            Subset of one) may be gathered row-wise instead.

    Example:
        >>> BatchFetcher(range(10), list, False)([3, 1])
        [3, 1]
    """

    def __init__(self, dataset: Any, collate_fn: Callable[[Sequence[Any]], Any],
                 gather_rows: bool) -> None:
        self.dataset = dataset
        self.collate_fn = collate_fn
        self.source = rows_source(dataset) if gather_rows else None

    def __call__(self, batch: list[Any]) -> Any:
        if self.source is None:
            return self.collate_fn([self.dataset[i] for i in batch])
        ds, rows = self.source
        return gather(ds, batch if rows is None else [rows[i] for i in batch])
