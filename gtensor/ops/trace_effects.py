"""What a traced call does besides computing values: writes, ``.grad`` changes, fresh scalars.

A compiled function replays its kernels without running its Python code, so
everything the Python code changed must be recorded while tracing and redone
on every call:

- **writes**: an in-place op on a real tensor (a parameter, an optimizer's
  moment, a ``.grad``) or on an argument. The value is a node like any other;
  the tensor names that node for the rest of the trace, and the call writes
  the last value into the tensor's memory once every kernel has run (so every
  read sees the memory as the call found it, or the new node).
- **``.grad`` assignments** (``zero_grad``, gradients a traced ``backward()``
  accumulates): replayed as assignments of the call's computed values. A
  ``.grad`` read before the trace assigned it is guarded: the call checks that
  the tensor still has that gradient (or none).
- **scalars** that change from call to call without being tensors (an
  optimizer's step count and learning rate): a Python function computes them
  at the start of each call, and the kernels take them as arguments.
- **guards**: Python values the trace depends on (an optimizer's betas); a
  call whose guard fails is traced again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dtypes import float64
from ..errors import Untraceable
from ..tensor_base import contiguous_strides

if TYPE_CHECKING:
    from ..tensor import Tensor

Layout = tuple[tuple[int, ...], tuple[int, ...], int]


class GradLayout(tuple):
    """A guard's expectation of a ``.grad``: a tensor with these strides (not None)."""

    def __new__(cls, strides: tuple[int, ...]) -> GradLayout:
        return super().__new__(cls, strides)


class Effects:
    """The writes, ``.grad`` assignments, fresh scalars and guards of a :class:`Trace`."""

    nodes: list[Any]
    symbols: list[Any]
    arguments: list[Tensor]
    _by_storage: dict[int, int]
    _captured: dict[int, int]
    node_of: Callable[[Any], Any]
    capture: Callable[[Any], int]
    input: Callable[..., Any]
    value_node: Callable[..., Any]
    external: Callable[..., Any]

    def init_effects(self) -> None:
        """Start with no effects."""
        self.stores: dict[int, int] = {}  # target node (argument or captured tensor) -> value
        self.grad_effects: dict[int, tuple[Any, Any]] = {}  # id(tensor) -> (holder, value)
        # holder -> its .grad when first read (a real tensor by identity, or ("input", k))
        self.grad_guards: dict[Any, tuple[Any, Any]] = {}
        self.dynamics: list[tuple[Callable[[], tuple[Any, ...]], list[int]]] = []
        self.guards: list[Callable[[], bool]] = []
        self._guarded: set[int] = set()  # ids of the objects whose state a guard holds
        self.ran_backward = False
        self._layouts: dict[int, Layout] = {}  # id(symbolic storage) -> its writer's layout
        self._targets: dict[int, int] = {}  # id(storage or tensor) written -> target node
        self._written: dict[int, Any] = {}  # id(real storage) -> the tensor written into it
        self._restore: list[tuple[Any, Any]] = []  # (real tensor, its .grad before the trace)
        self._grad_inputs: dict[int, Any] = {}  # argument -> the stand-in of its .grad

    # -- writes ----------------------------------------------------------------------------
    def write(self, out: Tensor, value: Tensor) -> None:
        """Make ``out`` hold ``value`` (a node of this trace, of ``out``'s shape and dtype)."""
        base = out._base
        if base is not None and base._dtype is not out._dtype:
            raise Untraceable("[compile] a write through the real or imaginary parts of a "
                              "complex tensor (or another view as another dtype) is not traced")
        j = self.node_of(value)
        if self.nodes[j].shape != out._shape:
            raise Untraceable("[compile] an in-place op that broadcasts its target is not "
                              "traced")
        storage = out._storage
        key = id(storage)
        i = self._by_storage.get(key)
        if i is not None:  # a traced value (an argument's stand-in, or a temporary)
            node = self.nodes[i]
            layout = (out._shape, out._strides, out._offset)
            own = self._layouts.get(key) or (node.shape, self.symbols[i]._strides, 0)
            if layout != own:  # a part: the whole new value is a copy with that part written
                j = self._write_part(i, own, layout, value)
                layout = own
            if node.kind == "input":
                self._targets[key] = i
            target = self._targets.get(key)
            if target is not None:
                self.stores[target] = j
            self._by_storage[key] = j
            self._layouts[key] = layout
            return
        if self.device is None:  # type: ignore[has-type]
            self.device = out._storage.device
        elif out._storage.device != self.device:  # type: ignore[has-type]
            raise Untraceable(f"[compile] tensors on {self.device} and "  # type: ignore[attr-defined]
                              f"{out._storage.device}")
        other = self._written.get(key)
        if other is not None and other is not out:
            raise Untraceable("[compile] two views of one tensor are written in place")
        target = self._targets.get(id(out))
        if target is None:
            i = self._captured.get(id(out), -1)
            if i < 0 or self.nodes[i].kind != "capture" or self.nodes[i].tensor is not out:
                i = self.capture(out)
            target = self._targets[id(out)] = i
        self._written[key] = out
        self.stores[target] = j
        self._captured[id(out)] = j

    def _write_part(self, i: int, own: Layout, part: Layout, value: Tensor) -> int:
        """The node of traced value ``i`` (laid out as ``own``) with view ``part`` set to
        ``value``: a copy in memory, then the part written into it, in trace order."""
        node = self.nodes[i]
        if own[1] != contiguous_strides(own[0]) or own[2] != 0:
            raise Untraceable("[compile] a part of a tensor that is not contiguous is written "
                              "in place")
        copy = self.symbols[self.copy_of(i)]
        written = self.external("write_part", functools.partial(write_part, part=part),
                                (copy, value), node.shape, node.dtype)
        return self.node_of(written)

    def written_layout(self, storage: Any) -> Layout | None:
        """The layout of the tensor last written into traced ``storage`` (None: unwritten)."""
        return self._layouts.get(id(storage))


    def check_unwritten(self, t: Tensor) -> None:
        """Refuse to read real ``t`` through another view of a tensor written in the trace."""
        other = self._written.get(id(t._storage))
        if other is not None and other is not t:
            raise Untraceable("[compile] a tensor written in place is read through another view")

    def copy_of(self, i: int) -> int:
        """Record a copy of node ``i`` (a loop of its own reads it); return the copy's node."""
        node = self.nodes[i]
        return self.node_of(self.value_node("cast", node.shape, node.dtype, (i,)))

    def computed(self, i: int, kinds: tuple[str, ...] = ("elementwise", "reduce", "external")
                 ) -> int:
        """Node ``i`` when a kernel of the call computes it (``kinds``), else a copy of it."""
        return i if self.nodes[i].kind in kinds else self.copy_of(i)

    def fill(self, out: Tensor, value: Any) -> None:
        """Record ``out.fill_(value)`` (``value`` already converted to ``out``'s dtype)."""
        self.write(out, self.value_node("cast", out._shape, out._dtype, (("const", value),)))

    # -- .grad -----------------------------------------------------------------------------
    def read_grad(self, t: Tensor) -> Any:
        """Return ``t.grad`` as the trace sees it; guard it when the trace did not assign it."""
        effect = self.grad_effects.get(id(t))
        if effect is not None:
            return effect[1]
        if id(t._storage) in self._by_storage:
            holder = self._argument(t)
            k = holder[1]
            grad = self.arguments[k]._grad
            if grad is None:
                self.grad_guards.setdefault(holder, (holder, None))
                return None
            symbol = self._grad_inputs.get(k)
            if symbol is None:  # read afresh at every call, like an argument
                symbol = self._grad_inputs[k] = self.input(grad, k, grad_of=True)
                self.grad_guards[holder] = (holder, GradLayout(grad._strides))
            return symbol
        grad = t._grad
        self.grad_guards.setdefault(id(t), (t, grad))
        return grad

    def write_grad(self, t: Tensor, value: Any) -> None:
        """Record ``t.grad = value``."""
        effect = self.grad_effects.get(id(t))
        if effect is not None:
            holder = effect[0]
        elif id(t._storage) in self._by_storage:
            holder = self._argument(t)
        else:
            holder = t
            self._restore.append((t, t._grad))
        self.grad_effects[id(t)] = (holder, value)

    def restore_grads(self) -> None:
        """Give the real tensors back the ``.grad`` they had before the trace."""
        for t, grad in reversed(self._restore):
            t._grad = grad
        self._restore.clear()

    def _argument(self, t: Tensor) -> tuple[str, int]:
        i = self._by_storage[id(t._storage)]
        node = self.nodes[i]
        if node.kind != "input" or self.symbols[i] is not t:
            raise Untraceable("[compile] the .grad of a computed tensor is not traced")
        return ("input", node.index)

    # -- scalars and guards ----------------------------------------------------------------
    def dynamic(self, fn: Callable[[], tuple[float, ...]], count: int) -> tuple[Tensor, ...]:
        """Return ``count`` 0-d float64 tensors that ``fn()`` computes afresh on every call.

        ``fn`` runs once at the start of each call of the compiled function (not
        while tracing), so it may also update Python state, such as a step count.
        """
        scalars = tuple(self.value_node("scalar", (), float64) for _ in range(count))
        self.dynamics.append((fn, [self.node_of(s) for s in scalars]))
        return scalars

    def guard(self, check: Callable[[], bool]) -> None:
        """Trace again any call for which ``check()`` is false."""
        self.guards.append(check)

    def guard_attribute(self, obj: Any, name: str) -> None:
        """Trace again any call for which ``obj.name`` differs from its value now (once per
        object: a module's ``training`` flag, which its forward reads in Python)."""
        if id(obj) in self._guarded:
            return
        self._guarded.add(id(obj))
        value = getattr(obj, name)
        self.guards.append(lambda: getattr(obj, name) == value)


def write_part(base: Tensor, value: Tensor, part: Layout) -> Tensor:
    """Copy ``value`` into view ``part`` (shape, strides, offset) of ``base``; return ``base``.

    Example:
        >>> import gtensor as gt
        >>> write_part(gt.zeros(4), gt.ones(2), ((2,), (2,), 1)).tolist()
        [0.0, 1.0, 0.0, 1.0]
    """
    shape, strides, offset = part
    base._make_view(shape, strides, base._offset + offset).copy_(value)
    return base
