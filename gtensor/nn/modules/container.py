"""Containers: Sequential, ModuleList and ModuleDict."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .module import Module


class Sequential(Module):
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


class ModuleList(Module):
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

    def __setitem__(self, idx: int, module: Module) -> None:
        self.add_module(str(_index(idx, len(self), "ModuleList")), module)

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Add each of ``modules`` at the end."""
        for m in modules:
            self.append(m)
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
