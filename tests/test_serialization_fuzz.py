"""gt.load on malformed input: every corruption raises SerializationError, never a crash."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gtensor as gt
from gtensor.errors import DeviceUnavailableError, GTensorError, SerializationError
from gtensor.serialization import MAX_DEPTH


def _blob(obj: object) -> bytes:
    buf = io.BytesIO()
    gt.save(obj, buf)
    return buf.getvalue()


def _with_header(blob: bytes, edit: Callable[[dict[str, Any]], None] | None = None,
                 text: str | None = None) -> bytes:
    """Rewrite the JSON header of a saved blob (through ``edit``, or as raw ``text``)."""
    n = int.from_bytes(blob[8:16], "little")
    if text is None:
        header = json.loads(blob[16:16 + n])
        assert edit is not None
        edit(header)
        text = json.dumps(header)
    raw = text.encode()
    raw += b" " * (-(16 + len(raw)) % 64)
    return blob[:8] + len(raw).to_bytes(8, "little") + raw + blob[16 + n:]


def _load_fails(data: bytes, match: str | None = None) -> SerializationError:
    with pytest.raises(SerializationError, match=match) as info:
        gt.load(io.BytesIO(data))
    assert str(info.value).startswith("[load] ")
    return info.value


_SAMPLE = {"w": gt.tensor([[1.5, -2.0, 3.25]]), "n": 3, "tags": ["a", (1, None)]}


def test_serialization_error_is_typed() -> None:
    assert issubclass(SerializationError, GTensorError)
    assert issubclass(SerializationError, ValueError)
    assert issubclass(SerializationError, RuntimeError)
    assert gt.serialization.SerializationError is SerializationError


def test_every_truncation_raises() -> None:
    blob = _blob(_SAMPLE)
    for end in range(len(blob)):
        _load_fails(blob[:end])


def test_every_flipped_byte_raises() -> None:
    blob = _blob(_SAMPLE)
    for i in range(len(blob)):
        bad = blob[:i] + bytes([blob[i] ^ 0xFF]) + blob[i + 1:]
        _load_fails(bad)


def _set_entry(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(header: dict[str, Any]) -> None:
        header["tensors"][0][key] = value
    return edit


@pytest.mark.parametrize("shape", [
    ["1", 3.9], [1.0, 3.0], [True, 3], [1, "3"], [-1, -3], [-3], [1, None], "13", {"a": 3},
    [2**63, 0], [2**70, 0], [2**64, 2**64], [0] * 65, [2**40, 2**40],
])
def test_bad_shapes_raise(shape: Any) -> None:
    _load_fails(_with_header(_blob([gt.ones(1, 3)]), _set_entry("shape", shape)), "tensor 0")


@pytest.mark.parametrize("key, value", [
    ("dtype", "complex64"), ("dtype", 5), ("dtype", ["float32"]),
    ("device", "tpu"), ("device", 5), ("device", None), ("device", "cuda:-1"),
    ("start", "0"), ("start", 0.0), ("start", -64), ("start", 2**80), ("start", True),
    ("nbytes", "12"), ("nbytes", 11), ("nbytes", 2**80),
    ("requires_grad", 1), ("parameter", "yes"), ("pickle", "os.system"),
])
def test_bad_entry_fields_raise(key: str, value: Any) -> None:
    _load_fails(_with_header(_blob([gt.ones(1, 3)]), _set_entry(key, value)), "tensor 0")


@pytest.mark.parametrize("edit, match", [
    (lambda h: h.update(version=True), "version"),
    (lambda h: h.update(version=1.0), "version"),
    (lambda h: h.update(version="1"), "version"),
    (lambda h: h.update(data_bytes=str(h["data_bytes"])), "tensor data"),
    (lambda h: h.update(data_crc32=str(h["data_crc32"])), "checksum"),
    (lambda h: h.update(tensors={"0": 1}), "tensor table"),
    (lambda h: h["tensors"].__setitem__(0, [1]), "malformed"),
    (lambda h: h.update(tree={"type": "tensor", "index": True}), "index"),
    (lambda h: h.update(tree={"type": "tensor", "index": 1.0}), "index"),
    (lambda h: h.update(tree={"type": "int", "value": 1.5}), "int node"),
    (lambda h: h.update(tree={"type": "float", "value": [1]}), "float node"),
    (lambda h: h.update(tree={"type": "bytes", "value": "zz"}), "bytes node"),
    (lambda h: h.update(tree={"type": "dtype", "value": "complex32"}), "dtype node"),
    (lambda h: h.update(tree={"type": "list", "items": {}}), "item list"),
    (lambda h: h.update(tree={"type": "dict", "keys": [], "values": [{"type": "none"}]}),
     "mismatched"),
    (lambda h: h.update(tree=[]), "malformed structure"),
])
def test_bad_header_values_raise(edit: Callable[[dict[str, Any]], None], match: str) -> None:
    _load_fails(_with_header(_blob([gt.ones(1, 3)]), edit), match)


def test_huge_integers_and_constants_in_the_header_raise() -> None:
    blob = _blob([gt.ones(2)])
    n = int.from_bytes(blob[8:16], "little")
    text = blob[16:16 + n].decode().rstrip()
    _load_fails(_with_header(blob, text=text.replace('"data_bytes":', '"data_bytes":' + "9" * 5000,
                                                     1)), "not valid JSON")
    _load_fails(_with_header(blob, text=text.replace('"version":1', '"version":NaN')),
                "not valid JSON")
    _load_fails(_with_header(blob, text=text.replace('"version":1', '"version":1e400')),
                "version")


def test_deep_nesting_raises() -> None:
    blob = _blob([gt.ones(2)])
    n = int.from_bytes(blob[8:16], "little")
    text = blob[16:16 + n].decode().rstrip()
    deep_json = text.replace('"tree":', '"junk":' + "[" * 100_000 + "]" * 100_000 + ',"tree":')
    _load_fails(_with_header(blob, text=deep_json), "nested too deeply")

    node: dict[str, Any] = {"type": "none"}
    for _ in range(MAX_DEPTH + 1):
        node = {"type": "list", "items": [node]}
    _load_fails(_with_header(blob, lambda h: h.update(tree=node)), "nested more than")


def test_nesting_limit_round_trips_and_save_refuses_deeper() -> None:
    obj: Any = 7
    for _ in range(MAX_DEPTH):
        obj = [obj]
    out = gt.load(io.BytesIO(_blob(obj)))
    for _ in range(MAX_DEPTH):
        out = out[0]
    assert out == 7
    with pytest.raises(ValueError, match=r"^\[save\] containers nested more than"):
        _blob([obj])
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match=r"^\[save\] containers nested more than"):
        _blob(loop)


def test_text_mode_file_objects_raise(tmp_path) -> None:
    path = tmp_path / "a.gt"
    gt.save({"w": gt.ones(3)}, path)
    for encoding in ("utf-8", "latin-1"):
        with open(path, encoding=encoding) as fh, pytest.raises(SerializationError,
                                                                match=r"^\[load\].*text mode"):
            gt.load(fh)
    with pytest.raises(SerializationError, match="text mode"):
        gt.load(io.StringIO("GTSAVE"))

    class StrReader:
        def read(self) -> str:
            return path.read_bytes().decode("latin-1")

    with pytest.raises(SerializationError, match="returned str, not bytes"):
        gt.load(StrReader())
    with open(tmp_path / "b.gt", "w") as fh, pytest.raises(TypeError,
                                                           match=r"^\[save\].*text mode"):
        gt.save({"w": gt.ones(3)}, fh)
    assert gt.load(path)["w"].tolist() == [1.0, 1.0, 1.0]


def test_bytearray_reader_loads() -> None:
    blob = _blob({"w": gt.tensor([1.0, 2.0])})

    class Reader:
        def read(self) -> bytearray:
            return bytearray(blob)

    assert gt.load(Reader())["w"].tolist() == [1.0, 2.0]


def test_missing_device_ordinal_raises_unless_mapped() -> None:
    missing = f"cuda:{gt.cuda.device_count()}"
    blob = _with_header(_blob({"w": gt.tensor([1.0, 2.0])}), _set_entry("device", missing))
    with pytest.raises(DeviceUnavailableError, match=rf"^\[load\] tensor 0 was saved on "
                       rf"{missing}, but this process has"):
        gt.load(io.BytesIO(blob))
    assert gt.load(io.BytesIO(blob), map_location="cpu")["w"].tolist() == [1.0, 2.0]
    moved = gt.load(io.BytesIO(blob), map_location={missing: "cpu"})["w"]
    assert moved.device == gt.device("cpu") and moved.tolist() == [1.0, 2.0]
    with pytest.raises(DeviceUnavailableError, match=rf"mapped to {missing}"):
        gt.load(io.BytesIO(_blob({"w": gt.ones(2)})), map_location=missing)


def test_rejected_file_allocates_nothing(device: str) -> None:
    x = gt.tensor([1.0, 2.0, 3.0], device=device)
    blob = _with_header(_blob([x, 1]), lambda h: h["tree"]["items"].append({"type": "bogus"}))
    before = gt.memory.memory_stats(x.device)["allocation.all.allocated"]
    _load_fails(blob, "unknown structure node type 'bogus'")
    assert gt.memory.memory_stats(x.device)["allocation.all.allocated"] == before


def test_shared_entry_and_tensor_in_tuple_key_round_trip(device: str) -> None:
    x = gt.tensor([1.0, 2.0], device=device)
    out = gt.load(io.BytesIO(_blob([x, x, {(1, "k"): x}])))
    assert out[0] is not out[1]  # saved one by one
    np.testing.assert_array_equal(out[2][(1, "k")].cpu().numpy(), [1.0, 2.0])
    assert out[0].device == x.device
