"""``gt.save`` / ``gt.load``: tensors, NumPy arrays, containers and whole modules; no pickle.

File format (version 1, or 2 when the object holds NumPy arrays or objects),
all integers little endian::

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

Version 2 adds ``"arrays": [{"dtype": "<f8", "shape": [3], "start": s,
"nbytes": n}, ...]`` (NumPy arrays, in the data section like tensors) and::

    {"type": "ndarray", "index": i}          entry i of "arrays"
    {"type": "object", "class": "pkg.mod.Cls", "id": k, "state": <dict node>}
    {"type": "ref", "id": k}                 the object with id k, saved before
    {"type": "set" | "frozenset", "items": [node, ...]}   (inside objects)

An object is its class name and its ``__dict__``; ids count up from 0 in the
order the tree lists them. Inside objects a tensor (dict keys included) is
written once and referenced again, so a model's parameters and the optimizer
holding them load as the same tensors; elsewhere tensors are saved one by
one: two views of one storage load as two independent tensors.

Loading only interprets this data (no ``pickle``, no imports), so a file
can never run code: an object's class is matched by name against the
classes :mod:`gtensor.serialization_objects` allows, made with
``cls.__new__`` and given its saved ``__dict__``. Every malformed input (a
wrong magic, a header that is not valid JSON or does not follow the schema
exactly, a size that does not match, a checksum mismatch, nesting deeper than
``MAX_DEPTH``, a file object opened in text mode) raises
:class:`~gtensor.errors.SerializationError` (a ``ValueError`` and a
``RuntimeError``) saying what is wrong; a class that may not be loaded raises
its subclass :class:`UnpicklingError`. A tensor whose target device does not
exist here raises :class:`~gtensor.errors.DeviceUnavailableError` unless
``map_location`` moves it. Nothing is allocated before the whole file has
been checked.
"""

from __future__ import annotations

import io
import json
import math
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Union

import numpy as np

from .cuda import runtime
from .device import DeviceLike, device, resolve
from .dtypes import ALL_DTYPES, as_dtype, dtype
from .errors import DeviceUnavailableError, SerializationError
from .nn.parameter import Parameter
from .serialization_objects import (
    ARRAY_DTYPES,
    INT64_LIMIT,
    MAX_NDIM,
    ArrayRef,
    Builder,
    ObjectRef,
    ObjectSpec,
    SetNode,
    TensorRef,
    UnpicklingError,
    add_safe_globals,
    check_saveable_class,
    clear_safe_globals,
    get_safe_globals,
    is_int,
    load_arrays,
    resolve_class,
    safe_globals,
    saveable,
)
from .tensor import Tensor
from .tensor_base import from_numpy

MAGIC = b"GTSAVE\x00\x01"
VERSION = 2
MAX_DEPTH = 100
"""Deepest nesting of containers and objects that :func:`save` writes and :func:`load` reads."""
_ALIGN = 64
_DTYPE_NAMES = {d.name for d in ALL_DTYPES}
_EXTENDED_KINDS = ("ndarray", "set", "frozenset", "object", "ref")

FileLike = Union[str, "os.PathLike[str]", IO[bytes]]  # noqa: UP007 - a runtime alias
MapLocation = Union[DeviceLike, dict[str, DeviceLike], Callable[[Tensor, str], Tensor], None]  # noqa: UP007

__all__ = ["MAGIC", "MAX_DEPTH", "SerializationError", "UnpicklingError", "add_safe_globals",
           "clear_safe_globals", "get_safe_globals", "load", "safe_globals", "save"]


def _pad(n: int) -> int:
    return -n % _ALIGN


def _where(path: str) -> str:
    return path or "the top level"


class _Writer:
    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.arrays: list[dict[str, Any]] = []
        self.chunks: list[bytes] = []
        self.size = 0
        self.objects: dict[int, int] = {}
        self.shared: dict[int, dict[str, Any]] = {}
        self.alive: list[Any] = []
        self.inside = 0  # how many objects the node being written lies in

    def data(self, raw: bytes) -> int:
        gap = _pad(self.size)
        if gap:
            self.chunks.append(b"\x00" * gap)
            self.size += gap
        start = self.size
        self.chunks.append(raw)
        self.size += len(raw)
        return start

    def tensor(self, t: Tensor) -> dict[str, Any]:
        if self.inside and id(t) in self.shared:
            return self.shared[id(t)]
        host = t.detach().cpu().contiguous().numpy()
        raw = np.ascontiguousarray(host, dtype=host.dtype.newbyteorder("<")).tobytes()
        self.entries.append({
            "dtype": t.dtype.name, "shape": list(t.shape), "device": str(t.device),
            "requires_grad": bool(t.requires_grad and t.is_leaf),
            "parameter": isinstance(t, Parameter), "start": self.data(raw), "nbytes": len(raw)})
        node = {"type": "tensor", "index": len(self.entries) - 1}
        if self.inside:  # one tensor in several objects (a model and its optimizer) stays one
            self.shared[id(t)] = node
            self.alive.append(t)
        return node

    def array(self, a: np.ndarray, path: str) -> dict[str, Any]:
        kind = a.dtype.newbyteorder("<").str
        if kind not in ARRAY_DTYPES:
            raise TypeError(f"[save] cannot save a NumPy array of dtype {a.dtype} at "
                            f"{_where(path)}: only bool, integer, float and complex arrays")
        raw = np.ascontiguousarray(a, dtype=kind).tobytes()
        self.arrays.append({"dtype": kind, "shape": list(a.shape), "start": self.data(raw),
                            "nbytes": len(raw)})
        return {"type": "ndarray", "index": len(self.arrays) - 1}

    def object(self, obj: Any, path: str, depth: int) -> dict[str, Any]:
        if id(obj) in self.objects:
            return {"type": "ref", "id": self.objects[id(obj)]}
        name = check_saveable_class(type(obj), _where(path))
        self.objects[id(obj)] = number = len(self.objects)
        self.alive.append(obj)
        self.inside += 1
        state = self.node(dict(vars(obj)), f"{path}.__dict__", depth + 1)
        self.inside -= 1
        return {"type": "object", "class": name, "id": number, "state": state}

    def node(self, obj: Any, path: str, depth: int = 0) -> dict[str, Any]:
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
        if isinstance(obj, np.ndarray):
            return self.array(obj, path)
        sets = (set, frozenset) if self.inside else ()
        kinds = (list, tuple, dict, *sets)
        if (isinstance(obj, kinds) or saveable(obj)) and depth >= MAX_DEPTH:
            raise ValueError(f"[save] containers nested more than {MAX_DEPTH} levels deep at "
                             f"{_where(path)} (or a container that holds itself)")
        if isinstance(obj, (list, tuple, *sets)):
            kind = next(k.__name__ for k in (tuple, list, frozenset, set) if isinstance(obj, k))
            return {"type": kind, "items": [self.node(v, f"{path}[{i}]", depth + 1)
                                            for i, v in enumerate(obj)]}
        if isinstance(obj, dict):
            keys, values = [], []
            for k, v in obj.items():
                if isinstance(k, (list, dict)) or (isinstance(k, Tensor) and not self.inside):
                    raise TypeError(f"[save] unsupported dict key of type {type(k).__name__} "
                                    f"at {_where(path)}")
                keys.append(self.node(k, path, depth + 1))
                values.append(self.node(v, f"{path}[{k!r}]", depth + 1))
            kind = "ordered_dict" if isinstance(obj, OrderedDict) else "dict"
            return {"type": kind, "keys": keys, "values": values}
        if saveable(obj):
            return self.object(obj, path, depth)
        raise TypeError(f"[save] cannot save an object of type {type(obj).__name__} at "
                        f"{_where(path)}: gtensor.save takes tensors, numbers, "
                        "strings, bytes, None, dtypes, devices, NumPy arrays, objects with a "
                        "__dict__ (modules, optimizers) and lists, tuples and dicts of these")


def save(obj: Any, f: FileLike) -> None:
    """Save tensors, state dicts and nested lists/tuples/dicts of them to ``f``.

    Tensors on any device are written from the host; their device is recorded
    and restored by :func:`load` (unless ``map_location`` says otherwise).

    Args:
        obj: what to save (see the module docstring for the accepted types).
        f: a path, or a binary file object opened for writing.

    Raises:
        TypeError: ``obj`` holds an unsupported type, or ``f`` is in text mode.
        ValueError: containers are nested more than :data:`MAX_DEPTH` levels deep.

    Example:
        >>> import io
        >>> buffer = io.BytesIO()  # or a path such as "ckpt.gt"
        >>> gt.save({"w": gt.ones(2, 3), "step": 10}, buffer)
        >>> gt.load(io.BytesIO(buffer.getvalue()))["step"]
        10
    """
    if isinstance(f, io.TextIOBase):
        raise TypeError("[save] the file object is opened in text mode; open it with 'wb'")
    writer = _Writer()
    tree = writer.node(obj, "")
    data = b"".join(writer.chunks)
    header = {"format": "gtensor", "version": 1, "data_bytes": len(data),
              "data_crc32": zlib.crc32(data), "tensors": writer.entries, "tree": tree}
    if writer.arrays or writer.objects:
        header.update(version=VERSION, arrays=writer.arrays)
    text = json.dumps(header, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * _pad(16 + len(text))
    blob = MAGIC + len(text).to_bytes(8, "little") + text + data
    if hasattr(f, "write"):
        f.write(blob)
        return
    with open(f, "wb") as fh:
        fh.write(blob)


def _fail(source: str, what: str) -> SerializationError:
    return SerializationError(f"[load] {source} is not a valid gtensor file: {what}")


def _read_all(f: FileLike) -> tuple[bytes, str]:
    if not hasattr(f, "read"):
        with open(f, "rb") as fh:
            return fh.read(), repr(os.fspath(f))
    source = "the file object"
    if isinstance(f, io.TextIOBase):
        raise _fail(source, "it is opened in text mode; open it with 'rb'")
    try:
        blob = f.read()
    except UnicodeDecodeError:
        raise _fail(source, "it decodes text; open it in binary mode ('rb')") from None
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise _fail(source, f"read() returned {type(blob).__name__}, not bytes; open it in "
                    "binary mode ('rb')")
    return bytes(blob), source


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed in a gtensor header")


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
        header = json.loads(blob[16:16 + n].decode("utf-8"), parse_constant=_reject_constant)
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, over-long integers
        raise _fail(source, f"the header is not valid JSON ({e})") from None
    except RecursionError:
        raise _fail(source, "the header is nested too deeply") from None
    if not isinstance(header, dict) or header.get("format") != "gtensor":
        raise _fail(source, "the header does not describe a gtensor save file")
    version = header.get("version")
    if not is_int(version) or not 1 <= version <= VERSION:
        raise _fail(source, f"unsupported format version {version!r} "
                    f"(this gtensor reads versions 1 to {VERSION})")
    data = memoryview(blob)[16 + n:]
    expected = header.get("data_bytes")
    if not is_int(expected) or expected != len(data):
        raise _fail(source, f"expected {expected!r} bytes of tensor data, found {len(data)} "
                    "(truncated or extended file)")
    crc = header.get("data_crc32")
    if not is_int(crc) or zlib.crc32(data) != crc:
        raise _fail(source, "the tensor data does not match its checksum (corrupt file)")
    return header, data


@dataclass(frozen=True)
class _Entry:
    dtype: dtype
    shape: tuple[int, ...]
    device: str
    start: int
    nbytes: int
    requires_grad: bool
    parameter: bool


_ENTRY_KEYS = {"dtype", "shape", "device", "start", "nbytes", "requires_grad", "parameter"}


def _is_device_name(text: str) -> bool:
    try:
        device(text)
    except ValueError:
        return False
    return True


def _entry(e: Any, index: int, data_size: int, source: str) -> _Entry:
    def bad(what: str) -> SerializationError:
        return _fail(source, f"tensor {index} {what}")

    if not isinstance(e, dict) or not {"dtype", "shape", "device", "start", "nbytes"} <= e.keys():
        raise bad(f"entry is malformed: {e!r:.200}")
    if not e.keys() <= _ENTRY_KEYS:
        raise bad(f"entry has unknown keys {sorted(e.keys() - _ENTRY_KEYS)!r:.200}")
    name, shape, saved = e["dtype"], e["shape"], e["device"]
    if not isinstance(name, str) or name not in _DTYPE_NAMES:
        raise bad(f"has unknown dtype {name!r:.100}")
    if not isinstance(shape, list) or len(shape) > MAX_NDIM or not all(
            is_int(s) and 0 <= s < INT64_LIMIT for s in shape):
        raise bad(f"has an invalid shape {shape!r:.200} (expected at most {MAX_NDIM} "
                  "non-negative ints)")
    numel = math.prod(shape)
    dt = as_dtype(name)
    if numel * dt.itemsize >= INT64_LIMIT:
        raise bad(f"has shape {tuple(shape)} of {name}, too large to address")
    if not isinstance(saved, str) or not _is_device_name(saved):
        raise bad(f"has an invalid device {saved!r:.100}")
    start, nbytes = e["start"], e["nbytes"]
    if not is_int(start) or not is_int(nbytes) or nbytes != numel * dt.itemsize:
        raise bad(f"claims shape {tuple(shape)} of {name} in {nbytes!r:.40} bytes")
    if start < 0 or start + nbytes > data_size:
        raise bad("lies outside the data section")
    flags = [e.get("requires_grad", False), e.get("parameter", False)]
    if not all(isinstance(v, bool) for v in flags):
        raise bad(f"has non-boolean flags {flags!r:.100}")
    return _Entry(dt, tuple(shape), saved, start, nbytes, *flags)


def _target_device(saved: str, map_location: MapLocation, index: int) -> device | None:
    """The device tensor ``index`` goes to (None: ``map_location`` is a function)."""
    if callable(map_location):
        return None
    if map_location is None:
        spec: Any = saved
    elif isinstance(map_location, dict):
        spec = map_location.get(saved, saved)
    else:
        spec = map_location
    target = spec if isinstance(spec, device) else device(spec)
    if target.type == "cuda":
        count = runtime.device_count() if runtime.is_available() else 0
        wanted = runtime.current_device() if target.index is None else target.index
        if wanted >= count:
            moved = "" if str(target) == saved else f" (mapped to {target})"
            raise DeviceUnavailableError(
                f"[load] tensor {index} was saved on {saved}{moved}, but this process has "
                f"{count} CUDA device(s); pass map_location (e.g. map_location='cpu') to load "
                "it on an existing device")
    return resolve(target)


class _Reader:
    """Checks the whole tree first (tensors become references), then loads the tensors."""

    def __init__(self, header: dict[str, Any], data: memoryview, source: str,
                 weights_only: bool) -> None:
        entries = header.get("tensors")
        if not isinstance(entries, list):
            raise _fail(source, "the header has no tensor table")
        arrays = header.get("arrays", []) if header["version"] >= 2 else []
        if not isinstance(arrays, list):
            raise _fail(source, "the header's array table is not a list")
        self.source = source
        self.raw_entries = entries
        self.entries: list[_Entry] = []
        self.raw_arrays = arrays
        self.data = data
        self.weights_only = weights_only
        self.extended = header["version"] >= 2
        self.classes: list[type] = []

    def check_entries(self) -> None:
        """Check the tensor table (after the tree, whose errors are reported first)."""
        self.entries = [_entry(e, i, len(self.data), self.source)
                        for i, e in enumerate(self.raw_entries)]

    def fail(self, what: str) -> SerializationError:
        return _fail(self.source, what)

    def node(self, n: Any, depth: int = 0) -> Any:
        if not isinstance(n, dict) or not isinstance(n.get("type"), str):
            raise self.fail(f"malformed structure node {n!r:.200}")
        kind = n["type"]
        value = n.get("value")
        if kind == "tensor":
            index = n.get("index")
            if not is_int(index) or not 0 <= index < len(self.raw_entries):
                raise self.fail(f"tensor index {index!r:.40} is out of range")
            return TensorRef(index)
        if kind == "none":
            return None
        simple: dict[str, tuple[type, Callable[[Any], Any]]] = {
            "bool": (bool, bool), "int": (int, int), "str": (str, str),
            "bytes": (str, bytes.fromhex), "dtype": (str, as_dtype), "device": (str, device)}
        if kind in simple:
            typ, convert = simple[kind]
            if not isinstance(value, typ) or (kind == "int" and isinstance(value, bool)):
                raise self.fail(f"a {kind} node holds {value!r:.100}")
            try:
                return convert(value)
            except (TypeError, ValueError) as e:
                raise self.fail(f"a {kind} node holds {value!r:.100} ({e})") from None
        if kind == "float":
            if isinstance(value, str) and value in ("nan", "inf", "-inf"):
                return float(value)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise self.fail(f"a float node holds {value!r:.100}")
            try:
                return float(value)
            except OverflowError:
                raise self.fail(f"a float node holds {value!r:.100}") from None
        if self.extended and kind in _EXTENDED_KINDS:
            return self.extended_node(n, kind, depth)
        if kind in ("list", "tuple", "dict", "ordered_dict") and depth >= MAX_DEPTH:
            raise self.fail(f"containers are nested more than {MAX_DEPTH} levels deep")
        if kind in ("list", "tuple"):
            items = n.get("items")
            if not isinstance(items, list):
                raise self.fail(f"a {kind} node has no item list")
            out = [self.node(v, depth + 1) for v in items]
            return out if kind == "list" else tuple(out)
        if kind in ("dict", "ordered_dict"):
            keys, values = n.get("keys"), n.get("values")
            if not isinstance(keys, list) or not isinstance(values, list) or len(keys) != len(
                    values):
                raise self.fail(f"a {kind} node has mismatched keys and values")
            pairs = [(self.node(k, depth + 1), self.node(v, depth + 1))
                     for k, v in zip(keys, values, strict=True)]
            try:
                return OrderedDict(pairs) if kind == "ordered_dict" else dict(pairs)
            except TypeError:
                raise self.fail("a dict node has an unhashable key") from None
        raise self.fail(f"unknown structure node type {kind!r:.100}")

    def extended_node(self, n: dict[str, Any], kind: str, depth: int) -> Any:
        """Check a node of format version 2: an array, a set, an object or a reference."""
        if kind == "ndarray":
            index = n.get("index")
            if not is_int(index) or not 0 <= index < len(self.raw_arrays):
                raise self.fail(f"array index {index!r:.40} is out of range")
            return ArrayRef(index)
        if kind == "ref":
            number = n.get("id")
            if not is_int(number) or not 0 <= number < len(self.classes):
                raise self.fail(f"a reference names object {number!r:.40}, not saved before it")
            return ObjectRef(number)
        if depth >= MAX_DEPTH:
            raise self.fail(f"containers are nested more than {MAX_DEPTH} levels deep")
        if kind in ("set", "frozenset"):
            items = n.get("items")
            if not isinstance(items, list):
                raise self.fail(f"a {kind} node has no item list")
            checked = tuple(self.node(v, depth + 1) for v in items)
            try:
                for item in checked:
                    hash(item)
            except TypeError:
                raise self.fail(f"a {kind} node holds an unhashable item") from None
            return SetNode(kind == "frozenset", checked)
        name, number = n.get("class"), n.get("id")
        if not isinstance(name, str) or number != len(self.classes) or not is_int(number):
            raise self.fail(f"an object node is malformed (class {name!r:.100}, id "
                            f"{number!r:.40}; ids count up from 0)")
        self.classes.append(resolve_class(name, self.weights_only, self.source))
        state = self.node(n.get("state"), depth + 1)
        if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
            raise self.fail(f"the state of object {number} ({name:.100}) is not a dict with "
                            "string keys")
        return ObjectSpec(number, self.classes[number], state)

    def load_tensors(self, tree: Any, map_location: MapLocation) -> dict[int, Tensor]:
        used = sorted(_refs(tree))
        targets = {i: _target_device(self.entries[i].device, map_location, i) for i in used}
        return {i: self.tensor(i, targets[i], map_location) for i in used}

    def tensor(self, index: int, dev: device | None, map_location: MapLocation) -> Tensor:
        e = self.entries[index]
        raw = np.frombuffer(self.data[e.start:e.start + e.nbytes],
                            dtype=e.dtype.numpy.newbyteorder("<"))
        host = from_numpy(raw.astype(e.dtype.numpy).reshape(e.shape))
        t = map_location(host, e.device) if dev is None else host.to(dev)  # type: ignore[operator]
        if e.parameter:
            t = Parameter(t, requires_grad=e.requires_grad)
        elif e.requires_grad and t.dtype.is_floating_point:
            t.requires_grad_(True)
        return t


def _refs(obj: Any) -> set[int]:
    """Indices of the tensors referenced anywhere in a checked tree."""
    found: set[int] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, TensorRef):
            found.add(item.index)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, SetNode):
            stack.extend(item.items)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, ObjectSpec):
            stack.extend(item.state.values())
    return found


def load(f: FileLike, map_location: MapLocation = None, *, weights_only: bool = True) -> Any:
    """Load what :func:`save` wrote.

    Args:
        f: a path, or a binary file object opened for reading.
        map_location: where tensors go: None (the device they were saved
            from), a device for all of them, a dict mapping saved device
            names to devices (``{"cuda:0": "cpu"}``), or a function
            ``fn(cpu_tensor, saved_device_name) -> tensor``.
        weights_only: load only tensors, containers, numbers, strings, NumPy
            arrays and state dicts, plus objects of classes registered with
            :func:`add_safe_globals`. With False, whole gtensor modules,
            optimizers and schedulers load too. Either way objects are rebuilt
            from their saved ``__dict__`` without running code from the file.

    Returns:
        The saved object, with tensors restored (Parameters as Parameters).

    Raises:
        SerializationError: the file is corrupt, truncated, not a gtensor
            file, or a file object opened in text mode.
        UnpicklingError: the file holds an object of a class that may not be
            loaded (a ``SerializationError`` and a ``pickle.UnpicklingError``).
        DeviceUnavailableError: a tensor's target device does not exist here.

    Example:
        >>> import io
        >>> buffer = io.BytesIO(); gt.save({"w": gt.ones(2)}, buffer); buffer.seek(0)
        0
        >>> gt.load(buffer, map_location="cpu")["w"].tolist()
        [1.0, 1.0]
        >>> buffer = io.BytesIO(); gt.save(nn.Linear(2, 1), buffer); buffer.seek(0)
        0
        >>> gt.load(buffer, weights_only=False)  # a whole module: only from a trusted file
        Linear(in_features=2, out_features=1, bias=True)
    """
    blob, source = _read_all(f)
    header, data = _parse_header(blob, source)
    reader = _Reader(header, data, source, weights_only)
    tree = reader.node(header.get("tree"))
    reader.check_entries()
    arrays = load_arrays(reader.raw_arrays, data, reader.fail)
    return Builder(reader.load_tensors(tree, map_location), arrays)(tree)
