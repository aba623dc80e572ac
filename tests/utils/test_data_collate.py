"""default_collate against torch.utils.data.default_collate: values, dtypes, containers, errors."""

from collections import namedtuple

import numpy as np
import pytest

import gtensor as gt
from gtensor.utils.data import default_collate

tdata = pytest.importorskip("torch.utils.data")
torch = pytest.importorskip("torch")

Point = namedtuple("Point", "x label")


def _plain(b):
    """Both libraries' batches as comparable Python values (tensors: dtype name, values)."""
    if isinstance(b, gt.Tensor):
        return ("tensor", b.dtype.name, b.shape, b.tolist())
    if isinstance(b, torch.Tensor):
        return ("tensor", str(b.dtype).removeprefix("torch."), tuple(b.shape), b.tolist())
    if isinstance(b, dict):
        return {k: _plain(v) for k, v in b.items()}
    if isinstance(b, (list, tuple)):
        return (type(b).__name__, [_plain(v) for v in b])
    return b


def _samples(make):
    """The same samples built with ``make`` (gt.tensor or torch.tensor) for the tensor fields."""
    return [
        [make([1.0, 2.0]), make([3.0, 4.0])],
        [1.5, 2.0],
        [3, 4],
        [True, False],
        [np.float32(0.5), np.float32(1.5)],
        [np.arange(3, dtype=np.int16), np.arange(3, 6, dtype=np.int16)],
        ["a", "b"],
        [{"x": make([1]), "y": 2.0}, {"x": make([3]), "y": 4.0}],
        [(make([1.0]), 0), (make([2.0]), 1)],
        [[1, "p"], [2, "q"]],
        [Point(make([1.0]), 0), Point(make([2.0]), 1)],
        [{"nest": (np.array(1.0), [True])}, {"nest": (np.array(2.0), [False])}],
    ]


def test_matches_torch(device):
    got = _samples(lambda v: gt.tensor(v, device=device))
    want = _samples(torch.tensor)
    for g, w in zip(got, want, strict=True):
        out = default_collate(g)
        assert _plain(out) == _plain(tdata.default_collate(w))
    assert default_collate(got[0]).device.type == device
    assert isinstance(default_collate(got[10]), Point)


def test_errors_match_torch():
    for batch in ([object(), object()], [np.array(["a"]), np.array(["b"])],
                  [[1, 2], [3]]):
        with pytest.raises(Exception) as want:
            tdata.default_collate(batch)
        with pytest.raises(want.type):
            default_collate(batch)
