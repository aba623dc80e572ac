"""Views against NumPy: shapes, strides, offsets and values for random index chains."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gtensor as gt


def _layout(a: np.ndarray, base: np.ndarray):
    item = a.itemsize
    offset = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // item
    return a.shape, tuple(s // item for s in a.strides), offset


def assert_same_view(t: gt.Tensor, a: np.ndarray, base: np.ndarray) -> None:
    shape, strides, offset = _layout(a, base)
    assert t.shape == shape
    if a.size > 1:
        assert tuple(s for s, n in zip(t.stride(), shape, strict=True) if n > 1) == tuple(
            s for s, n in zip(strides, shape, strict=True) if n > 1)
    if a.size:
        assert t.storage_offset() == offset
    np.testing.assert_array_equal(t.cpu().numpy(), a)


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)


@st.composite
def index_chain(draw, shape):
    """A chain of basic-index and view steps valid for ``shape``."""
    steps = []
    cur = list(shape)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["index", "transpose", "unsqueeze", "squeeze", "narrow",
                                     "expand", "permute", "view"]))
        if kind == "index" and cur:
            items = []
            for n in cur[: draw(st.integers(1, len(cur)))]:
                if draw(st.booleans()) and draw(st.booleans()):
                    items.append(None)  # a new axis, consuming no dim
                choice = draw(st.sampled_from(["int", "slice", "all"]))
                if choice == "int" and n > 0:
                    items.append(draw(st.integers(-n, n - 1)))
                elif choice == "slice":
                    start = draw(st.none() | st.integers(-n - 1, n))
                    stop = draw(st.none() | st.integers(-n - 1, n))
                    step = draw(st.sampled_from([None, 1, 2, -1, -2, 3]))
                    items.append(slice(start, stop, step))
                else:
                    items.append(slice(None))
            if draw(st.booleans()):
                items.append(Ellipsis)  # the remaining dims
            steps.append(("index", tuple(items)))
            probe = np.empty(cur)[tuple(items)]
            cur = list(probe.shape)
        elif kind == "transpose" and len(cur) >= 2:
            d0, d1 = draw(st.integers(0, len(cur) - 1)), draw(st.integers(0, len(cur) - 1))
            steps.append(("transpose", (d0, d1)))
            cur[d0], cur[d1] = cur[d1], cur[d0]
        elif kind == "permute" and cur:
            perm = draw(st.permutations(range(len(cur))))
            steps.append(("permute", tuple(perm)))
            cur = [cur[p] for p in perm]
        elif kind == "unsqueeze":
            d = draw(st.integers(0, len(cur)))
            steps.append(("unsqueeze", d))
            cur.insert(d, 1)
        elif kind == "squeeze":
            steps.append(("squeeze", None))
            cur = [n for n in cur if n != 1]
        elif kind == "narrow" and cur and cur[0] > 0:
            start = draw(st.integers(0, cur[0] - 1))
            length = draw(st.integers(0, cur[0] - start))
            steps.append(("narrow", (start, length)))
            cur[0] = length
        elif kind == "expand" and cur:
            target = [n if n != 1 else draw(st.integers(1, 3)) for n in cur]
            steps.append(("expand", tuple(target)))
            cur = target
        elif kind == "view":
            steps.append(("reshape", (-1,)))
            cur = [int(np.prod(cur))]
    return steps


def apply_numpy(a, steps):
    for kind, arg in steps:
        if kind == "index":
            # a trailing ... keeps NumPy from returning a scalar for a full integer index
            a = a[arg] if any(i is Ellipsis for i in arg) else a[arg + (Ellipsis,)]
        elif kind == "transpose":
            a = np.swapaxes(a, *arg)
        elif kind == "permute":
            a = np.transpose(a, arg)
        elif kind == "unsqueeze":
            a = np.expand_dims(a, arg)
        elif kind == "squeeze":
            a = np.squeeze(a)
        elif kind == "narrow":
            a = a[arg[0]:arg[0] + arg[1]]
        elif kind == "expand":
            a = np.broadcast_to(a, arg)
        elif kind == "reshape":
            a = a.reshape(arg)
    return a


def apply_gtensor(t, steps):
    for kind, arg in steps:
        if kind == "index":
            t = t[arg]
        elif kind == "transpose":
            t = t.transpose(*arg)
        elif kind == "permute":
            t = t.permute(*arg)
        elif kind == "unsqueeze":
            t = t.unsqueeze(arg)
        elif kind == "squeeze":
            t = t.squeeze()
        elif kind == "narrow":
            t = t.narrow(0, *arg)
        elif kind == "expand":
            t = t.expand(*arg)
        elif kind == "reshape":
            t = t.reshape(arg)
    return t


@st.composite
def shape_and_chain(draw):
    shape = draw(shapes)
    return shape, draw(index_chain(shape))


def _is_view_of(a: np.ndarray, base: np.ndarray) -> bool:
    """Whether NumPy's ``a`` views ``base``'s memory (also when empty, where sharing can't show).

    A chain that copied on the way (a reshape no view can express) ends in a view of the
    copy, as in PyTorch, even if it ends empty.
    """
    owner = base if base.base is None else base.base
    return np.shares_memory(a, base) or a.base is owner


@pytest.mark.parametrize("dev,examples", [("cpu", 150), ("cuda", 25)])
def test_random_view_chains_match_numpy(dev, examples):
    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(shape_and_chain())
    def check(case):
        shape, steps = case
        base = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        a = apply_numpy(base, steps)
        t0 = gt.tensor(base, device=dev)
        t = apply_gtensor(t0, steps)
        if _is_view_of(a, base):
            assert t._storage is t0._storage
        if dev == "cpu" and np.shares_memory(a, base):
            assert_same_view(t, a, base)
        np.testing.assert_array_equal(t.cpu().numpy(), a)

    check()


def test_write_through_view_is_seen_by_base(device):
    base = gt.zeros(3, 4, device=device)
    base[1:, ::2] = 7.0
    base.T[0] = gt.tensor([1.0, 2.0, 3.0], device=device)
    expected = np.zeros((3, 4), np.float32)
    expected[1:, ::2] = 7.0
    expected.T[0] = [1, 2, 3]
    np.testing.assert_array_equal(base.cpu().numpy(), expected)
    row = base[2]
    row.fill_(-1.0)
    assert base[2].tolist() == [-1.0] * 4


def test_view_reshape_rules(device):
    t = gt.arange(12, device=device).view(3, 4)
    assert t.view(-1, 6).shape == (2, 6)
    assert t.view(2, 2, 3).stride() == (6, 3, 1)
    tt = t.T
    with pytest.raises(gt.ShapeError, match=r"^\[view\] view size \(12,\) is not compatible"):
        tt.view(12)
    r = tt.reshape(12)  # needs a copy
    assert r._storage is not t._storage
    assert r.tolist() == np.arange(12).reshape(3, 4).T.reshape(12).tolist()
    assert t.reshape(6, 2)._storage is t._storage  # a view when possible
    with pytest.raises(gt.ShapeError, match=r"^\[view\] shape \(5, -1\) is invalid for input of"):
        t.view(5, -1)
    with pytest.raises(gt.ShapeError, match=r"^\[view\] shape \(3, 5\) is invalid for input of"
                       r" size 12"):
        t.view(3, 5)
    with pytest.raises(gt.ShapeError, match=r"only one dimension can be inferred"):
        t.view(-1, -1)


def test_view_ops(device):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = gt.tensor(a, device=device)
    np.testing.assert_array_equal(t.permute(2, 0, 1).cpu().numpy(), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(t.flatten(1).cpu().numpy(), a.reshape(2, 12))
    np.testing.assert_array_equal(t.unflatten(2, (2, 2)).cpu().numpy(), a.reshape(2, 3, 2, 2))
    np.testing.assert_array_equal(t.narrow(2, 1, 2).cpu().numpy(), a[:, :, 1:3])
    np.testing.assert_array_equal(t[..., None, 1].cpu().numpy(), a[..., None, 1])
    parts = t.unbind(1)
    assert len(parts) == 3 and all(p._storage is t._storage for p in parts)
    np.testing.assert_array_equal(parts[2].cpu().numpy(), a[:, 2])
    assert t[:, :1].squeeze(1).shape == (2, 4) and t.squeeze().shape == (2, 3, 4)
    assert t.unsqueeze(-1).shape == (2, 3, 4, 1)
    e = gt.tensor([[1.0], [2.0]], device=device).expand(2, 3)
    assert e.stride() == (1, 0) and e.tolist() == [[1, 1, 1], [2, 2, 2]]
    assert gt.ones(3, device=device).broadcast_to((2, 3)).shape == (2, 3)
    assert t.flatten().shape == (24,) and gt.tensor(3.0).flatten().shape == (1,)


@pytest.mark.parametrize("call,err,msg", [
    (lambda t: t.permute(0, 0, 1), gt.ShapeError, r"^\[permute\]"),
    (lambda t: t.transpose(0, 3), IndexError, r"^\[transpose\] dimension out of range"),
    (lambda t: t.expand(3, 3), gt.ShapeError, r"^\[expand\] the number of sizes"),
    (lambda t: t.expand(5, 3, 4), gt.GTensorError, r"^\[expand\] cannot broadcast"),
    (lambda t: t.broadcast_to((4,)), gt.ShapeError, r"^\[broadcast_to\]"),
    (lambda t: t.narrow(0, 1, 5), IndexError, r"^\[narrow\] start \(1\) \+ length \(5\)"),
    (lambda t: t[2], IndexError, r"^\[getitem\] index 2 is out of bounds for dimension 0"),
    (lambda t: t[0, 0, 0, 0], IndexError, r"^\[getitem\] too many indices"),
    (lambda t: t[..., ...], IndexError, r"^\[getitem\] an index can only have a single"),
    (lambda t: t[::0], IndexError, r"^\[getitem\] invalid slice .*step cannot be zero"),
    (lambda t: t[1.5:], IndexError, r"^\[getitem\] invalid slice"),
    (lambda t: t.unflatten(1, (2, 2)), gt.ShapeError, r"^\[unflatten\]"),
])
def test_view_errors(call, err, msg):
    t = gt.zeros(2, 3, 4)
    with pytest.raises(err, match=msg):
        call(t)


@pytest.mark.parametrize("op,call", [
    ("narrow", lambda t: t.narrow(0, 0, 1)), ("unbind", lambda t: t.unbind(0)),
    ("unflatten", lambda t: t.unflatten(0, (1,))), ("size", lambda t: t.size(-1)),
    ("stride", lambda t: t.stride(0)), ("split", lambda t: t.split(1)),
    ("chunk", lambda t: t.chunk(2)), ("roll", lambda t: t.roll(1, 0)),
    ("repeat_interleave", lambda t: t.repeat_interleave(2, dim=0)),
])
def test_ops_that_need_a_sized_dim_refuse_a_0d_tensor(op, call):
    with pytest.raises(IndexError, match=rf"^\[{op}\] dimension specified as -?[01] but tensor"):
        call(gt.tensor(1.5))


def test_flip_and_movedim_of_a_0d_tensor_keep_it(device):
    t = gt.tensor(1.5, device=device)
    assert t.flip(0).item() == t.flip(-1).item() == t.movedim(0, -1).item() == 1.5
    assert [c.shape for c in gt.zeros(0, 2, device=device).chunk(3)] == [(0, 2)] * 3


def test_sizes_by_keyword_as_torch_takes_them(device):
    torch = pytest.importorskip("torch")
    calls = {
        "zeros": lambda m, x: m.zeros(size=(2, 3)), "ones": lambda m, x: m.ones(size=(2,)),
        "empty": lambda m, x: m.empty(size=(2,)), "rand": lambda m, x: m.rand(size=(1, 2)),
        "randn": lambda m, x: m.randn(size=(3,)), "view": lambda m, x: x.view(size=(6,)),
        "reshape": lambda m, x: m.reshape(x, shape=(3, 2)),
        "permute": lambda m, x: x.permute(dims=(1, 0)),
        "expand": lambda m, x: x[:1].expand(size=(4, 3)),
        "repeat": lambda m, x: x.repeat(repeats=(2, 1)), "tile": lambda m, x: m.tile(x, dims=(2,)),
    }
    for name, call in calls.items():
        got = call(gt, gt.arange(6.0, device=device).view(2, 3))
        want = call(torch, torch.arange(6.0).view(2, 3))
        assert got.shape == tuple(want.shape), name
        if name not in ("empty", "rand", "randn"):
            assert got.tolist() == want.tolist(), name
    with pytest.raises(TypeError, match=r"^\[zeros\] got sizes both spread out and as the "):
        gt.zeros(2, size=(2,))
