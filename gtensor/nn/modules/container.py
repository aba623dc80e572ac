"""Containers: Sequential, ModuleList, ModuleDict, ParameterList and ParameterDict."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ...tensor import Tensor
from ..parameter import Parameter
from .module import Module


class _ListOps(Module):
    """List edits shared by Sequential and ModuleList; keys are renumbered ``"0"..`` after
    an edit, as PyTorch does."""

    def _renumber(self, mods: list[Module]) -> None:
        for m in mods:
            if not isinstance(m, Module):
                raise TypeError(f"[{type(self).__name__}] {type(m).__name__} is not a Module")
        self._modules.clear()
        self._modules.update((str(i), m) for i, m in enumerate(mods))

    def __setitem__(self, idx: int, module: Module) -> None:
        name = type(self).__name__
        if not isinstance(module, Module):
            raise TypeError(f"[{name}] {type(module).__name__} is not a Module")
        self._modules[list(self._modules)[_index(idx, len(self._modules), name)]] = module

    def __delitem__(self, idx: int | slice) -> None:
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            del mods[idx]
        else:
            del mods[_index(idx, len(mods), type(self).__name__)]
        self._renumber(mods)

    def insert(self, index: int, module: Module) -> Any:
        """Put ``module`` before position ``index``."""
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._renumber(mods)
        return self

    def extend(self, modules: Iterable[Module]) -> Any:
        """Add each of ``modules`` at the end."""
        for m in modules:
            self.add_module(str(len(self._modules)), m)
        return self

    def pop(self, index: int = -1) -> Module:
        """Remove and return the module at ``index``."""
        mods = list(self._modules.values())
        out = mods.pop(_index(index, len(mods), type(self).__name__))
        self._renumber(mods)
        return out

    def __iadd__(self, modules: Iterable[Module]) -> Any:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> Any:
        return type(self)(*self, *other) if isinstance(self, Sequential) else type(self)(
            [*self, *other])


class Sequential(_ListOps):
    """Apply modules one after another; the output of each is the input of the next.

    Args:
        *modules: the modules in order, or one OrderedDict of name -> module.

    Example:
        >>> import gtensor as gt
        >>> net = gt.nn.Sequential(gt.nn.Linear(4, 8), gt.nn.ReLU(), gt.nn.Linear(8, 2))
        >>> net(gt.randn(3, 4)).shape
        (3, 2)
    """

    def __init__(self, *modules: Module | OrderedDict[str, Module]) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, x: Any) -> Any:
        """Run the modules in order."""
        for m in self._modules.values():
            x = m(x)
        return x

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, idx: int | slice) -> Any:
        items = list(self._modules.items())
        if isinstance(idx, slice):
            return Sequential(OrderedDict(items[idx]))
        return items[_index(idx, len(items), "Sequential")][1]

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self


def _index(idx: int, n: int, op: str) -> int:
    if not -n <= idx < n:
        raise IndexError(f"[{op}] index {idx} is out of range for {n} modules")
    return idx % n


class ModuleList(_ListOps):
    """A list of modules whose parameters are registered (index them like a list).

    Example:
        >>> import gtensor as gt
        >>> layers = gt.nn.ModuleList([gt.nn.Linear(2, 2) for _ in range(3)])
        >>> len(list(layers.parameters()))
        6
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """ModuleList has no forward of its own: iterate over it instead."""
        raise TypeError("[ModuleList] is a container, not callable; iterate over it")

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))

    def __getitem__(self, idx: int | slice) -> Any:
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return ModuleList(mods[idx])
        return mods[_index(idx, len(mods), "ModuleList")]

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self


class ModuleDict(Module):
    """A dict of modules whose parameters are registered (insertion order kept).

    Example:
        >>> import gtensor as gt
        >>> heads = gt.nn.ModuleDict({"a": gt.nn.Linear(2, 1), "b": gt.nn.Linear(2, 3)})
        >>> list(heads.keys())
        ['a', 'b']
    """

    def __init__(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]] | None = None
                 ) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """ModuleDict has no forward of its own: look modules up by key instead."""
        raise TypeError("[ModuleDict] is a container, not callable; index it by key")

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._modules))

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def __getitem__(self, key: str) -> Module:
        if key not in self._modules:
            raise KeyError(f"[ModuleDict] no module named {key!r}")
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def keys(self) -> Iterable[str]:
        """The names."""
        return self._modules.keys()

    def values(self) -> Iterable[Module]:
        """The modules."""
        return self._modules.values()

    def items(self) -> Iterable[tuple[str, Module]]:
        """``(name, module)`` pairs."""
        return self._modules.items()

    def update(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]]) -> None:
        """Add or replace modules from a mapping or from ``(name, module)`` pairs."""
        pairs = modules.items() if isinstance(modules, Mapping) else modules
        for key, m in pairs:
            self.add_module(key, m)


class _ParameterContainer(Module):
    """Entries by name: Parameters registered as this module's own, other objects kept aside.

    A plain tensor stored here becomes a :class:`~gtensor.nn.Parameter`, as in PyTorch.
    """

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "_others", {})

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """A parameter container has no forward of its own."""
        raise TypeError(f"[{type(self).__name__}] is a container and should not be called")

    def _store(self, name: str, value: Any) -> None:
        if name not in self._parameters and name not in self._others and (
                name in self.__dict__ or hasattr(type(self), name)):
            raise KeyError(f"[{type(self).__name__}] attribute {name!r} already exists")
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        if isinstance(value, Parameter):
            self._others.pop(name, None)
            self.register_parameter(name, value)
        else:
            self._discard(name)
            self._others[name] = value

    def _fetch(self, name: str) -> Any:
        return self._parameters[name] if name in self._parameters else self._others[name]

    def _drop(self, name: str) -> None:
        self._others.pop(name, None)
        self._discard(name)

    def _entry_lines(self, entries: Iterable[tuple[str, Any]]) -> str:
        lines = []
        for name, value in entries:
            if isinstance(value, Tensor):
                size = "x".join(str(n) for n in value.shape)
                where = f" ({value.device})" if value.device.type == "cuda" else ""
                kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
                text = f"{kind} containing: [{value.dtype} of size {size}{where}]"
            else:
                text = f"Object of type: {type(value).__name__}"
            lines.append(f"  ({name}): {text}")
        return "\n".join(lines)


class ParameterList(_ParameterContainer):
    """A list of parameters registered with the module (named ``"0"``, ``"1"``, ...).

    Plain tensors are wrapped into Parameters; other objects are kept but not
    registered. ``named_parameters``, ``state_dict`` and ``to`` see the entries.

    Example:
        >>> import gtensor as gt
        >>> params = gt.nn.ParameterList([gt.zeros(2), gt.ones(3)])
        >>> [name for name, _ in params.named_parameters()]
        ['0', '1']
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def _name(self, idx: int) -> str:
        i = operator.index(idx)
        if not -len(self) <= i < len(self):
            raise IndexError(f"[ParameterList] index {i} is out of range for {len(self)} "
                             "entries")
        return str(i % len(self))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter([self._fetch(str(i)) for i in range(len(self))])

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(*idx.indices(len(self)))])
        return self._fetch(self._name(idx))

    def __setitem__(self, idx: int, value: Any) -> None:
        self._store(self._name(idx), value)

    def __iadd__(self, values: Iterable[Any]) -> ParameterList:
        return self.extend(values)

    def append(self, value: Any) -> ParameterList:
        """Add ``value`` at the end."""
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Add each of ``values`` at the end."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("[ParameterList] extend takes an iterable, got "
                            f"{type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return self._entry_lines((str(i), self._fetch(str(i))) for i in range(len(self)))


class ParameterDict(_ParameterContainer):
    """A dict of parameters registered with the module under their (string) keys.

    Plain tensors are wrapped into Parameters; other objects are kept but not
    registered. As in PyTorch, a plain ``dict`` given to the constructor or to
    :meth:`update` is added in sorted key order (an ``OrderedDict``, a
    ParameterDict or a sequence of pairs keeps its order).

    Example:
        >>> import gtensor as gt
        >>> params = gt.nn.ParameterDict({"scale": gt.ones(2), "shift": gt.zeros(2)})
        >>> list(params.state_dict())
        ['scale', 'shift']
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"[ParameterDict] keys must be strings, got {type(key).__name__}")
        return key

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._keys))

    def __reversed__(self) -> Iterator[str]:
        return reversed(list(self._keys))

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def _known(self, key: Any) -> str:
        if self._key(key) not in self._keys:
            raise KeyError(f"[ParameterDict] no parameter named {key!r}")
        return key

    def __getitem__(self, key: str) -> Any:
        return self._fetch(self._known(key))

    def __setitem__(self, key: str, value: Any) -> None:
        self._store(self._key(key), value)
        self._keys[key] = None

    def __delitem__(self, key: str) -> None:
        del self._keys[self._known(key)]
        self._drop(key)

    def keys(self) -> Iterable[str]:
        """The keys, in order."""
        return self._keys.keys()

    def values(self) -> Iterator[Any]:
        """The entries, in key order."""
        return (self._fetch(k) for k in list(self._keys))

    def items(self) -> Iterator[tuple[str, Any]]:
        """``(key, entry)`` pairs, in order."""
        return ((k, self._fetch(k)) for k in list(self._keys))

    def get(self, key: str, default: Any = None) -> Any:
        """The entry at ``key``, or ``default``."""
        return self[key] if key in self else default

    def setdefault(self, key: str, default: Any = None) -> Any:
        """The entry at ``key``, stored first as ``default`` when missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str) -> Any:
        """Remove the entry at ``key`` and return it."""
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        """Remove the last entry and return ``(key, entry)``."""
        if not self._keys:
            raise KeyError("[ParameterDict] popitem(): the dictionary is empty")
        key = next(reversed(self._keys))
        return key, self.pop(key)

    def clear(self) -> None:
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same entries (the Parameters are shared)."""
        return ParameterDict(OrderedDict(self.items()))

    def fromkeys(self, keys: Iterable[str], default: Any = None) -> ParameterDict:
        """A new ParameterDict with ``keys``, each holding ``default``."""
        return ParameterDict([(k, default) for k in keys])

    def update(self, parameters: Any) -> None:
        """Add or replace entries from a mapping or from ``(key, value)`` pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("[ParameterDict] update takes an iterable of key/value pairs, got "
                            f"{type(parameters).__name__}")
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs: Iterable[Any] = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
            for j, pair in enumerate(pairs):
                if not isinstance(pair, Iterable) or len(pair) != 2:
                    raise ValueError(f"[ParameterDict] update sequence element #{j} must be a "
                                     "(key, value) pair")
        for key, value in pairs:
            self[key] = value

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self

    def extra_repr(self) -> str:
        return self._entry_lines(self.items())
