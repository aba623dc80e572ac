"""gt.save / gt.load: round trips, devices, the format's checks on corrupt files."""

from __future__ import annotations

import io
import json
from collections import OrderedDict

import numpy as np
import pytest

import gtensor as gt
from gtensor.serialization import MAGIC, SerializationError


def _blob(obj: object) -> bytes:
    buf = io.BytesIO()
    gt.save(obj, buf)
    return buf.getvalue()


def test_round_trip_nested(tmp_path, rng) -> None:
    a = rng.standard_normal((3, 4)).astype(np.float32)
    obj = {
        "w": gt.tensor(a),
        "ints": gt.tensor(rng.integers(-5, 5, size=(7,)), dtype=gt.int64),
        "flags": gt.tensor([True, False]),
        "half": gt.tensor(a[0], dtype=gt.float16),
        "view": gt.tensor(a).T,
        "scalar": gt.tensor(2.5, dtype=gt.float64),
        "empty": gt.zeros(0, 3),
        "meta": [1, 2.5, float("inf"), None, "s", b"\x00\xff", (gt.float32, gt.device("cpu"))],
        3: OrderedDict(b=1, a=2),
    }
    path = tmp_path / "obj.gt"
    gt.save(obj, path)
    out = gt.load(path)
    assert list(out) == list(obj)
    np.testing.assert_array_equal(out["w"].numpy(), a)
    np.testing.assert_array_equal(out["view"].numpy(), a.T)
    assert out["ints"].dtype == gt.int64 and out["ints"].tolist() == obj["ints"].tolist()
    assert out["flags"].tolist() == [True, False] and out["half"].dtype == gt.float16
    assert out["scalar"].shape == () and out["scalar"].item() == 2.5
    assert out["empty"].shape == (0, 3)
    assert out["meta"] == [1, 2.5, float("inf"), None, "s", b"\x00\xff",
                           (gt.float32, gt.device("cpu"))]
    assert isinstance(out[3], OrderedDict) and list(out[3]) == ["b", "a"]


def test_parameters_and_requires_grad() -> None:
    p = gt.nn.Parameter(gt.ones(2))
    t = gt.ones(2, requires_grad=True)
    out = gt.load(io.BytesIO(_blob([p, t, gt.ones(1)])))
    assert isinstance(out[0], gt.nn.Parameter) and out[0].requires_grad
    assert out[1].requires_grad and not out[2].requires_grad


def test_state_dict_round_trip(tmp_path) -> None:
    model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.BatchNorm1d(4))
    gt.save(model.state_dict(), tmp_path / "m.gt")
    other = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.BatchNorm1d(4))
    other.load_state_dict(gt.load(tmp_path / "m.gt"))
    for (k, v), w in zip(model.state_dict().items(), other.state_dict().values(), strict=True):
        np.testing.assert_array_equal(v.numpy(), w.numpy(), err_msg=k)


def test_devices_and_map_location(device: str) -> None:
    x = gt.arange(6, dtype=gt.float32).reshape(2, 3).to(device)
    blob = _blob({"x": x})
    assert gt.load(io.BytesIO(blob))["x"].device.type == device
    assert gt.load(io.BytesIO(blob), map_location="cpu")["x"].device.type == "cpu"
    saved = str(x.device)
    assert gt.load(io.BytesIO(blob), map_location={saved: "cpu"})["x"].device.type == "cpu"
    seen: list[str] = []
    got = gt.load(io.BytesIO(blob), map_location=lambda t, where: seen.append(where) or
                  t.to(gt.float64))["x"]
    assert seen == [saved] and got.dtype == gt.float64 and got.device.type == "cpu"
    assert got.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_rejects_unsupported_objects() -> None:
    with pytest.raises(TypeError, match=r"set at \['a'\]"):
        _blob({"a": {1, 2}})
    with pytest.raises(TypeError, match="dict key"):
        _blob({(gt.ones(1),)[0]: 1})


def test_layout() -> None:
    blob = _blob({"a": gt.ones(3)})
    n = int.from_bytes(blob[8:16], "little")
    assert blob[:8] == MAGIC and (16 + n) % 64 == 0
    header = json.loads(blob[16:16 + n])
    assert header["tensors"][0] == {"dtype": "float32", "shape": [3], "device": "cpu",
                                    "requires_grad": False, "parameter": False, "start": 0,
                                    "nbytes": 12}
    assert header["tree"]["type"] == "dict"


@pytest.mark.parametrize("mutate, message", [
    (lambda b: b[:0], "empty or truncated"),
    (lambda b: b[:12], "empty or truncated"),
    (lambda b: b"PK\x03\x04" + b[4:], "wrong magic"),
    (lambda b: b[:-5], "truncated"),
    (lambda b: b + b"\x00", "extended"),
    (lambda b: b[:8] + (10**6).to_bytes(8, "little") + b[16:], "header claims"),
    (lambda b: b[:16] + b"[" + b[17:], "not valid JSON"),
    (lambda b: b[:-1] + bytes([b[-1] ^ 0x40]), "checksum"),
])
def test_corrupt_files_raise_clear_errors(tmp_path, mutate, message) -> None:
    path = tmp_path / "bad.gt"
    path.write_bytes(mutate(_blob({"w": gt.ones(4), "n": 3})))
    with pytest.raises(SerializationError, match=message):
        gt.load(path)


def test_tampered_header_is_checked() -> None:
    blob = _blob([gt.ones(2)])
    n = int.from_bytes(blob[8:16], "little")
    header = json.loads(blob[16:16 + n])
    header["tensors"][0]["shape"] = [5]
    text = json.dumps(header).encode()
    text += b" " * (-(16 + len(text)) % 64)
    bad = blob[:8] + len(text).to_bytes(8, "little") + text + blob[16 + n:]
    with pytest.raises(SerializationError, match="claims shape"):
        gt.load(io.BytesIO(bad))
    header["tree"] = {"type": "pickle", "value": "os.system"}
    text = json.dumps(header).encode()
    bad = blob[:8] + len(text).to_bytes(8, "little") + text + blob[16 + n:]
    with pytest.raises(SerializationError, match="unknown structure node type 'pickle'"):
        gt.load(io.BytesIO(bad))
