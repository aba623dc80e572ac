import pickle

import pytest

import gtensor as gt


def test_parse_and_compare():
    d = gt.device("cuda:1")
    assert (d.type, d.index) == ("cuda", 1)
    assert gt.device("cpu").index is None
    assert gt.device("cuda", 2) == "cuda:2"
    assert gt.device(3) == gt.device("cuda:3")
    assert str(gt.device("cuda:0")) == "cuda:0"
    assert repr(gt.device("cuda:0")) == "device(type='cuda', index=0)"
    assert hash(gt.device("cpu")) == hash(gt.device("cpu"))
    assert gt.device("cpu") != gt.device("cuda:0")


@pytest.mark.parametrize("bad", ["tpu", "cuda:x", "cpu:1", "cuda:-1"])
def test_bad_device_strings(bad):
    with pytest.raises(ValueError, match=r"^\[device\]"):
        gt.device(bad)


def test_bad_device_type():
    with pytest.raises(TypeError, match=r"^\[device\]"):
        gt.device(1.5)


def test_tensor_device(device):
    t = gt.zeros(2, device=device)
    expected = "cpu" if device == "cpu" else "cuda:0"
    assert t.device == gt.device(expected)
    assert t.is_cuda == (device == "cuda")


def test_tensors_on_one_device_share_its_object(device):
    # ops test devices by identity first; every spelling of one device resolves to one object
    spelled = "cpu" if device == "cpu" else "cuda:0"
    tensors = [gt.zeros(2, device=device), gt.ones(2, device=gt.device(spelled)),
               gt.tensor([1.0], device=spelled), gt.zeros(2, device=device) + 1,
               pickle.loads(pickle.dumps(gt.ones(2, device=device)))]
    assert len({id(t._storage.device) for t in tensors}) == 1
    assert tensors[0].device == gt.device(spelled)


def test_cuda_runtime_queries():
    assert gt.cuda.is_available()
    assert gt.cuda.device_count() >= 1
    assert gt.cuda.current_device() == 0
    gt.cuda.set_device(0)
    gt.cuda.synchronize()
    with pytest.raises(RuntimeError, match=r"^\[set_device\] invalid CUDA device index"):
        gt.cuda.set_device(gt.cuda.device_count())


def test_import_loads_no_cuda_library():
    import subprocess
    import sys

    code = ("import sys, gtensor; bad = [m for m in sys.modules if m.startswith(('cupy', "
            "'numba.cuda', 'numba_cuda'))]; print(bad); raise SystemExit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
