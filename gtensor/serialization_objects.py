"""Whole objects in gtensor save files: which classes :func:`gtensor.load` may rebuild.

A saved object is its class's qualified name plus its ``__dict__``. Loading
never imports a module or looks a name up: the name is matched against
classes already in this process, those of gtensor (every ``nn.Module``, every
optimizer and learning-rate scheduler) with ``weights_only=False``, and those
registered with :func:`add_safe_globals` in either mode. The object is made by
``cls.__new__(cls)`` and its ``__dict__`` restored; no ``__init__``,
``__setstate__`` or other method runs.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import SerializationError
from .nn.modules.module import Module
from .optim.lr_scheduler import LRScheduler
from .optim.optimizer import Optimizer
from .tensor import Tensor

__all__ = ["UnpicklingError", "add_safe_globals", "clear_safe_globals", "get_safe_globals",
           "safe_globals"]

MAX_NDIM = 64
INT64_LIMIT = 2**63
_registered: dict[str, type] = {}
_GTENSOR_BASES = (Module, Optimizer, LRScheduler)
ARRAY_DTYPES = frozenset(np.dtype(t).newbyteorder("<").str for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128))
"""The NumPy dtypes (little-endian ``dtype.str``) an array in a save file may have."""


class UnpicklingError(SerializationError, pickle.UnpicklingError):
    """A file holds an object whose class :func:`gtensor.load` may not rebuild.

    Also a ``pickle.UnpicklingError``, as PyTorch raises for ``weights_only`` refusals.
    """


def class_name(cls: type) -> str:
    """Return the name a save file records for ``cls`` (``module.QualName``)."""
    return f"{cls.__module__}.{cls.__qualname__}"


def add_safe_globals(safe_globals: Iterable[type | tuple[type, str]]) -> None:
    """Let :func:`gtensor.load` rebuild objects of these classes (PyTorch's name).

    Args:
        safe_globals: classes, or ``(class, "module.QualName")`` pairs for a
            class saved under another name.

    Example:
        >>> import io
        >>> class Point:
        ...     def __init__(self, x): self.x = x
        >>> buffer = io.BytesIO(); gt.save(Point(gt.ones(2)), buffer)
        >>> gt.serialization.add_safe_globals([Point])
        >>> gt.load(io.BytesIO(buffer.getvalue())).x.tolist()
        [1.0, 1.0]
        >>> gt.serialization.clear_safe_globals()
    """
    for item in safe_globals:
        cls, name = item if isinstance(item, tuple) else (item, None)
        if not isinstance(cls, type):
            raise TypeError(f"[add_safe_globals] expected classes, got {type(cls).__name__}")
        _registered[name or class_name(cls)] = cls


def get_safe_globals() -> list[type | tuple[type, str]]:
    """Return the classes registered with :func:`add_safe_globals`."""
    return [cls if name == class_name(cls) else (cls, name) for name, cls in _registered.items()]


def clear_safe_globals() -> None:
    """Forget every class registered with :func:`add_safe_globals`."""
    _registered.clear()


@contextmanager
def safe_globals(classes: Iterable[type | tuple[type, str]]) -> Iterator[None]:
    """Register ``classes`` for the ``with`` block only.

    Example:
        >>> import io
        >>> class Point:
        ...     def __init__(self, x): self.x = x
        >>> buffer = io.BytesIO(); gt.save(Point(gt.ones(2)), buffer)
        >>> with gt.serialization.safe_globals([Point]):
        ...     print(gt.load(io.BytesIO(buffer.getvalue())).x.tolist())
        [1.0, 1.0]
        >>> gt.serialization.get_safe_globals()  # registered for the block only
        []
    """
    before = dict(_registered)
    add_safe_globals(classes)
    try:
        yield
    finally:
        _registered.clear()
        _registered.update(before)


def _gtensor_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    stack = list(_GTENSOR_BASES)
    while stack:
        cls = stack.pop()
        if cls.__module__.startswith("gtensor."):
            found[class_name(cls)] = cls
        stack.extend(cls.__subclasses__())
    return found


def resolve_class(name: str, weights_only: bool, source: str) -> type:
    """Return the class saved as ``name``, or raise :class:`UnpicklingError` naming it."""
    cls = _registered.get(name)
    if cls is not None:
        return cls
    if weights_only:
        raise UnpicklingError(
            f"[load] {source} holds an object of class {name}, which weights_only=True does "
            "not load (it loads tensors, containers, numbers, strings, NumPy arrays and state "
            "dicts); pass weights_only=False if you trust the file, or register the class "
            f"with gtensor.serialization.add_safe_globals([{name.rpartition('.')[2]}])")
    cls = _gtensor_classes().get(name)
    if cls is None:
        raise UnpicklingError(
            f"[load] {source} holds an object of class {name}, which is neither a gtensor "
            "class nor registered; if you trust it, register it with "
            f"gtensor.serialization.add_safe_globals([{name.rpartition('.')[2]}])")
    return cls


def saveable(obj: Any) -> bool:
    """Whether :func:`gtensor.save` writes ``obj`` as an object (its class and ``__dict__``)."""
    cls = type(obj)
    return cls.__module__ != "builtins" and isinstance(getattr(obj, "__dict__", None), dict)


def check_saveable_class(cls: type, where: str) -> str:
    """Return the name to record for ``cls``; a class local to a function cannot be found."""
    if "<locals>" in cls.__qualname__:
        raise TypeError(f"[save] cannot save an object of the local class {cls.__qualname__} "
                        f"at {where}: define the class at module level")
    return class_name(cls)


def new_object(cls: type) -> Any:
    """Return an instance of ``cls`` made without running its ``__init__`` (state comes later)."""
    return cls.__new__(cls)


def is_int(value: Any) -> bool:
    """Whether a header value is a JSON integer (not a bool)."""
    return type(value) is int


@dataclass(frozen=True)
class TensorRef:
    index: int


@dataclass(frozen=True)
class ArrayRef:
    index: int


@dataclass(frozen=True, eq=False)
class ObjectSpec:
    """A checked object node: its class, number and state (a dict of checked nodes)."""

    number: int
    cls: type
    state: dict[str, Any]


@dataclass(frozen=True)
class ObjectRef:
    number: int


@dataclass(frozen=True)
class SetNode:
    """A checked set, its items in file order (objects in it are made in that order)."""

    frozen: bool
    items: tuple[Any, ...]


def load_arrays(raw_arrays: list[Any], data: memoryview,
                fail: Callable[[str], Exception]) -> list[np.ndarray]:
    """Check the array table, then copy every array out of the data section."""
    checked = []
    for i, e in enumerate(raw_arrays):
        if not isinstance(e, dict) or e.keys() != {"dtype", "shape", "start", "nbytes"}:
            raise fail(f"array {i} entry is malformed: {e!r:.200}")
        kind, shape, start, nbytes = e["dtype"], e["shape"], e["start"], e["nbytes"]
        if not isinstance(kind, str) or kind not in ARRAY_DTYPES:
            raise fail(f"array {i} has an unsupported dtype {kind!r:.40}")
        if not isinstance(shape, list) or len(shape) > MAX_NDIM or not all(
                is_int(d) and 0 <= d < INT64_LIMIT for d in shape):
            raise fail(f"array {i} has an invalid shape {shape!r:.200}")
        if not is_int(start) or not is_int(nbytes) or start < 0 or (
                nbytes != math.prod(shape) * np.dtype(kind).itemsize
                or start + nbytes > len(data)):
            raise fail(f"array {i} claims {nbytes!r:.40} bytes at {start!r:.40}, "
                       f"which do not fit shape {shape} of {kind} in the data section")
        checked.append((np.dtype(kind), tuple(shape), start, nbytes))
    return [np.frombuffer(data[start:start + nbytes], dtype=kind).reshape(shape)
            .astype(kind.newbyteorder("="))
            for kind, shape, start, nbytes in checked]


class Builder:
    """Replaces the references of a checked tree by loaded tensors, arrays and new objects."""

    def __init__(self, tensors: dict[int, Tensor], arrays: list[np.ndarray]) -> None:
        self.tensors = tensors
        self.arrays = arrays
        self.objects: dict[int, Any] = {}

    def __call__(self, obj: Any) -> Any:
        if isinstance(obj, TensorRef):
            return self.tensors[obj.index]
        if isinstance(obj, ArrayRef):
            return self.arrays[obj.index]
        if isinstance(obj, ObjectRef):
            return self.objects[obj.number]
        if isinstance(obj, ObjectSpec):
            made = self.objects[obj.number] = new_object(obj.cls)
            made.__dict__.update(self(obj.state))
            return made
        if isinstance(obj, SetNode):
            return (frozenset if obj.frozen else set)([self(v) for v in obj.items])
        if isinstance(obj, list):
            return [self(v) for v in obj]
        if isinstance(obj, tuple):
            return tuple(self(v) for v in obj)
        if isinstance(obj, dict):
            return type(obj)((self(k), self(v)) for k, v in obj.items())
        return obj
