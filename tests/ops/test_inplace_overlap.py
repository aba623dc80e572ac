"""In-place ops whose input overlaps the output read it first, as PyTorch does (issue 12)."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt


def _allocations(device: str) -> int:
    return gt.memory.memory_stats(device)["allocation.all.allocated"]


def test_add_shifted_view_of_itself(device):
    x = gt.arange(6.0, device=device)
    x[1:].add_(x[:-1])
    assert x.tolist() == [0.0, 1.0, 3.0, 5.0, 7.0, 9.0]


def test_add_own_transpose(device):
    y = gt.arange(4.0, device=device).reshape(2, 2)
    y.add_(y.T)
    assert y.tolist() == [[0.0, 3.0], [3.0, 6.0]]


def test_iadd_own_transpose(device, rng):
    a = rng.standard_normal((3, 3))
    y = gt.tensor(a, device=device)
    y += y.T
    np.testing.assert_allclose(y.cpu().numpy(), a + a.T)


def test_mul_reversed_view_of_itself(device):
    x = gt.tensor([1.0, 2.0, 3.0, 4.0], device=device)
    x.mul_(x[::-1])
    assert x.tolist() == [4.0, 6.0, 6.0, 4.0]


def test_add_broadcast_row_of_itself(device):
    m = gt.arange(6.0, device=device).reshape(2, 3)
    m.add_(m[0])
    assert m.tolist() == [[0.0, 2.0, 4.0], [3.0, 5.0, 7.0]]


def test_addcmul_shifted_view_of_itself(device):
    x = gt.tensor([1.0, 2.0, 3.0, 4.0], device=device)
    x[1:].addcmul_(x[:-1], x[:-1])
    assert x.tolist() == [1.0, 3.0, 7.0, 13.0]


def test_index_add_source_is_a_view_of_self(device):
    x = gt.tensor([1.0, 2.0, 3.0, 4.0], device=device)
    x.index_add_(0, gt.tensor([1, 0], device=device), x[:2])
    assert x.tolist() == [3.0, 3.0, 3.0, 4.0]


@pytest.mark.parametrize("dst,src,want", [
    (slice(1, None), slice(None, -1), [0.0, 0.0, 1.0, 2.0, 3.0, 4.0]),
    (slice(None, -1), slice(1, None), [1.0, 2.0, 3.0, 4.0, 5.0, 5.0]),
])
def test_copy_between_overlapping_views(device, dst, src, want):
    x = gt.arange(6.0, device=device)
    x[dst].copy_(x[src])
    assert x.tolist() == want


def test_setitem_from_overlapping_view(device):
    x = gt.arange(6.0, device=device)
    x[1:] = x[:-1]
    assert x.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0]


def test_copy_own_transpose(device, rng):
    a = rng.standard_normal((3, 3)).astype(np.float32)
    y = gt.tensor(a, device=device)
    y.copy_(y.T)
    np.testing.assert_array_equal(y.cpu().numpy(), a.T)


@pytest.mark.parametrize("op", ["add_", "mul_", "copy_"])
def test_identical_operand_needs_no_copy(device, op):
    x = gt.tensor([1.0, 2.0, 3.0], device=device)
    before = _allocations(device)
    getattr(x, op)(x)
    assert _allocations(device) == before
    want = {"add_": [2.0, 4.0, 6.0], "mul_": [1.0, 4.0, 9.0], "copy_": [1.0, 2.0, 3.0]}[op]
    assert x.tolist() == want


def test_masked_fill_with_a_mask_that_is_not_self(device):
    x = gt.tensor([1.0, -2.0, 3.0], device=device)
    x.masked_fill_(x < 0, 0.0)
    assert x.tolist() == [1.0, 0.0, 3.0]


@pytest.mark.parametrize("op,want", [
    ("index_add_", [3.0, 3.0]),
    ("index_copy_", [2.0, 1.0]),
    ("scatter_", [2.0, 1.0]),
    ("scatter_add_", [3.0, 3.0]),
])
def test_index_and_scatter_ops_reading_self_as_source(device, op, want):
    x = gt.tensor([1.0, 2.0], device=device)
    getattr(x, op)(0, gt.tensor([1, 0], device=device), x)
    assert x.tolist() == want


def test_lerp_towards_itself(device):
    x = gt.tensor([1.0, 2.0, 3.0], device=device)
    x[1:].lerp_(x[:-1], 0.5)
    assert x.tolist() == [1.0, 1.5, 2.5]
