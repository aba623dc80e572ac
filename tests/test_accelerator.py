"""``gt.accelerator``: CUDA (the simulator here) as the accelerator, and the answers without it."""

import importlib

import pytest

import gtensor as gt
from gtensor import accelerator

device_module = importlib.import_module("gtensor.device")  # gt.device is the class


def test_with_cuda():
    assert accelerator.is_available()
    assert accelerator.current_accelerator() == gt.device("cuda")
    assert accelerator.current_accelerator(check_available=True) == gt.device("cuda")
    assert accelerator.device_count() == gt.cuda.device_count() >= 1
    assert accelerator.current_device_index() == gt.cuda.current_device() == 0
    for spec in (0, "cuda:0", "cuda", gt.device("cuda", 0), -1):
        accelerator.set_device_index(spec)
        assert accelerator.current_device_index() == 0
    assert accelerator.synchronize() is None and accelerator.synchronize("cuda:0") is None
    assert accelerator.current_stream() is gt.cuda.current_stream()
    x = gt.ones(2, device=accelerator.current_accelerator())
    assert x.device == gt.device("cuda", 0)


def test_errors():
    with pytest.raises(ValueError, match="expected a cuda device"):
        accelerator.set_device_index("cpu")
    with pytest.raises(gt.DeviceUnavailableError, match="set_device_index"):
        accelerator.set_device_index(accelerator.device_count())


def test_without_cuda(monkeypatch):
    monkeypatch.setattr(device_module, "_probe_cuda", lambda: (False, 0))
    assert not accelerator.is_available()
    assert accelerator.current_accelerator() is None
    assert accelerator.current_accelerator(check_available=True) is None
    assert accelerator.device_count() == 0
    for call in (accelerator.current_device_index, accelerator.synchronize,
                 lambda: accelerator.set_device_index(0)):
        with pytest.raises(RuntimeError, match="no CUDA device"):  # PyTorch: RuntimeError
            call()
