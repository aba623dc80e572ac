"""``gt.save`` / ``gt.load``: tensors, state dicts and nested containers, never pickled code.

File format (version 1), all integers little endian::

    offset 0    8 bytes   magic b"GTSAVE\\x00\\x01"
    offset 8    8 bytes   u64: header length H
    offset 16   H bytes   header: UTF-8 JSON object (padded with spaces)
    16 + H      D bytes   tensor data: raw element bytes, C order, little endian

``16 + H`` is a multiple of 64 and every tensor starts at a multiple of 64
inside the data section. The header holds::

    {"format": "gtensor", "version": 1,
     "data_bytes": D, "data_crc32": <zlib.crc32 of the data section>,
     "tensors": [{"dtype": "float32", "shape": [2, 3], "device": "cpu",
                  "requires_grad": false, "parameter": false,
                  "start": 0, "nbytes": 24}, ...],
     "tree": <node>}

and ``tree`` describes the saved object with these nodes (``type`` key)::

    {"type": "tensor", "index": i}           entry i of "tensors"
    {"type": "none"} | {"type": "bool", "value": b} | {"type": "int", "value": n}
    {"type": "float", "value": x}            x a number, or "nan" / "inf" / "-inf"
    {"type": "str", "value": s} | {"type": "bytes", "value": "<hex>"}
    {"type": "dtype", "value": "float32"} | {"type": "device", "value": "cuda:0"}
    {"type": "list" | "tuple", "items": [node, ...]}
    {"type": "dict" | "ordered_dict", "keys": [node, ...], "values": [node, ...]}

Loading only interprets this data (no ``pickle``, no imports), so a file
can never run code. A wrong magic, a header that is not valid JSON or does
not follow the schema, a size that does not match, or a checksum mismatch
raises :class:`SerializationError` saying what is wrong. Tensors are saved
one by one: two views of one storage load as two independent tensors.
"""

from __future__ import annotations

import json
import math
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import IO, Any, Union

import numpy as np

from .device import DeviceLike, device, resolve
from .dtypes import ALL_DTYPES, as_dtype, dtype
from .errors import GTensorError
from .tensor import Tensor

MAGIC = b"GTSAVE\x00\x01"
VERSION = 1
_ALIGN = 64
_DTYPE_NAMES = {d.name for d in ALL_DTYPES}

FileLike = Union[str, "os.PathLike[str]", IO[bytes]]  # noqa: UP007 - a runtime alias
MapLocation = Union[DeviceLike, dict[str, DeviceLike], Callable[[Tensor, str], Tensor], None]  # noqa: UP007


class SerializationError(GTensorError, ValueError):
    """A file is not a valid gtensor save file (corrupt, truncated or another format)."""


def _pad(n: int) -> int:
    return -n % _ALIGN


class _Writer:
    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.chunks: list[bytes] = []
        self.size = 0

    def tensor(self, t: Tensor) -> dict[str, Any]:
        from .nn.parameter import Parameter

        host = t.detach().cpu().contiguous().numpy()  # type: ignore[attr-defined]
        raw = np.ascontiguousarray(host, dtype=host.dtype.newbyteorder("<")).tobytes()
        gap = _pad(self.size)
        if gap:
            self.chunks.append(b"\x00" * gap)
            self.size += gap
        self.entries.append({
            "dtype": t.dtype.name, "shape": list(t.shape), "device": str(t.device),
            "requires_grad": bool(t.requires_grad and t.is_leaf),
            "parameter": isinstance(t, Parameter), "start": self.size, "nbytes": len(raw)})
        self.chunks.append(raw)
        self.size += len(raw)
        return {"type": "tensor", "index": len(self.entries) - 1}

    def node(self, obj: Any, path: str) -> dict[str, Any]:
        if isinstance(obj, Tensor):
            return self.tensor(obj)
        if obj is None:
            return {"type": "none"}
        if isinstance(obj, bool):
            return {"type": "bool", "value": obj}
        if isinstance(obj, (int, np.integer)):
            return {"type": "int", "value": int(obj)}
        if isinstance(obj, (float, np.floating)):
            x = float(obj)
            return {"type": "float", "value": x if math.isfinite(x) else repr(x)}
        if isinstance(obj, str):
            return {"type": "str", "value": obj}
        if isinstance(obj, bytes):
            return {"type": "bytes", "value": obj.hex()}
        if isinstance(obj, dtype):
            return {"type": "dtype", "value": obj.name}
        if isinstance(obj, device):
            return {"type": "device", "value": str(obj)}
        if isinstance(obj, (list, tuple)):
            kind = "tuple" if isinstance(obj, tuple) else "list"
            return {"type": kind, "items": [self.node(v, f"{path}[{i}]")
                                            for i, v in enumerate(obj)]}
        if isinstance(obj, dict):
            keys, values = [], []
            for k, v in obj.items():
                if isinstance(k, (Tensor, list, dict)):
                    raise TypeError(f"[save] unsupported dict key of type {type(k).__name__} "
                                    f"at {path or 'the top level'}")
                keys.append(self.node(k, path))
                values.append(self.node(v, f"{path}[{k!r}]"))
            kind = "ordered_dict" if isinstance(obj, OrderedDict) else "dict"
            return {"type": kind, "keys": keys, "values": values}
        raise TypeError(f"[save] cannot save an object of type {type(obj).__name__} at "
                        f"{path or 'the top level'}: gtensor.save takes tensors, numbers, "
                        "strings, bytes, None, dtypes, devices and lists, tuples and dicts "
                        "of these")


def save(obj: Any, f: FileLike) -> None:
    """Save tensors, state dicts and nested lists/tuples/dicts of them to ``f``.

    Tensors on any device are written from the host; their device is recorded
    and restored by :func:`load` (unless ``map_location`` says otherwise).

    Args:
        obj: what to save (see the module docstring for the accepted types).
        f: a path, or a binary file object opened for writing.

    Example:
        >>> import gtensor as gt
        >>> gt.save({"w": gt.ones(2, 3), "step": 10}, "ckpt.gt")  # doctest: +SKIP
    """
    writer = _Writer()
    tree = writer.node(obj, "")
    data = b"".join(writer.chunks)
    header = {"format": "gtensor", "version": VERSION, "data_bytes": len(data),
              "data_crc32": zlib.crc32(data), "tensors": writer.entries, "tree": tree}
    text = json.dumps(header, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * _pad(16 + len(text))
    blob = MAGIC + len(text).to_bytes(8, "little") + text + data
    if hasattr(f, "write"):
        f.write(blob)  # type: ignore[union-attr]
        return
    with open(f, "wb") as fh:  # type: ignore[arg-type]
        fh.write(blob)


def _fail(source: str, what: str) -> SerializationError:
    return SerializationError(f"[load] {source} is not a valid gtensor file: {what}")


def _read_all(f: FileLike) -> tuple[bytes, str]:
    if hasattr(f, "read"):
        return f.read(), "the file object"  # type: ignore[union-attr]
    with open(f, "rb") as fh:  # type: ignore[arg-type]
        return fh.read(), repr(os.fspath(f))  # type: ignore[arg-type]


def _parse_header(blob: bytes, source: str) -> tuple[dict[str, Any], memoryview]:
    if len(blob) < 16:
        raise _fail(source, f"only {len(blob)} bytes, shorter than the 16-byte preamble "
                    "(empty or truncated file)")
    if blob[:8] != MAGIC:
        raise _fail(source, f"wrong magic bytes {blob[:8]!r} (expected {MAGIC!r}); it may be "
                    "another format or not a gtensor save file")
    n = int.from_bytes(blob[8:16], "little")
    if 16 + n > len(blob):
        raise _fail(source, f"the header claims {n} bytes but only {len(blob) - 16} follow "
                    "(truncated file)")
    try:
        header = json.loads(blob[16:16 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _fail(source, f"the header is not valid JSON ({e})") from None
    if not isinstance(header, dict) or header.get("format") != "gtensor":
        raise _fail(source, "the header does not describe a gtensor save file")
    if header.get("version") != VERSION:
        raise _fail(source, f"unsupported format version {header.get('version')!r} "
                    f"(this gtensor reads version {VERSION})")
    data = memoryview(blob)[16 + n:]
    expected = header.get("data_bytes")
    if not isinstance(expected, int) or expected != len(data):
        raise _fail(source, f"expected {expected} bytes of tensor data, found {len(data)} "
                    "(truncated or extended file)")
    if zlib.crc32(data) != header.get("data_crc32"):
        raise _fail(source, "the tensor data does not match its checksum (corrupt file)")
    return header, data


def _target_device(saved: str, map_location: MapLocation) -> device | None:
    if map_location is None:
        return resolve(saved)
    if isinstance(map_location, dict):
        return resolve(map_location.get(saved, saved))
    if callable(map_location):
        return None
    return resolve(map_location)


class _Reader:
    def __init__(self, header: dict[str, Any], data: memoryview, source: str,
                 map_location: MapLocation) -> None:
        self.entries = header.get("tensors")
        if not isinstance(self.entries, list):
            raise _fail(source, "the header has no tensor table")
        self.data = data
        self.source = source
        self.map_location = map_location
        self.loaded: dict[int, Tensor] = {}

    def fail(self, what: str) -> SerializationError:
        return _fail(self.source, what)

    def tensor(self, index: Any) -> Tensor:
        from .nn.parameter import Parameter
        from .ops.creation import from_numpy

        if not isinstance(index, int) or not 0 <= index < len(self.entries):  # type: ignore[arg-type]
            raise self.fail(f"tensor index {index!r} is out of range")
        if index in self.loaded:
            return self.loaded[index]
        e = self.entries[index]  # type: ignore[index]
        try:
            dt = as_dtype(e["dtype"]) if e["dtype"] in _DTYPE_NAMES else None
            shape = tuple(int(s) for s in e["shape"])
            start, nbytes, saved_dev = int(e["start"]), int(e["nbytes"]), str(e["device"])
        except (KeyError, TypeError, ValueError):
            raise self.fail(f"tensor entry {index} is malformed: {e!r}") from None
        if dt is None:
            raise self.fail(f"tensor {index} has unknown dtype {e['dtype']!r}")
        if any(s < 0 for s in shape) or nbytes != math.prod(shape) * dt.itemsize:
            raise self.fail(f"tensor {index} claims shape {shape} of {dt.name} in {nbytes} "
                            "bytes")
        if start < 0 or start + nbytes > len(self.data):
            raise self.fail(f"tensor {index} lies outside the data section")
        arr = np.frombuffer(self.data[start:start + nbytes], dtype=dt.numpy.newbyteorder("<"))
        host = from_numpy(arr.astype(dt.numpy).reshape(shape))
        dev = _target_device(saved_dev, self.map_location)
        t = self.map_location(host, saved_dev) if dev is None else host.to(dev)  # type: ignore[operator]
        if e.get("parameter"):
            t = Parameter(t, requires_grad=bool(e.get("requires_grad")))
        elif e.get("requires_grad") and t.dtype.is_floating_point:
            t.requires_grad_(True)
        self.loaded[index] = t
        return t

    def node(self, n: Any) -> Any:
        if not isinstance(n, dict) or "type" not in n:
            raise self.fail(f"malformed structure node {n!r}")
        kind = n["type"]
        value = n.get("value")
        if kind == "tensor":
            return self.tensor(n.get("index"))
        if kind == "none":
            return None
        simple: dict[str, tuple[type, Callable[[Any], Any]]] = {
            "bool": (bool, bool), "int": (int, int), "str": (str, str),
            "bytes": (str, bytes.fromhex), "dtype": (str, as_dtype), "device": (str, device)}
        if kind in simple:
            typ, convert = simple[kind]
            if not isinstance(value, typ) or (kind == "int" and isinstance(value, bool)):
                raise self.fail(f"a {kind} node holds {value!r}")
            try:
                return convert(value)
            except (TypeError, ValueError) as e:
                raise self.fail(f"a {kind} node holds {value!r} ({e})") from None
        if kind == "float":
            if isinstance(value, str) and value in ("nan", "inf", "-inf"):
                return float(value)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise self.fail(f"a float node holds {value!r}")
            return float(value)
        if kind in ("list", "tuple"):
            items = n.get("items")
            if not isinstance(items, list):
                raise self.fail(f"a {kind} node has no item list")
            out = [self.node(v) for v in items]
            return out if kind == "list" else tuple(out)
        if kind in ("dict", "ordered_dict"):
            keys, values = n.get("keys"), n.get("values")
            if not isinstance(keys, list) or not isinstance(values, list) or len(keys) != len(
                    values):
                raise self.fail(f"a {kind} node has mismatched keys and values")
            pairs = [(self.node(k), self.node(v)) for k, v in zip(keys, values, strict=True)]
            try:
                return OrderedDict(pairs) if kind == "ordered_dict" else dict(pairs)
            except TypeError:
                raise self.fail("a dict node has an unhashable key") from None
        raise self.fail(f"unknown structure node type {kind!r}")


def load(f: FileLike, map_location: MapLocation = None) -> Any:
    """Load what :func:`save` wrote.

    Args:
        f: a path, or a binary file object opened for reading.
        map_location: where tensors go: None (the device they were saved
            from), a device for all of them, a dict mapping saved device
            names to devices (``{"cuda:0": "cpu"}``), or a function
            ``fn(cpu_tensor, saved_device_name) -> tensor``.

    Returns:
        The saved object, with tensors restored (Parameters as Parameters).

    Raises:
        SerializationError: the file is corrupt, truncated or not a gtensor file.

    Example:
        >>> import gtensor as gt
        >>> state = gt.load("ckpt.gt", map_location="cpu")  # doctest: +SKIP
    """
    blob, source = _read_all(f)
    header, data = _parse_header(blob, source)
    reader = _Reader(header, data, source, map_location)
    return reader.node(header.get("tree"))
