"""``functional_call``: run a module with some parameters and buffers replaced for one call.

The module's tables are swapped in place and put back afterwards, also when the call
raises (PyTorch's ``torch.func.functional_call``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..tensor import Tensor

_Slot = tuple[Any, str, str]  # (owning module, "_parameters" or "_buffers", name)


def _slots(module: Any) -> tuple[dict[str, _Slot], dict[str, Tensor]]:
    """Every parameter and buffer by qualified name, a shared one under each of its names."""
    slots: dict[str, _Slot] = {}
    values: dict[str, Tensor] = {}
    stack: list[tuple[str, Any, frozenset[int]]] = [("", module, frozenset())]
    while stack:
        prefix, mod, above = stack.pop()
        for table in ("_parameters", "_buffers"):
            for name, value in getattr(mod, table).items():
                if value is not None:
                    slots[prefix + name] = (mod, table, name)
                    values[prefix + name] = value
        inside = above | {id(mod)}
        for name, child in mod._modules.items():
            if child is not None and id(child) not in inside:
                stack.append((f"{prefix}{name}.", child, inside))
    return slots, values


def _merge(dicts: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    if isinstance(dicts, Mapping):
        return dict(dicts)
    merged: dict[str, Any] = {}
    for d in dicts:
        for key, value in d.items():
            if key in merged:
                raise ValueError(f"[functional_call] {key!r} appeared in more than one of the "
                                 "parameter_and_buffer_dicts")
            merged[key] = value
    return merged


def _tie(given: dict[str, Any], values: dict[str, Tensor]) -> dict[str, Any]:
    """Give every name of a shared tensor the value passed for any one of them."""
    names_of: dict[int, list[str]] = {}
    for name, value in values.items():
        names_of.setdefault(id(value), []).append(name)
    tied = dict(given)
    for name, value in given.items():
        if name not in values:
            continue
        for other in names_of[id(values[name])]:
            if other in given and given[other] is not value:
                raise ValueError(f"[functional_call] '{name}' and '{other}' are tied in the "
                                 "module but were given different values")
            tied[other] = value
    return tied


def functional_call(module: Any, parameter_and_buffer_dicts: Mapping[str, Any]
                    | Sequence[Mapping[str, Any]], args: Any = (),
                    kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """Call ``module(*args, **kwargs)`` with the named parameters and buffers replaced.

    Args:
        module: an ``nn.Module``.
        parameter_and_buffer_dicts: a dict (or a sequence of dicts with distinct
            keys) from qualified names (``"0.weight"``) to tensors.
        args: the positional arguments (a single non-tuple value is one argument).
        kwargs: the keyword arguments.
        tie_weights: a tensor shared under several names takes the value given
            for any one of them.
        strict: the names must be exactly the module's parameters and buffers.

    Returns:
        What the module returns; gradients flow to the substituted tensors.

    Example:
        >>> lin = nn.Linear(3, 2)
        >>> w = {"weight": gt.zeros(2, 3), "bias": gt.ones(2)}
        >>> functional_call(lin, w, (gt.ones(1, 3),)).tolist()
        [[1.0, 1.0]]
    """
    given = _merge(parameter_and_buffer_dicts)
    slots, values = _slots(module)
    if tie_weights:
        given = _tie(given, values)
    if strict:
        missing = sorted(set(values) - set(given))
        unexpected = sorted(set(given) - set(values))
        if missing or unexpected:
            raise RuntimeError(f"[functional_call] strict: missing keys {missing}, unexpected "
                               f"keys {unexpected}")
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    swapped: list[tuple[dict[str, Any], str, Any]] = []
    added: list[tuple[Any, str, Any, bool]] = []
    try:
        for name, value in given.items():
            if name in slots:
                mod, table, leaf = slots[name]
                entries = getattr(mod, table)
                swapped.append((entries, leaf, entries[leaf]))
                entries[leaf] = value
            else:
                path, _, leaf = name.rpartition(".")
                mod = module.get_submodule(path)
                had = leaf in mod.__dict__
                added.append((mod, leaf, mod.__dict__.get(leaf), had))
                mod.__dict__[leaf] = value
        return module(*args, **({} if kwargs is None else kwargs))
    finally:
        for entries, leaf, old in reversed(swapped):
            entries[leaf] = old
        for mod, leaf, old, had in reversed(added):
            if had:
                mod.__dict__[leaf] = old
            else:
                del mod.__dict__[leaf]
