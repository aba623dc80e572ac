"""Shape ops that copy, against NumPy on cpu and cuda."""

import numpy as np
import pytest

import gtensor as gt


def np_(t):
    return t.cpu().numpy()


def test_cat_stack_split_chunk(device, rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 1))
    x, y = gt.tensor(a, device=device), gt.tensor(b, device=device)
    np.testing.assert_array_equal(np_(gt.cat([x, y], 1)), np.concatenate([a, b], 1))
    np.testing.assert_array_equal(np_(gt.cat([x, x.T.T], -2)), np.concatenate([a, a], 0))
    mixed = gt.cat([gt.tensor([1], device=device), gt.tensor([0.5], device=device)])
    assert mixed.dtype == gt.float32 and mixed.tolist() == [1.0, 0.5]
    np.testing.assert_array_equal(np_(gt.stack([x, x], 2)), np.stack([a, a], 2))
    parts = gt.tensor(np.arange(7), device=device).split([2, 5])
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3, 4, 5, 6]]
    assert [p.shape for p in x.split(2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in gt.ones(5, device=device).chunk(2)] == [(3,), (2,)]
    with pytest.raises(gt.ShapeError, match=r"^\[cat\] sizes of tensors must match"):
        gt.cat([x, y], 0)
    with pytest.raises(gt.ShapeError, match=r"^\[stack\] stack expects each tensor"):
        gt.stack([x, y])
    with pytest.raises(ValueError, match=r"^\[split\] split sizes"):
        x.split([1, 1], 1)
    with pytest.raises(ValueError, match=r"^\[cat\] expected a non-empty"):
        gt.cat([])


@pytest.mark.parametrize("dims", [0, (1,), (0, 2)])
def test_flip_roll(device, rng, dims):
    a = rng.standard_normal((2, 3, 4))
    x = gt.tensor(a, device=device)
    np.testing.assert_array_equal(np_(x.flip(dims)), np.flip(a, dims))
    dd = (dims,) if isinstance(dims, int) else dims
    shifts = tuple(int(s) for s in rng.integers(-5, 5, size=len(dd)))
    np.testing.assert_array_equal(np_(x.roll(shifts, dd)), np.roll(a, shifts, dd))
    np.testing.assert_array_equal(np_(x.roll(7)), np.roll(a, 7))


def test_flip_spread_dims_roll_repeated_dims_narrow_tensor_start(device):
    x = gt.arange(6, device=device).view(2, 3)
    assert x.flip(0, 1).tolist() == x.flip((0, 1)).tolist() == [[5, 4, 3], [2, 1, 0]]
    assert x.flip(dims=[1]).tolist() == [[2, 1, 0], [5, 4, 3]]
    assert x.roll((1, 1), (1, 1)).tolist() == [[1, 2, 0], [4, 5, 3]]  # shifts add up
    assert x.narrow(1, gt.tensor(1), 2).tolist() == [[1, 2], [4, 5]]
    assert gt.cat([x, x], axis=1).shape == (2, 6)  # NumPy's name for dim, as torch takes
    part = gt.narrow_copy(x, 1, 1, 2)
    assert part.tolist() == [[1, 2], [4, 5]] and part.is_contiguous()


def test_repeat_tile_repeat_interleave(device, rng):
    a = rng.integers(0, 9, size=(2, 3))
    x = gt.tensor(a, device=device)
    np.testing.assert_array_equal(np_(x.repeat(2, 1, 2)), np.tile(a, (2, 1, 2)))
    np.testing.assert_array_equal(np_(x.tile(3)), np.tile(a, 3))
    np.testing.assert_array_equal(np_(x.repeat_interleave(2)), np.repeat(a, 2))
    np.testing.assert_array_equal(np_(x.repeat_interleave(2, 1)), np.repeat(a, 2, 1))
    reps = np.array([0, 3])
    got = x.repeat_interleave(gt.tensor(reps, device=device), dim=0)
    np.testing.assert_array_equal(np_(got), np.repeat(a, reps, 0))
    with pytest.raises(gt.ShapeError, match=r"^\[repeat\] number of repeat dims"):
        x.repeat(2)
    with pytest.raises(ValueError, match=r"^\[repeat_interleave\] repeats must be >= 0"):
        x.repeat_interleave(gt.tensor([1, -1], device=device), dim=0)
    # the counts alone: their positions repeated; output_size must be the length
    assert gt.repeat_interleave(gt.tensor([2, 0, 1], device=device)).tolist() == [0, 0, 2]
    assert x.repeat_interleave(2, dim=0, output_size=4).shape == (4, 3)
    with pytest.raises(ValueError, match=r"^\[repeat_interleave\] output_size 5 is not"):
        x.repeat_interleave(2, dim=0, output_size=5)


@pytest.mark.parametrize("mode, np_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                           ("constant", "constant"), ("circular", "wrap")])
def test_pad(device, rng, mode, np_mode):
    a = rng.standard_normal((2, 3, 4))
    x = gt.tensor(a, device=device)
    got = gt.pad(x, (1, 2, 2, 0), mode=mode)
    np.testing.assert_array_equal(np_(got), np.pad(a, ((0, 0), (2, 0), (1, 2)), mode=np_mode))
    assert gt.nn.functional.pad is gt.pad


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_negative_widths_crop_as_torch(device, mode):
    torch = pytest.importorskip("torch")
    a = np.arange(10.0).reshape(1, 2, 5)
    for widths in [(-1, 2), (2, -3)]:
        want = torch.nn.functional.pad(torch.tensor(a), widths, mode=mode).numpy()
        np.testing.assert_array_equal(np_(gt.pad(gt.tensor(a, device=device), widths, mode)),
                                      want)


def test_pad_constant_value_and_crop_and_errors(device, rng):
    a = rng.standard_normal((3, 4))
    x = gt.tensor(a, device=device)
    np.testing.assert_array_equal(np_(gt.pad(x, (1, -1), value=7.0)),
                                  np.pad(a[:, :3], ((0, 0), (1, 0)), constant_values=7.0))
    with pytest.raises(ValueError, match=r"^\[pad\] reflect padding \(4, 0\) must be smaller"):
        gt.pad(x, (4, 0), mode="reflect")
    with pytest.raises(ValueError, match=r"^\[pad\] circular padding \(0, 5\) must be no"):
        gt.pad(x, (0, 5), mode="circular")
    with pytest.raises(ValueError, match=r"^\[pad\] mode must be"):
        gt.pad(x, (1, 1), mode="wrap")
    with pytest.raises(ValueError, match=r"^\[pad\] padding \(-3, -1\) leaves no elements"):
        gt.pad(x, (-3, -1), mode="replicate")
    with pytest.raises(ValueError, match=r"^\[pad\] pad must hold"):
        gt.pad(x, (1,))


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_diag_diagonal_trace(device, rng, k):
    a = rng.standard_normal((2, 3, 4))
    x = gt.tensor(a, device=device)
    np.testing.assert_array_equal(np_(x.tril(k)), np.tril(a, k))
    np.testing.assert_array_equal(np_(x.triu(k)), np.triu(a, k))
    part = x[..., :3].transpose(0, 2)  # a strided view: the kernel reads a contiguous copy
    np.testing.assert_array_equal(np_(part.tril(k)), np.tril(a[..., :3].transpose(2, 1, 0), k))
    np.testing.assert_array_equal(np_(x[0].diag(k)), np.diag(a[0], k))
    np.testing.assert_array_equal(np_(x[0, 0].diag(k)), np.diag(a[0, 0], k))
    np.testing.assert_array_equal(np_(x.diagonal(k, 1, 2)), np.diagonal(a, k, 1, 2))
    np.testing.assert_array_equal(np_(x.diagonal(k, 2, 0)), np.diagonal(a, k, 2, 0))
    np.testing.assert_allclose(x[1].trace().item(), np.trace(a[1]))
    assert gt.tensor([[1, 2], [3, 4]], device=device).trace().item() == 5
    for shape in ((0, 3), (2, 0, 3)):  # no elements: nothing to infer a batch size from
        assert gt.zeros(shape, device=device).tril(k).shape == shape
        assert gt.zeros(shape, device=device).triu_(k).shape == shape
    with pytest.raises(gt.ShapeError, match=r"^\[tril\] expected a tensor with >= 2 dims"):
        x[0, 0].tril()
    with pytest.raises(gt.ShapeError, match=r"^\[trace\] expected a 2-D tensor"):
        x.trace()


def test_meshgrid_one_hot(device, rng):
    a, b = np.arange(3), np.arange(4) * 10
    ga, gb = gt.tensor(a, device=device), gt.tensor(b, device=device)
    for indexing in ("ij", "xy"):
        for got, want in zip(gt.meshgrid(ga, gb, indexing=indexing),
                             np.meshgrid(a, b, indexing=indexing), strict=True):
            np.testing.assert_array_equal(np_(got), want)
    labels = rng.integers(0, 5, size=(2, 3))
    got = gt.one_hot(gt.tensor(labels, device=device), 6)
    np.testing.assert_array_equal(np_(got), np.eye(6, dtype=np.int64)[labels])
    assert gt.one_hot(gt.tensor([0, 2], device=device)).shape == (2, 3)
    with pytest.raises(ValueError, match=r"^\[one_hot\] class values must be smaller"):
        gt.one_hot(gt.tensor([0, 5], device=device), 3)
    with pytest.raises(ValueError, match=r"^\[one_hot\] class values must be non-negative"):
        gt.one_hot(gt.tensor([-1], device=device), 3)
    with pytest.raises(TypeError, match=r"^\[one_hot\] expected an int64"):
        gt.one_hot(gt.tensor([0.0], device=device))
