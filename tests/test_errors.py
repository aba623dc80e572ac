import pytest

import gtensor as gt
from gtensor.errors import check, check_same_device


def test_check_builds_message_only_on_failure():
    calls = []

    def message():
        calls.append(1)
        return "bad"

    check(True, "op", message)
    assert calls == []
    with pytest.raises(gt.ShapeError, match=r"^\[op\] bad$"):
        check(False, "op", message, gt.ShapeError)
    assert calls == [1]


def test_cross_device_error_names_both_devices():
    with pytest.raises(gt.DeviceMismatchError, match=r"^\[add\] expected all tensors on the "
                       r"same device, got cpu and cuda:0"):
        check_same_device("add", gt.device("cpu"), gt.device("cuda:0"))
    assert issubclass(gt.DeviceMismatchError, RuntimeError)
    assert issubclass(gt.OutOfMemoryError, MemoryError)
    assert issubclass(gt.ShapeError, ValueError)


def test_a_dtype_without_a_kernel_is_a_typed_error(device):
    with pytest.raises(gt.DTypeError, match=r"^\[abs\] no kernel") as info:
        gt.tensor([True, False], device=device).abs()
    assert isinstance(info.value, NotImplementedError)  # what PyTorch raises there
