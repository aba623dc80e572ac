"""Graph nodes: one per recorded op, holding its VJP, saved tensors and input edges.

An op records itself with :func:`record`; its VJP is a function
``vjp(ctx, *grads) -> grad or tuple of grads`` (one per input) written with
gtensor ops, where ``ctx`` is the node: ``ctx.saved_tensors`` gives the saved
tensors (checked against in-place changes) and any keyword given to
``record`` is an attribute.
"""

from __future__ import annotations

import traceback
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..tensor_base import from_storage
from .anomaly import _state as anomaly_state
from .grad_mode import state

if TYPE_CHECKING:
    from ..tensor import Tensor
else:
    from ..tensor_base import TensorBase as Tensor  # run time: the core class, below the ops

Edge = tuple["Node", int]


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An op's own output is stored without its ``grad_fn`` (no reference cycle)
    and gets it back when unpacked, so double backward sees the full graph.
    """

    __slots__ = ("_data", "_version", "_node", "_output_nr", "_requires_grad", "_leaf_ref")

    def __init__(self, t: Tensor, node: Node, is_output: bool) -> None:
        self._version = t._storage.version
        if is_output:
            self._requires_grad = t.requires_grad
            self._data = from_storage(t._storage, t._shape, t._strides, t._offset, t._dtype)
            self._node: weakref.ref | None = weakref.ref(node)
            self._output_nr = t._output_nr
        else:
            self._data = t
            self._node = None

    def unpack(self, owner: Node) -> Tensor:
        data = self._data
        if data._storage.version != self._version:
            raise RuntimeError(
                f"[backward] one of the variables needed for gradient computation has been "
                f"modified by an inplace operation: {owner.name} saved a tensor of shape "
                f"{data.shape} at version {self._version}; it is now at version "
                f"{data._version}")
        if self._node is None:
            return data
        node = self._node()
        out = from_storage(data._storage, data._shape, data._strides, data._offset, data._dtype)
        if node is not None and self._requires_grad:
            out._requires_grad = True
            out.grad_fn = node
            out._output_nr = self._output_nr
        return out


class Node:
    """A recorded op: calling :meth:`apply` maps output grads to input grads.

    Keyword attributes an op records for its VJP (``ctx.dim``) live in the
    instance dict; the node's own fields are slots.

    Example:
        >>> y = gt.ones(2, requires_grad=True) * 2
        >>> y.grad_fn.name
        'mul'
    """

    __slots__ = ("name", "vjp", "next_edges", "input_meta", "n_outputs", "output_meta",
                 "_saved", "_released", "pre_hooks", "trace", "__dict__", "__weakref__")

    def __init__(self, name: str, vjp: Callable[..., Any] | None,
                 inputs: Sequence[Any], n_outputs: int = 1) -> None:
        self.name = name
        self.vjp = vjp
        edges: list[Edge | None] = []
        meta: list[Any] = []
        for t in inputs:
            if isinstance(t, Tensor):
                meta.append((t._shape, t._dtype, t._storage.device))
                # edge_of(t), written out: every recorded op makes one per input
                if t._requires_grad if t._base is None else t.requires_grad:
                    fn = t.grad_fn
                    edges.append((fn, t._output_nr) if fn is not None else
                                 (accumulator_of(t), 0))
                else:
                    edges.append(None)
            else:
                meta.append(None)
                edges.append(None)
        self.next_edges = edges
        self.input_meta = meta
        self.n_outputs = n_outputs
        self.output_meta: list[Any] = [None] * n_outputs
        self._saved: list[SavedTensor | None] = _NOTHING_SAVED
        self._released = False
        self.pre_hooks: dict[int, list[Callable]] | None = None  # made by the first hook
        self.trace = traceback.format_stack()[:-3] if anomaly_state.enabled else None

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        """For each input, whether a gradient for it is wanted."""
        return tuple([e is not None for e in self.next_edges])

    def save(self, tensors: Sequence[Tensor | None], outputs: Sequence[Tensor] = ()) -> None:
        """Save ``tensors`` for the VJP (``outputs`` are this node's own results)."""
        if len(outputs) == 1:
            out = outputs[0]
            self._saved = [None if t is None else SavedTensor(t, self, t is out)
                           for t in tensors]
        else:
            self._saved = [None if t is None else SavedTensor(t, self, _among(t, outputs))
                           for t in tensors]

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        """The saved tensors; raises after they were freed or modified in place."""
        if self._released:
            raise RuntimeError(
                f"[backward] Trying to backward through the graph a second time (or directly "
                f"access saved tensors after they have already been freed) in {self.name}. "
                "Specify retain_graph=True on the first backward if you need to do this.")
        return tuple([None if s is None else s.unpack(self) for s in self._saved])

    def release(self) -> None:
        """Free the saved tensors (after a backward without ``retain_graph``)."""
        self._saved = _NOTHING_SAVED
        self._released = True

    def apply(self, grads: Sequence[Tensor]) -> tuple[Tensor | None, ...]:
        """Run the VJP and return one gradient (or None) per input."""
        if self._released:
            _ = self.saved_tensors  # raises the second-backward error
        result = self.vjp(self, *grads)  # type: ignore[misc]
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) != len(self.next_edges):
            raise RuntimeError(f"[backward] {self.name} returned {len(result)} gradients for "
                               f"{len(self.next_edges)} inputs")
        return result

    @property
    def label(self) -> str:
        """PyTorch-style name: ``mul`` -> ``MulBackward``, ``copy_`` -> ``CopyBackward``."""
        if isinstance(self, AccumulateGrad):
            return "AccumulateGrad"
        return "".join(p.capitalize() for p in self.name.strip("_").split("_")) + "Backward"

    def __repr__(self) -> str:
        return f"<{self.label} object>"


_NOTHING_SAVED: list[SavedTensor | None] = []  # shared, never mutated


def _among(t: Tensor, outputs: Sequence[Tensor]) -> bool:
    for o in outputs:
        if o is t:
            return True
    return False


class AccumulateGrad(Node):
    """The sink of a leaf tensor: adds incoming gradients into ``leaf.grad``."""

    __slots__ = ("variable",)

    def __init__(self, leaf: Tensor) -> None:  # written out: one is made per leaf and graph
        self.name = "AccumulateGrad"
        self.vjp = None
        self.next_edges = []
        self.input_meta = []
        self.n_outputs = 1
        self.output_meta = [(leaf._shape, leaf._dtype, leaf._storage.device)]
        self._saved = _NOTHING_SAVED
        self._released = False
        self.pre_hooks = None
        self.trace = None
        self.variable = leaf


def accumulator_of(t: Tensor) -> AccumulateGrad:
    """Return (creating once) the AccumulateGrad node of leaf ``t``."""
    ref = t._grad_accumulator
    acc = ref() if ref is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._grad_accumulator = weakref.ref(acc)
    return acc


def edge_of(t: Any) -> Edge | None:
    """Return the graph edge that a gradient for ``t`` should follow (None if none)."""
    if not isinstance(t, Tensor) or not (t._requires_grad if t._base is None
                                         else t.requires_grad):
        return None
    fn = t.grad_fn
    if fn is not None:
        return fn, t._output_nr
    return accumulator_of(t), 0


def needs_grad(*inputs: Any) -> bool:
    """True when grad mode is on and some tensor among ``inputs`` requires grad."""
    if not state.enabled:
        return False
    for t in inputs:
        # a view's flag may be stale after an in-place write to its base: ask the property
        if isinstance(t, Tensor) and (t._requires_grad if t._base is None else t.requires_grad):
            return True
    return False


def record(name: str, outputs: Tensor | Sequence[Tensor], inputs: Sequence[Any],
           vjp: Callable[..., Any], save: Sequence[Tensor | None] = (),
           **attrs: Any) -> Node | None:
    """Record one op in the graph when grad mode is on and an input requires grad.

    Args:
        name: the op's name (shown in errors and ``grad_fn``).
        outputs: the op's result tensor(s); floating ones get ``grad_fn`` set.
        inputs: the op's inputs in VJP order (non-tensors get no edge).
        vjp: ``vjp(ctx, *grads)`` returning one gradient (or None) per input.
        save: tensors the VJP reads through ``ctx.saved_tensors``.
        **attrs: plain values the VJP reads as ``ctx.<name>``.

    Returns:
        The node, or None when nothing was recorded.

    Example:
        >>> x = gt.ones(2, requires_grad=True)
        >>> out = x.detach() * 2  # computed outside autograd, as a kernel would
        >>> node = record("double", out, (x,), lambda ctx, g: g * 2)
        >>> out.sum().backward(); out.grad_fn.name, x.grad.tolist()
        ('double', [2.0, 2.0])
    """
    if not needs_grad(*inputs):
        return None
    return make_node(name, outputs, inputs, vjp, save, attrs)


def make_node(name: str, outputs: Tensor | Sequence[Tensor], inputs: Sequence[Any],
              vjp: Callable[..., Any], save: Sequence[Tensor | None],
              attrs: dict[str, Any] | None) -> Node:
    """Record one op whose caller has checked :func:`needs_grad` (see :func:`record`)."""
    outs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
    node = Node(name, vjp, inputs, len(outs))
    for i, out in enumerate(outs):
        dt = out._dtype
        node.output_meta[i] = (out._shape, dt, out._storage.device)
        if dt.category >= 2:
            out._requires_grad = True
            out.grad_fn = node
            out._output_nr = i
    if attrs:
        node.__dict__.update(attrs)
    if save:
        node.save(save, outs)
    return node
