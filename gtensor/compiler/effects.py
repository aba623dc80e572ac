"""Replaying what a traced call changed: in-place writes, ``.grad`` assignments, scalars, guards.

The trace records them (:mod:`gtensor.ops.trace_effects`); this module turns
them into what a call runs:

- **writes** become the call's last kernels: one loop per shape writes each
  target tensor's new value into its memory, at its strides. Every other
  kernel has run by then, so each one read the memory as the call found it.
  A loop may read a tensor it writes only where it writes it (the same
  element, in the same iteration); any other read of a written tensor
  (a transpose, a broadcast, another loop) makes the new values go to
  buffers of their own first, then into the targets.
- **``.grad`` assignments** set each tensor's ``.grad`` to a buffer the call
  computed (or to None).
- **scalars** are computed by their Python functions before the kernels run.
- **guards** and the ``.grad`` values the trace read are checked before a
  call replays; a failed check traces the call again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..ops.trace_effects import GradLayout
from ..ops.tracing import Trace
from ..tensor_base import TensorBase


@dataclass
class Replay:
    """The effects of one traced signature, bound to trace nodes.

    ``stores``: ``(target node, value node)``; ``grads``: ``(holder, value)``
    where ``holder`` is a real tensor or ``("input", k)`` and ``value`` a node
    index, None, or a real tensor; ``dynamics``: Python functions and the scalar
    nodes they fill; ``kernels``: the bound store loops (filled once planned).
    """

    stores: list[tuple[int, int]] = field(default_factory=list)
    grads: list[tuple[Any, Any]] = field(default_factory=list)
    dynamics: list[tuple[Callable[[], tuple[Any, ...]], list[int]]] = field(
        default_factory=list)
    guards: list[Callable[[], bool]] = field(default_factory=list)
    grad_guards: list[tuple[Any, Any]] = field(default_factory=list)
    kernels: list[Any] = field(default_factory=list)
    writes_arguments: bool = False

    def holds(self, tensors: list[TensorBase]) -> bool:
        """True when this call may replay: guards pass, ``.grad`` values are as traced."""
        for holder, expected in self.grad_guards:
            grad = (tensors[holder[1]] if holder.__class__ is tuple else holder)._grad
            if expected.__class__ is GradLayout:
                if grad is None or grad._strides != expected:
                    return False
            elif grad is not expected:
                return False
        for check in self.guards:
            if not check():
                return False
        return True

    def aliased(self, tensors: list[TensorBase]) -> bool:
        """True when an argument written in place shares memory with another argument (the
        trace assumed they do not: such a call runs eagerly)."""
        return self.writes_arguments and len({id(t._storage) for t in tensors}) < len(tensors)

    def start(self, values: list[Any]) -> None:
        """Compute this call's scalars into ``values``."""
        for fn, nodes in self.dynamics:
            for i, v in zip(nodes, fn(), strict=True):
                values[i] = v

    def finish(self, values: list[Any], tensors: list[TensorBase]) -> None:
        """Assign the ``.grad`` values and mark the written tensors as changed."""
        for holder, value in self.grads:
            t = tensors[holder[1]] if holder.__class__ is tuple else holder
            t._grad = value if value is None or value.__class__ is not int else values[value]
        for target, _ in self.stores:
            values[target]._storage.version += 1


def collect(trace: Trace, outputs: list[int]) -> Replay:
    """Gather ``trace``'s effects; add the nodes the call must compute to ``outputs``.

    Store values get the node their loop writes (a cast where the value is not
    an elementwise node, or when the loops would read a written tensor out of
    place); ``.grad`` values must be in memory.
    """
    replay = Replay(dynamics=list(trace.dynamics), guards=list(trace.guards),
                    grad_guards=list(trace.grad_guards.values()))
    for holder, value in trace.grad_effects.values():
        if isinstance(value, TensorBase) and id(value._storage) in trace._by_storage:
            value = trace.computed(trace.node_of(value))
            outputs.append(value)
        replay.grads.append((holder, value))
    stores = list(trace.stores.items())
    if _out_of_place(trace, stores):
        stores = [(t, trace.copy_of(_materialized(trace, v))) for t, v in stores]
    else:
        stores = [(t, trace.computed(v, ("elementwise",))) for t, v in stores]
    replay.stores = stores
    replay.writes_arguments = any(trace.nodes[t].kind == "input" for t, _ in stores)
    return replay


def _materialized(trace: Trace, i: int) -> int:
    """``i``, computed into a buffer of its own by a loop in trace order."""
    node = trace.nodes[i]
    if node.kind != "elementwise":
        i = trace.copy_of(i)
        node = trace.nodes[i]
    node.materialize = True
    return i


def _out_of_place(trace: Trace, stores: list[tuple[int, int]]) -> bool:
    """True when a store loop would read a written tensor anywhere but where it writes it."""
    targets = {_memory(trace, t): t for t, _ in stores}
    shape_of = {t: trace.nodes[t].shape for t, _ in stores}
    for target, value in stores:
        for m in _reads(trace, value, set()):
            written = targets.get(_memory(trace, m))
            if written is None:
                continue
            if m != written or shape_of[written] != shape_of[target]:
                return True
    return False


def _reads(trace: Trace, i: int, acc: set[int]) -> set[int]:
    """The nodes in memory that computing node ``i`` in a loop reads."""
    node = trace.nodes[i]
    if node.kind == "broadcast":
        return _reads(trace, node.args[0], acc)
    if node.kind == "elementwise" and not node.materialize:
        for a in node.args:
            if not isinstance(a, tuple):
                _reads(trace, a, acc)
        return acc
    acc.add(i)
    return acc


def _memory(trace: Trace, i: int) -> Any:
    """What node ``i`` reads: an argument, a real tensor's storage, or a buffer of the call."""
    node = trace.nodes[i]
    if node.kind == "view":
        return _memory(trace, node.args[0])
    if node.kind == "input":
        return ("grad" if node.grad_of else "input", node.index)
    if node.kind == "capture":
        return ("storage", id(node.tensor._storage))
    return ("node", i)
