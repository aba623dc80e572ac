"""``vmap``: map a function over a batch dimension of its inputs (PyTorch's ``torch.func.vmap``).

A call runs one of two ways, chosen per call:

* **batched**: ``f`` runs once on the inputs with their batch dim moved to the
  front. That is right when every op of ``f`` treats a leading dim as a batch
  (elementwise ops with broadcasting, matmul, reductions over trailing dims),
  which gtensor cannot see from outside, so the result must pass two checks:
  ``f`` run alone on the first, the middle and the last sample gives their
  rows (same shapes and values), and no output row depends on another input
  row, by the gradients of one more batched call on detached inputs (random
  cotangents on the rows with one bit of the row number set, then clear,
  must give exactly zero gradient on the other rows: ``2 * ceil(log2(B))``
  backward passes test every pair of rows). An error, a random draw, an
  integer input or output, or an ``out_dims=None`` output also sends the call
  to the loop.
* **per sample**: ``f`` runs on each sample and the outputs are stacked. Always
  correct, one call per sample. It is the path for batches of at most three
  samples and for every function the checks turn down (reductions over the
  whole input, ``grad`` of a nonlinear function, nested ``vmap``, random ops).

The checks are strong but not a proof: a dependence between samples that has
no gradient (through a comparison or an integer index) and leaves the three
checked samples unchanged goes unseen. ``f`` should be free of side effects,
as the checks call it four more times. They copy the checked values to
the host: a few synchronizations per call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..autograd.engine import grad as _grad
from ..device import device
from ..generator import default_generator_for
from ..graph.grad_mode import enable_grad, no_grad
from ..ops.creation import tensor
from ..ops.layout.copies import cat, stack
from ..tensor import Tensor
from .pytree import count_leaves as _count
from .pytree import flatten as _flatten
from .pytree import is_dict_spec
from .pytree import unflatten as _unflatten

Dims = int | None | tuple[Any, ...] | list[Any] | dict[str, Any]
_RANDOMNESS = ("error", "different", "same")
_SMALLEST_CHECKED_BATCH = 4


def _leaf_dims(spec: Any, dims: Dims, what: str) -> list[int | None]:
    """One dim per leaf of ``spec``: an int or None applies to a whole subtree."""
    if dims is None or (isinstance(dims, int) and not isinstance(dims, bool)):
        return [dims] * _count(spec)
    if spec is None:
        raise ValueError(f"[vmap] {what}: got {dims!r} where a single int or None is expected")
    if is_dict_spec(spec):
        if not isinstance(dims, dict) or set(dims) != set(spec[1]):
            raise ValueError(f"[vmap] {what}: {dims!r} does not match a dict with keys "
                             f"{spec[1]}")
        return [d for key, sub in zip(spec[1], spec[2], strict=True)
                for d in _leaf_dims(sub, dims[key], what)]
    if not isinstance(dims, (tuple, list)) or len(dims) != len(spec[1]):
        raise ValueError(f"[vmap] {what}: {dims!r} does not match a {spec[0].__name__} of "
                         f"{len(spec[1])} items")
    return [d for sub, dim in zip(spec[1], dims, strict=True) for d in _leaf_dims(sub, dim, what)]


def _wrap(dim: int, ndim: int, what: str) -> int:
    if not -ndim <= dim < ndim:
        raise ValueError(f"[vmap] {what} {dim} is out of range for a tensor of {ndim} dims")
    return dim % ndim


def _to_front(x: Tensor, dim: int) -> Tensor:
    order = [dim] + [d for d in range(x.ndim) if d != dim]
    return x.permute(*order)


def _from_front(x: Tensor, dim: int) -> Tensor:
    order = list(range(1, x.ndim))
    order.insert(dim, 0)
    return x.permute(*order)


def _random_states(leaves: list[Any]) -> list[tuple[Any, bytes]]:
    devices = {device("cpu")} | {x.device for x in leaves if isinstance(x, Tensor)}
    gens = [default_generator_for(d) for d in sorted(devices, key=str)]
    return [(g, g.get_state().numpy().tobytes()) for g in gens]


def _drew(states: list[tuple[Any, bytes]]) -> bool:
    return any(g.get_state().numpy().tobytes() != raw for g, raw in states)


def _restore(states: list[tuple[Any, bytes]]) -> None:
    for g, raw in states:
        g.set_state(np.frombuffer(raw, dtype=np.uint8))


def _agrees(batched: Tensor, sample: Any) -> bool:
    if not isinstance(sample, Tensor) or batched.shape != sample.shape:
        return False
    a = batched.detach().cpu().numpy()
    b = sample.detach().cpu().numpy()
    if a.dtype != b.dtype:
        return False
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    tol = 1e-2 if a.dtype.itemsize <= 2 else 1e-5 if a.dtype.itemsize <= 4 else 1e-10
    return bool(np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True))


class _Call:
    """One call of a vmapped function: the flattened inputs and what to do with them."""

    def __init__(self, f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                 in_dims: Dims, out_dims: Dims, randomness: str) -> None:
        self.f, self.kwargs, self.out_dims, self.randomness = f, kwargs, out_dims, randomness
        self.leaves, self.spec = _flatten(args)
        if not isinstance(in_dims, tuple):
            in_dims = (in_dims,) * len(args)
        if len(in_dims) != len(args):
            raise ValueError(f"[vmap] in_dims has {len(in_dims)} entries for {len(args)} "
                             "positional arguments")
        self.dims = _leaf_dims(self.spec, in_dims, "in_dims")
        sizes = set()
        for i, (x, d) in enumerate(zip(self.leaves, self.dims, strict=True)):
            if d is None:
                continue
            if not isinstance(x, Tensor):
                raise ValueError(f"[vmap] in_dims gives dim {d} for an input of type "
                                 f"{type(x).__name__}; only tensors can be batched (use None)")
            self.dims[i] = d = _wrap(d, x.ndim, "in_dim")
            sizes.add(x.shape[d])
        if not sizes:
            raise ValueError("[vmap] at least one input must be batched (in_dims are all None "
                             "or there are no tensor inputs)")
        if len(sizes) > 1:
            raise ValueError(f"[vmap] the batched inputs have different batch sizes "
                             f"{sorted(sizes)}")
        self.size = sizes.pop()

    def call(self, leaves: list[Any]) -> Any:
        return self.f(*_unflatten(self.spec, leaves)[0], **self.kwargs)

    def sample(self, i: int) -> list[Any]:
        return [x if d is None else x.select(d, i) for x, d in zip(self.leaves, self.dims,
                                                                     strict=True)]

    def out_leaf_dims(self, out: Any) -> tuple[list[Any], Any, list[int | None]]:
        leaves, spec = _flatten(out)
        for x in leaves:
            if not isinstance(x, Tensor):
                raise TypeError(f"[vmap] f must return tensors (or tuples, lists and dicts of "
                                f"them), got {type(x).__name__}")
        dims = self.out_dims
        if spec is not None and spec[0] is tuple and isinstance(dims, list):
            dims = tuple(dims)
        return leaves, spec, _leaf_dims(spec, dims, "out_dims")

    def run(self) -> Any:
        states = _random_states(self.leaves)
        if self.size >= _SMALLEST_CHECKED_BATCH:
            got = self.batched(states)
            if got is not None:
                return got
            _restore(states)
        return self.per_sample(states)

    def batched(self, states: list[tuple[Any, bytes]]) -> Any:
        batched_in = [x for x, d in zip(self.leaves, self.dims, strict=True) if d is not None]
        if not all(x.dtype.is_floating_point for x in batched_in):
            return None
        front = [x if d is None else _to_front(x, d) for x, d in zip(self.leaves, self.dims,
                                                                      strict=True)]
        try:
            out = self.call(front)
            leaves, spec, dims = self.out_leaf_dims(out)
        except Exception:  # noqa: BLE001 - the per-sample path reruns f and raises its error
            return None
        if _drew(states) or any(d is None for d in dims) or not all(
                x.ndim >= 1 and x.shape[0] == self.size and x.dtype.is_floating_point
                for x in leaves):
            return None
        try:
            if not (self.samples_agree(leaves) and self.rows_independent(front)):
                return None
        except Exception:  # noqa: BLE001 - as above
            return None
        if _drew(states):
            return None
        moved = [_from_front(x, _wrap(d, x.ndim, "out_dim")) for x, d in zip(leaves, dims,
                                                                            strict=True)]
        return _unflatten(spec, moved)[0]

    def samples_agree(self, leaves: list[Tensor]) -> bool:
        """Whether ``f`` alone on the first, middle and last sample gives their batched rows."""
        with no_grad():
            for i in sorted({0, self.size // 2, self.size - 1}):
                alone, _ = _flatten(self.call(self.sample(i)))
                if len(alone) != len(leaves) or not all(
                        _agrees(x[i], y) for x, y in zip(leaves, alone, strict=True)):
                    return False
        return True

    def rows_independent(self, front: list[Any]) -> bool:
        """Whether no output row's gradient reaches another row of the batched inputs.

        Reruns ``f`` on detached copies of the batched inputs; for each bit of the
        row number, a random cotangent on the rows with that bit set (then clear)
        must give an exactly zero gradient on every other row, so every pair of
        rows is tested in ``2 * ceil(log2(size))`` backward passes.
        """
        probes = [x if d is None else x.detach().requires_grad_()
                  for x, d in zip(front, self.dims, strict=True)]
        inputs = [p for p, d in zip(probes, self.dims, strict=True) if d is not None]
        with enable_grad():
            outs, _ = _flatten(self.call(probes))
        draw = np.random.default_rng(self.size)
        rows = np.arange(self.size)
        for bit in range((self.size - 1).bit_length()):
            for chosen in (rows >> bit & 1 == 1, rows >> bit & 1 == 0):
                cotangents = [tensor(draw.standard_normal(o.shape) * chosen.reshape(
                    (-1,) + (1,) * (o.ndim - 1)), dtype=o.dtype, device=o.device) for o in outs]
                grads = _grad(outs, inputs, cotangents, retain_graph=True, allow_unused=True)
                if any(g is not None and np.any(g.detach().cpu().numpy()[~chosen] != 0)
                       for g in grads):
                    return False
        return True

    def per_sample(self, states: list[tuple[Any, bytes]]) -> Any:
        results = []
        for i in range(self.size):
            if self.randomness == "same":
                _restore(states)
            results.append(self.call(self.sample(i)))
            if self.randomness == "error" and _drew(states):
                raise RuntimeError("[vmap] f draws random numbers; pass randomness='different' "
                                   "or randomness='same' to say how samples share them")
        leaves, spec, dims = self.out_leaf_dims(results[0])
        columns = [_flatten(r)[0] for r in results]
        if any(len(c) != len(leaves) for c in columns):
            raise ValueError("[vmap] f returned a different number of outputs for different "
                             "samples")
        out = []
        for j, (x, d) in enumerate(zip(leaves, dims, strict=True)):
            if d is None:
                if not all(_agrees(x, c[j]) for c in columns[1:]):
                    raise ValueError(f"[vmap] output {j} has out_dims None but differs "
                                     "between samples")
                out.append(x)
            else:
                out.append(stack([c[j] for c in columns], _wrap(d, x.ndim + 1, "out_dim")))
        return _unflatten(spec, out)[0]


def _chunked(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
             in_dims: Dims, out_dims: Dims, randomness: str, chunk_size: int) -> Any:
    call = _Call(f, args, kwargs, in_dims, out_dims, randomness)
    if call.size <= chunk_size:
        return call.run()
    parts = []
    for start in range(0, call.size, chunk_size):
        n = min(chunk_size, call.size - start)
        leaves = [x if d is None else x.narrow(d, start, n) for x, d in zip(call.leaves,
                                                                            call.dims,
                                                                            strict=True)]
        part = _Call(f, _unflatten(call.spec, leaves)[0], kwargs, in_dims, out_dims,
                     randomness)
        parts.append(part.run())
    leaves, spec, dims = call.out_leaf_dims(parts[0])
    columns = [_flatten(p)[0] for p in parts]
    out = [x if d is None else cat([c[j] for c in columns], _wrap(d, x.ndim, "out_dim"))
           for j, (x, d) in enumerate(zip(leaves, dims, strict=True))]
    return _unflatten(spec, out)[0]


def vmap(func: Callable[..., Any], in_dims: Dims = 0, out_dims: Dims = 0,
         randomness: str = "error", chunk_size: int | None = None) -> Callable[..., Any]:
    """Return ``func`` mapped over a batch dim of its inputs (PyTorch's ``torch.func.vmap``).

    Args:
        func: takes the inputs of one sample, returns tensors (or tuples, lists
            and dicts of them).
        in_dims: the batch dim of each positional input: an int, None (not
            batched), or a tuple with one entry per argument, nested like the
            arguments. Keyword arguments are passed to every call unbatched.
        out_dims: where the batch dim goes in each output (an int, None for
            an output that does not depend on the sample, or nested tuples).
        randomness: ``"error"`` (random draws in ``func`` raise),
            ``"different"`` (each sample draws its own) or ``"same"`` (every
            sample draws the same numbers).
        chunk_size: map this many samples at a time (saves memory).

    Returns:
        The mapped function. See the module docstring for when ``func`` runs
        once on the whole batch and when once per sample.

    Example:
        >>> x = gt.tensor([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0]])
        >>> vmap(lambda v: v.dot(v))(x)
        tensor([ 5., 25.,  1.])
    """
    if randomness not in _RANDOMNESS:
        raise ValueError(f"[vmap] randomness must be one of {_RANDOMNESS}, got {randomness!r}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"[vmap] chunk_size must be a positive int or None, got {chunk_size!r}")

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if chunk_size is None:
            return _Call(func, args, kwargs, in_dims, out_dims, randomness).run()
        return _chunked(func, args, kwargs, in_dims, out_dims, randomness, chunk_size)

    return wrapped
