"""The backward engine: iterative topological execution by dependency counts.

No recursion anywhere, so a chain of 100,000 ops works. Gradients arriving at
one node from several consumers are summed before the node runs; each node
runs once, and frees its saved tensors unless ``retain_graph``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..graph.anomaly import is_anomaly_enabled
from ..graph.grad_mode import state
from ..graph.node import AccumulateGrad, Edge, Node, edge_of
from ..ops.creation import ones_like, zeros, zeros_like
from ..ops.elementwise import SPECS, inplace_binary
from ..ops.layout.copies import stack
from ..tensor_base import TensorBase
from ..trace_state import state as tracing

if TYPE_CHECKING:
    from ..tensor import Tensor

Key = tuple[int, int]
_ADD = SPECS["add"]


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, TensorBase):
        return [x]
    return list(x)


def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum ``g`` over broadcast dims so that it has ``shape`` (undoes broadcasting).

    Example:
        >>> sum_to(gt.ones(2, 3), (3,)).tolist()
        [2.0, 2.0, 2.0]
    """
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1)
    if dims:
        g = g.sum(dim=dims, keepdim=True)
    return g.reshape(shape)


def _fit(g: Tensor, meta: tuple[Any, Any, Any], owner: Node) -> Tensor:
    """Bring a VJP result to its input's shape, dtype and device."""
    shape, dt, dev = meta
    if g.shape != shape:
        try:
            g = sum_to(g, shape)
        except Exception as exc:
            raise RuntimeError(f"[backward] {owner.name} returned a gradient of shape {g.shape} "
                               f"for an input of shape {shape}") from exc
    if g.dtype.is_complex and not dt.is_complex:
        g = g.real  # a real input's gradient is the real part (PyTorch)
    if g.dtype is not dt or g.device != dev:
        g = g.to(device=dev, dtype=dt)
    return g


def _collect(roots: list[Node]) -> dict[Node, int]:
    """Return how many edges point at each node reachable from ``roots``."""
    deps: dict[Node, int] = {}
    seen: set[Node] = set(roots)
    stack = list(roots)
    while stack:
        for edge in stack.pop().next_edges:
            if edge is not None:
                child = edge[0]
                deps[child] = deps.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return deps


def _topological(roots: list[Node], deps: dict[Node, int]) -> list[Node]:
    """Order nodes so that every node comes before the nodes its edges point to."""
    remaining = dict(deps)
    ready = [n for n in roots if remaining.get(n, 0) == 0]
    order: list[Node] = []
    while ready:
        node = ready.pop()
        order.append(node)
        for edge in node.next_edges:
            if edge is not None:
                remaining[edge[0]] -= 1
                if remaining[edge[0]] == 0:
                    ready.append(edge[0])
    return order


def _needed(order: list[Node], targets: set[Node]) -> set[Node]:
    """Nodes from which some target is reachable (the only ones worth running)."""
    needed = set(targets)
    for node in reversed(order):
        if node not in needed and any(e is not None and e[0] in needed
                                      for e in node.next_edges):
            needed.add(node)
    return needed


def _accumulate(leaf: Tensor, g: Tensor, create_graph: bool) -> None:
    grad = leaf.grad  # the property: gt.compile traces what it reads
    if grad is None:
        if create_graph:
            leaf.grad = g
        else:
            kept = _unshared(leaf, g)
            leaf.grad = kept if kept is not None else g.detach().clone()
    elif create_graph or grad.requires_grad:
        leaf.grad = grad + g
    elif g._storage is not grad._storage:
        inplace_binary(_ADD, grad, g)  # grad mode is off here: the plain in-place kernel
    else:
        grad.add_(g.detach())
    for hook in leaf._post_acc_hooks or ():
        hook(leaf)


def _unshared(leaf: Tensor, g: Tensor) -> Tensor | None:
    """``g`` itself as ``leaf``'s first ``.grad`` when nothing else can reach its memory.

    As PyTorch's AccumulateGrad: a gradient that only the engine holds (no user
    reference, no other view of its memory, not a foreign buffer) and that is
    laid out as the leaf becomes ``.grad`` without a copy. Otherwise None: the
    caller clones, so that later in-place accumulation touches no one else's
    tensor. Called from :func:`_accumulate` with the gradient popped from its buffer.
    """
    if tracing.trace is not None or g._requires_grad or g._offset or (
            g._strides != leaf._strides):
        return None
    storage = g._storage
    if storage.block is None or storage.nbytes != math.prod(g._shape) * g._dtype.itemsize:
        return None
    if sys.getrefcount(g) > _SOLE_ARGUMENT:
        return None
    base = g._base
    # Holders of the storage besides this function's local: g, and its base, which only g
    # may hold. A cached native array holds it too: dropped here (only a cache), it goes
    # unless someone else took it, whose reference then keeps the count up.
    g._native_cache = None
    if base is None:
        return g if sys.getrefcount(storage) <= _SOLE_ATTRIBUTE + 1 else None
    base._native_cache = None
    if base._requires_grad or sys.getrefcount(base) > _SOLE_ATTRIBUTE + 1 or (
            sys.getrefcount(storage) > _SOLE_ATTRIBUTE + 2):
        return None
    return g.detach()  # the view's base goes with the engine's last reference to it


def _refs_in_callee(leaf: object, g: object) -> int:
    return sys.getrefcount(g)


def _refs_in_caller(leaf: object, g: object, create_graph: bool) -> int:
    return _refs_in_callee(leaf, g)


class _Holder:
    __slots__ = ("value",)


def _refs_of_attribute() -> int:
    holder = _Holder()
    holder.value = object()
    return sys.getrefcount(holder.value)


# What sys.getrefcount reports for a gradient no one else holds, measured on this
# interpreter through the same calls _accumulate and _unshared make.
_SOLE_ARGUMENT = _refs_in_caller(None, [object()].pop(), False)
_SOLE_ATTRIBUTE = _refs_of_attribute()


def _run_pre_hooks(node: Node, grads: list[Tensor | None]) -> None:
    """Let the tensor hooks of ``node``'s outputs see (and replace) their incoming gradients.

    Called only for a node that has hooks (its own, or its leaf's).
    """
    leaf_hooks = node.variable._backward_hooks if isinstance(node, AccumulateGrad) else None
    lists = list(node.pre_hooks.items()) if node.pre_hooks else []
    if leaf_hooks:
        lists.append((0, leaf_hooks))
    for nr, hooks in lists:
        for hook in list(hooks):
            if grads[nr] is not None:
                new = hook(grads[nr])
                grads[nr] = grads[nr] if new is None else new


def _check_nan(node: Node, grads: Sequence[Tensor | None]) -> None:
    for i, g in enumerate(grads):
        if g is not None and g.dtype.is_inexact and bool(g.isnan().any()):
            where = "".join(node.trace or ["(no forward trace recorded)\n"])
            raise RuntimeError(f"[backward] function {node.name} returned nan values in its "
                               f"{i}th output; the forward op was created at:\n{where}")


def run_backward(outputs: Sequence[Tensor], grad_outputs: Sequence[Tensor | None],
                 retain_graph: bool, create_graph: bool,
                 capture: Sequence[Edge] | None = None,
                 accumulate: bool = True) -> list[Tensor | None]:
    """Run the graph backward from ``outputs``.

    Args:
        outputs: tensors to differentiate.
        grad_outputs: their gradients (None means ones for a scalar output).
        retain_graph: keep saved tensors for another backward.
        create_graph: record the backward pass itself (higher-order gradients).
        capture: edges whose incoming gradient is returned instead of accumulated.
        accumulate: add gradients into leaves' ``.grad``.

    Returns:
        The gradient arriving at each ``capture`` edge (None when unreached).
    """
    roots: list[Node] = []
    buffers: dict[Node, list[Tensor | None]] = {}
    for i, (out, g) in enumerate(zip(outputs, grad_outputs, strict=True)):
        edge = edge_of(out)
        if edge is None:
            raise RuntimeError(f"[backward] element {i} of tensors does not require grad and "
                               "does not have a grad_fn")
        if g is None:
            if out.numel() != 1:
                raise RuntimeError("[backward] grad can be implicitly created only for scalar "
                                   f"outputs; output {i} has shape {out.shape}")
            if out.dtype.is_complex:
                raise RuntimeError("[backward] grad can be implicitly created only for real "
                                   f"scalar outputs; output {i} is {out.dtype.name}")
            g = ones_like(out)
        elif g.shape != out.shape:
            raise RuntimeError(f"[backward] grad of shape {g.shape} does not match output "
                               f"{i} of shape {out.shape}")
        node, nr = edge
        buf = buffers.setdefault(node, [None] * node.n_outputs)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
        if node not in roots:
            roots.append(node)

    deps = _collect(roots)
    targets: dict[Key, int] = {}
    if capture is not None:
        for j, (node, nr) in enumerate(capture):
            targets[(id(node), nr)] = j
        needed = _needed(_topological(roots, deps), {node for node, _ in capture})
        deps = dict.fromkeys(needed, 0)
        for parent in needed:
            for e in parent.next_edges:
                if e is not None and e[0] in needed:
                    deps[e[0]] += 1
    else:
        needed = None  # every node reached from the roots runs
    captured: list[Tensor | None] = [None] * (len(capture) if capture else 0)
    capture_nodes = {node for node, _ in capture} if capture else set()

    ready = [n for n in roots if deps.get(n, 0) == 0 and (needed is None or n in needed)]
    anomaly = is_anomaly_enabled()
    grad_mode = state.enabled  # set_grad_enabled(create_graph), without its objects
    state.enabled = create_graph
    try:
        while ready:
            node = ready.pop()
            grads = buffers.pop(node, None) or [None] * node.n_outputs
            if node.pre_hooks or (node.__class__ is AccumulateGrad
                                  and node.variable._backward_hooks):
                _run_pre_hooks(node, grads)
            if capture_nodes and node in capture_nodes:
                for nr, g in enumerate(grads):
                    j = targets.get((id(node), nr))
                    if j is not None:
                        captured[j] = g
            if node.__class__ is AccumulateGrad:
                if accumulate and grads[0] is not None and (
                        capture is None or node in capture_nodes):
                    _accumulate(node.variable, grads.pop(), create_graph)
                continue
            if capture is not None and node in capture_nodes and not any(
                    e is not None and e[0] in needed for e in node.next_edges):
                continue
            _run_node(node, grads, retain_graph, anomaly, buffers, deps, ready, needed)
    finally:
        state.enabled = grad_mode
    return captured


def _run_node(node: Node, grads: list[Tensor | None], retain_graph: bool, anomaly: bool,
              buffers: dict[Node, list[Tensor | None]], deps: dict[Node, int],
              ready: list[Node], needed: set[Node] | None) -> None:
    """Run one node's VJP and add its results to its children's buffers.

    A function of its own so that no gradient outlives it in a local variable:
    :func:`_unshared` counts the references to a leaf's incoming gradient.
    """
    missing = 0
    for g in grads:  # `is`, not `in`/count: those would call Tensor.__eq__
        if g is None:
            missing += 1
    if missing == len(grads):
        results: tuple[Tensor | None, ...] = (None,) * len(node.next_edges)
    else:
        if missing and getattr(node, "materialize_grads", True):
            grads = [g if g is not None else zeros(meta[0], dtype=meta[1], device=meta[2])
                     for g, meta in zip(grads, node.output_meta, strict=True)]
        results = node.apply(grads)
        if anomaly:
            _check_nan(node, results)
    if not retain_graph:
        node.release()
    for edge, g, meta in zip(node.next_edges, results, node.input_meta, strict=True):
        if edge is None:
            continue
        child, nr = edge
        if needed is not None and child not in needed:
            continue
        if g is not None:
            if g._shape != meta[0] or g._dtype is not meta[1] or (
                    g._storage.device is not meta[2]):
                g = _fit(g, meta, node)
            buf = buffers.get(child)
            if buf is None:
                buf = buffers[child] = [None] * child.n_outputs
                buf[nr] = g
            else:
                buf[nr] = g if buf[nr] is None else buf[nr] + g
        left = deps[child] - 1
        deps[child] = left
        if left == 0:
            ready.append(child)


def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Any = None,
             retain_graph: bool | None = None, create_graph: bool = False,
             inputs: Tensor | Sequence[Tensor] | None = None) -> None:
    """Accumulate gradients of ``tensors`` into the ``.grad`` of the leaves.

    Args:
        tensors: outputs to differentiate.
        grad_tensors: their gradients (default: ones for scalars).
        retain_graph: keep the graph for another backward (default: ``create_graph``).
        create_graph: record the backward pass, for higher-order gradients.
        inputs: accumulate only into these tensors.

    Example:
        >>> x = gt.tensor([1.0, 2.0], requires_grad=True)
        >>> gt.autograd.backward((x * x).sum())
        >>> x.grad.tolist()
        [2.0, 4.0]
    """
    if tracing.trace is not None:
        tracing.trace.ran_backward = True
    outs = _as_list(tensors)
    grads = _as_list(grad_tensors) or [None] * len(outs)
    retain = create_graph if retain_graph is None else retain_graph
    if inputs is None:
        run_backward(outs, grads, retain, create_graph)
        return
    targets = _as_list(inputs)
    edges = [_input_edge(t, "backward") for t in targets]
    got = run_backward(outs, grads, retain, create_graph, capture=edges, accumulate=False)
    for t, g in zip(targets, got, strict=True):
        if g is not None:
            _accumulate(t, g, create_graph)


def _input_edge(t: Tensor, op: str) -> Edge:
    edge = edge_of(t)
    if edge is None:
        raise RuntimeError(f"[{op}] one of the differentiated tensors does not require grad")
    return edge


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (no ``.grad`` touched).

    Args:
        outputs: the tensors differentiated.
        inputs: the tensors the gradients are taken with respect to.
        grad_outputs: the vectors of the vector-Jacobian products (ones for scalars).
        retain_graph: keep the graph for another backward (default: ``create_graph``).
        create_graph: record the backward, for higher-order gradients.
        allow_unused: return None for an input the outputs do not depend on
            (default: ``materialize_grads``).
        is_grads_batched: the first dim of each ``grad_outputs`` entry is a batch;
            the results carry the same leading dim.
        materialize_grads: return zeros instead of None for unused inputs.

    Example:
        >>> x = gt.tensor([1.0, 2.0], requires_grad=True)
        >>> (gx,) = gt.autograd.grad((x ** 3).sum(), x)
        >>> gx.tolist(), x.grad
        ([3.0, 12.0], None)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("[grad] expected allow_unused to be True or not passed when "
                         "materialize_grads=True")
    outs = _as_list(outputs)
    ins = _as_list(inputs)
    grads = _as_list(grad_outputs) or [None] * len(outs)
    retain = create_graph if retain_graph is None else retain_graph
    edges = [_input_edge(t, "grad") for t in ins]
    if is_grads_batched:
        if any(g is None for g in grads) or len(grads) != len(outs):
            raise ValueError("[grad] is_grads_batched=True needs a batched grad_outputs "
                             "entry for every output")
        rows = [run_backward(outs, [g[i] for g in grads], True, create_graph, capture=edges,
                             accumulate=False) for i in range(grads[0].shape[0])]
        got = [None if col[0] is None else stack(list(col)) for col in zip(*rows, strict=True)]
    else:
        got = run_backward(outs, grads, retain, create_graph, capture=edges, accumulate=False)
    for i, g in enumerate(got):
        if g is None and not (allow_unused or materialize_grads):
            raise RuntimeError(f"[grad] one of the differentiated tensors (input {i}) appears "
                               "to not have been used in the graph; set allow_unused=True "
                               "if this is the desired behavior")
    if materialize_grads:
        got = [zeros_like(t) if g is None else g for g, t in zip(got, ins, strict=True)]
    return tuple(got)
