import numpy as np
import pytest

import gtensor as gt


def test_metadata(device):
    t = gt.zeros(2, 3, 4, dtype=gt.float64, device=device)
    assert t.shape == (2, 3, 4) and t.size() == (2, 3, 4) and t.size(-1) == 4
    assert t.ndim == 3 and t.dim() == 3 and t.numel() == 24 and len(t) == 2
    assert t.stride() == (12, 4, 1) and t.stride(0) == 12
    assert t.storage_offset() == 0 and t.is_contiguous()
    assert t.element_size() == 8 and t.nbytes == 192
    assert t.T.shape == (4, 3, 2) and t.mT.shape == (2, 4, 3)
    assert not t.requires_grad and t.grad is None and t.grad_fn is None and t.is_leaf
    assert t[1].data_ptr() == t.data_ptr() + 12 * 8


def test_version_counter_shared_by_views(device):
    t = gt.zeros(4, device=device)
    v = t[1:3]
    before = t._version
    v.fill_(2.0)
    assert t._version == v._version == before + 1
    t[0] = 5.0
    assert v._version == before + 2
    assert t.tolist() == [5.0, 2.0, 2.0, 0.0]


def test_requires_grad_rules():
    t = gt.zeros(2, requires_grad=True)
    assert t.requires_grad and t.is_leaf
    with pytest.raises(RuntimeError, match=r"^\[requires_grad_\] only floating point"):
        gt.zeros(2, dtype=gt.int64).requires_grad_()
    with pytest.raises(RuntimeError, match=r"^\[numpy\] can't call numpy\(\)"):
        t.numpy()
    assert t.detach().numpy().tolist() == [0.0, 0.0]


def test_scalars_and_conversions(device):
    t = gt.tensor([[2.5]], device=device)
    assert t.item() == 2.5 and float(t) == 2.5 and int(t) == 2 and bool(t)
    assert gt.tensor([1, 2, 3], device=device).tolist() == [1, 2, 3]
    with pytest.raises(RuntimeError, match=r"^\[item\] a Tensor with 3 elements"):
        gt.zeros(3, device=device).item()
    with pytest.raises(RuntimeError, match=r"^\[bool\] Boolean value of Tensor with 2"):
        bool(gt.zeros(2, device=device))
    with pytest.raises(TypeError, match=r"^\[len\]"):
        len(gt.tensor(1.0))
    assert [x.item() for x in gt.arange(3, device=device)] == [0, 1, 2]
    assert np.asarray(gt.arange(3, device=device)).tolist() == [0, 1, 2]


def test_numpy_on_cuda_is_an_error():
    t = gt.ones(2, device="cuda")
    with pytest.raises(TypeError, match=r"^\[numpy\] can't convert a cuda:0 tensor"):
        t.numpy()
    assert t.numpy(force=True).tolist() == [1.0, 1.0]


def test_numpy_keeps_storage_alive():
    arr = gt.arange(5, dtype=gt.float64).numpy()
    import gc

    gc.collect()
    other = gt.full((5,), 9.0, dtype=gt.float64)  # would reuse the block if it were freed
    assert arr.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert other.tolist() == [9.0] * 5


def test_empty_sets_every_field_as_the_constructor_does():
    from gtensor.tensor_base import TensorBase, planned_empty

    slots = [s for s in TensorBase.__slots__ if s not in ("__weakref__", "__dict__")]
    for made in (TensorBase.empty((2, 3), gt.float32, gt.device("cpu")),
                 planned_empty(24, (2, 3), (3, 1), gt.float32, gt.device("cpu"))):
        built = gt.Tensor(made._storage, (2, 3), (3, 1), 0, gt.float32)
        assert type(made) is type(built)
        assert {s: getattr(made, s) for s in slots} == {s: getattr(built, s) for s in slots}
        assert made.__dict__ == built.__dict__ == {}
    view = built[1]
    assert view._ptr == built._ptr + 3 * 4


@pytest.mark.parametrize("op, call", [
    ("item", lambda: gt.ones(2).item()), ("bool", lambda: bool(gt.ones(2))),
    ("numpy", lambda: gt.ones(2, requires_grad=True).numpy()),
    ("add_", lambda: gt.ones(2, requires_grad=True).add_(1)),
    ("add_", lambda: gt.ones(1).expand(3).add_(1)),
])
def test_refusals_are_gtensor_errors_naming_the_op(op, call):
    with pytest.raises(gt.GTensorError, match=rf"^\[{op}\] "):  # still RuntimeErrors
        call()
