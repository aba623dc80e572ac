"""Nested tuples, lists and dicts as a flat list of leaves plus a spec that rebuilds them."""

from __future__ import annotations

from typing import Any


def flatten(tree: Any) -> tuple[list[Any], Any]:
    """Return the leaves of nested tuples, lists and dicts, and the spec that rebuilds them."""
    if isinstance(tree, (tuple, list)):
        parts = [flatten(v) for v in tree]
        return [x for leaves, _ in parts for x in leaves], (type(tree), [s for _, s in parts])
    if isinstance(tree, dict):
        parts = [flatten(v) for v in tree.values()]
        return ([x for leaves, _ in parts for x in leaves],
                (type(tree), list(tree.keys()), [s for _, s in parts]))
    return [tree], None


def unflatten(spec: Any, leaves: list[Any], start: int = 0) -> tuple[Any, int]:
    """Rebuild the tree of ``spec`` from ``leaves[start:]``; return it and the next index."""
    if spec is None:
        return leaves[start], start + 1
    kind = spec[0]
    if issubclass(kind, dict):
        out = kind()
        for key, sub in zip(spec[1], spec[2], strict=True):
            out[key], start = unflatten(sub, leaves, start)
        return out, start
    items = []
    for sub in spec[1]:
        item, start = unflatten(sub, leaves, start)
        items.append(item)
    return (kind(*items) if hasattr(kind, "_fields") else kind(items)), start


def count_leaves(spec: Any) -> int:
    """Return how many leaves a tree of ``spec`` holds."""
    if spec is None:
        return 1
    return sum(count_leaves(s) for s in spec[-1])


def is_dict_spec(spec: Any) -> bool:
    """Return whether ``spec`` describes a dict."""
    return spec is not None and issubclass(spec[0], dict)
