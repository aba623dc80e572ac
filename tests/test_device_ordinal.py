"""A CUDA device index beyond the device count is refused under the user's op (issue 12)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import gtensor as gt
from gtensor.cuda import runtime
from gtensor.errors import DeviceUnavailableError

BAD = runtime.device_count() + 6  # the simulator reports one device

CALLS: dict[str, Callable[[], object]] = {
    "ones": lambda: gt.ones(2, device=f"cuda:{BAD}"),
    "zeros": lambda: gt.zeros(2, device=gt.device("cuda", BAD)),
    "empty": lambda: gt.empty(2, device=BAD),
    "arange": lambda: gt.arange(3, device=f"cuda:{BAD}"),
    "linspace": lambda: gt.linspace(0, 1, 3, device=f"cuda:{BAD}"),
    "tensor": lambda: gt.tensor([1.0], device=f"cuda:{BAD}"),
    "as_tensor": lambda: gt.as_tensor([1.0], device=f"cuda:{BAD}"),
    "to": lambda: gt.ones(2).to(f"cuda:{BAD}"),
    "to_kwarg": lambda: gt.ones(2).to(device=f"cuda:{BAD}", dtype=gt.float64),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_invalid_device_ordinal_names_the_op(call):
    op = call.removesuffix("_kwarg")
    with pytest.raises(DeviceUnavailableError,
                       match=rf"^\[{op}\] invalid device ordinal: cuda:{BAD} "):
        CALLS[call]()


def test_tensor_cuda_with_a_bad_index_is_refused():
    with pytest.raises(DeviceUnavailableError, match=r"^\[to\] invalid device ordinal"):
        gt.ones(2).cuda(BAD)


def test_existing_ordinal_and_device_objects_still_work():
    assert gt.device(f"cuda:{BAD}").index == BAD  # describing a device is not using it
    last = runtime.device_count() - 1
    t = gt.ones(2, device=f"cuda:{last}")
    assert t.device == gt.device("cuda", last) and t.tolist() == [1.0, 1.0]
    assert gt.arange(2.0).to(f"cuda:{last}").tolist() == [0.0, 1.0]
