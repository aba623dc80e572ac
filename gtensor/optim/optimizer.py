"""Optimizer base class: parameter groups, per-parameter state, state dicts.

Updates run as gtensor ops under :func:`gtensor.no_grad` on each parameter's
own device: no value crosses to the host during ``step()``. Per-parameter
step counters are Python ints (they never live on the device). Under
``gt.compile`` a step is traced with the rest of the function once the first
step (run eagerly) has made the optimizer's state; the learning rate and the
step counts are read afresh at every call, other options are guarded.

Master weights: a parameter group with ``master_weights=True`` (a keyword of
``Adam``, ``AdamW`` and ``SGD``; a group option for any optimizer built on
:meth:`Optimizer._with_grads`) updates each float16 or bfloat16 parameter
through a float32 copy kept in its state as ``"master_param"``: the update
and the optimizer's state are float32, and each step writes the rounded copy
back into the parameter, so updates smaller than the parameter's precision
accumulate instead of vanishing. The copy is the reference: a parameter
changed outside the optimizer is overwritten at the next step. State dicts
keep the copy and the float32 state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..dtypes import dtype, float32
from ..errors import NotYetTraceable, Untraceable
from ..graph.grad_mode import enable_grad, no_grad
from ..nn.parameter import zero_grads
from ..tensor import Tensor
from ..trace_state import state as tracing

ParamsT = Iterable[Tensor] | Iterable[dict[str, Any]]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required: Any = _Required()


class Optimizer:
    """Base class: holds ``param_groups`` (dicts with ``"params"`` and options) and ``state``.

    Subclasses implement :meth:`step` group by group.

    Args:
        params: tensors, or dicts ``{"params": [...], **options}`` (one group each).
        defaults: default options for groups that do not set them.

    Example:
        >>> body, head = nn.Linear(2, 2), nn.Linear(2, 1)
        >>> opt = gt.optim.SGD([{"params": body.parameters()},
        ...                     {"params": head.parameters(), "lr": 1e-3}], lr=1e-2)
        >>> [g["lr"] for g in opt.param_groups]
        [0.01, 0.001]
    """

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        self.defaults = dict(defaults)
        self.state: dict[Tensor, dict[str, Any]] = {}
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(f"[{type(self).__name__}] params must be an iterable of tensors or "
                            "dicts, got a Tensor")
        groups = list(params)
        if not groups:
            raise ValueError(f"[{type(self).__name__}] got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)  # type: ignore[arg-type]

    def add_param_group(self, group: dict[str, Any]) -> None:
        """Add a group of parameters with its own options (missing ones from the defaults).

        Example:
            >>> opt = gt.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.01, momentum=0.9)
            >>> opt.add_param_group({"params": nn.Linear(2, 1).parameters(), "lr": 0.1})
            >>> [(g["lr"], g["momentum"], len(g["params"])) for g in opt.param_groups]
            [(0.01, 0.9, 2), (0.1, 0.9, 2)]
        """
        name = type(self).__name__
        if not isinstance(group, dict):
            raise TypeError(f"[{name}] a param group must be a dict, got {type(group).__name__}")
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"[{name}] can only optimize Tensors, got {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError(f"[{name}] can't optimize a non-leaf Tensor")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if len({id(p) for p in params}) != len(params) or any(id(p) in seen for p in params):
            raise ValueError(f"[{name}] some parameters appear in more than one parameter group "
                             "(or twice in one)")
        full = {"params": params}
        for key, default in self.defaults.items():
            value = group.get(key, default)
            if value is required:
                raise ValueError(f"[{name}] parameter group didn't specify a value of required "
                                 f"optimization parameter {key}")
            full[key] = value
        for key, value in group.items():
            full.setdefault(key, value)
        self.param_groups.append(full)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized parameters (to None by default)."""
        zero_grads((p for g in self.param_groups for p in g["params"]), set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` when given.

        Example:
            >>> w = gt.tensor([1.0, 2.0], requires_grad=True)
            >>> opt = gt.optim.SGD([w], lr=0.5)
            >>> (w * w).sum().backward(); opt.step()
            >>> w.tolist()
            [0.0, 0.0]
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        trace = tracing.trace
        if trace is not None:
            self._prepare_trace(trace)
        with no_grad():
            for group in self.param_groups:
                if trace is None:
                    self._update_group(group)
                else:
                    self._traced_update(group, trace)
        return loss

    def _update_group(self, group: dict[str, Any]) -> None:
        raise TypeError(f"[{type(self).__name__}] an Optimizer subclass must define "
                        "_update_group")

    def _traced_update(self, group: dict[str, Any], trace: Any) -> None:
        """Update the group under ``gt.compile``: as ops on tensors, with the learning rate and
        step counts read at each call through ``trace.dynamic``."""
        raise Untraceable(f"[compile] {type(self).__name__}.step is not traced yet")

    def _prepare_trace(self, trace: Any) -> None:
        """Check that a traced step can run; guard the options it freezes (all but ``lr``)."""
        name = type(self).__name__
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and p not in self.state:
                    raise NotYetTraceable(f"[compile] {name} makes its state in its first "
                                          "step, which runs eagerly")
        frozen = self._frozen_options()
        trace.guard(lambda: self._frozen_options() == frozen)

    def _frozen_options(self) -> list[Any]:
        return [([id(p) for p in g["params"]], {k: v for k, v in g.items()
                                                if k not in ("params", "lr")})
                for g in self.param_groups]

    def _with_grads(self, group: dict[str, Any]) -> Iterator[tuple[Tensor, Tensor,
                                                                   dict[str, Any]]]:
        """Yield ``(param, gradient, state)`` for the group's parameters that have a gradient.

        The gradient is negated when the group maximizes; ``state`` is created empty.
        With ``master_weights``, a half-precision parameter is yielded as its float32
        master copy with a float32 gradient, and the copy is written back into the
        parameter when the caller asks for the next one.
        """
        master = group.get("master_weights", False)
        for p in group["params"]:
            if p.grad is None:
                continue
            st = self.state.get(p)
            if st is None:
                st = self.state[p] = {}
            g = -p.grad if group.get("maximize") else p.grad
            if not (master and p.dtype.is_half):
                yield p, g, st
                continue
            full = st.get("master_param")
            if full is None:
                full = p.detach().to(float32)
            yield full, g.to(float32), st
            st["master_param"] = full
            p.copy_(full)

    # -- state dicts ---------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Return ``{"state": {index: {...}}, "param_groups": [{..., "params": [index]}]}``.

        Parameters are numbered in group order; tensors in the state are the
        live ones (save the dict with :func:`gtensor.save` to copy them).

        Example:
            >>> opt = gt.optim.SGD([gt.zeros(2, requires_grad=True)], lr=0.1)
            >>> sd = opt.state_dict()
            >>> sd["state"], sd["param_groups"][0]["lr"], sd["param_groups"][0]["params"]
            ({}, 0.1, [0])
        """
        index: dict[int, int] = {}
        groups = []
        for g in self.param_groups:
            ids = []
            for p in g["params"]:
                index.setdefault(id(p), len(index))
                ids.append(index[id(p)])
            groups.append({**{k: v for k, v in g.items() if k != "params"}, "params": ids})
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore options and state saved by :meth:`state_dict` (for the same parameters).

        State tensors are moved to each parameter's device, and floating ones
        cast to its dtype (to float32 for a half-precision parameter of a group
        with ``master_weights``).

        Raises:
            ValueError: the group count or a group's size differs.
        """
        name = type(self).__name__
        groups = state_dict.get("param_groups")
        if not isinstance(groups, list) or "state" not in state_dict:
            raise ValueError(f"[{name}.load_state_dict] expected a dict with 'state' and "
                             "'param_groups'")
        if len(groups) != len(self.param_groups):
            raise ValueError(f"[{name}.load_state_dict] loaded state dict has "
                             f"{len(groups)} parameter groups, the optimizer has "
                             f"{len(self.param_groups)}")
        for i, (saved, own) in enumerate(zip(groups, self.param_groups, strict=True)):
            if len(saved["params"]) != len(own["params"]):
                raise ValueError(f"[{name}.load_state_dict] parameter group {i} has "
                                 f"{len(saved['params'])} parameters in the loaded state dict "
                                 f"and {len(own['params'])} in the optimizer")
        by_index: dict[int, tuple[Tensor, dict[str, Any]]] = {}
        for saved, own in zip(groups, self.param_groups, strict=True):
            for idx, p in zip(saved["params"], own["params"], strict=True):
                by_index[int(idx)] = p, own
            own.update({k: v for k, v in saved.items() if k != "params"})
        self.state = {}
        for idx, st in state_dict["state"].items():
            found = by_index.get(int(idx))
            if found is None:
                continue
            p, group = found
            dt = float32 if group.get("master_weights") and p.dtype.is_half else p.dtype
            self.state[p] = {k: _cast_like(v, p, dt) for k, v in st.items()}

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, g in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines += [f"    {k}: {v}" for k, v in sorted(g.items()) if k != "params"]
        return "\n".join(lines) + "\n)"


def count_step(st: dict[str, Any]) -> tuple[()]:
    """Add one to a parameter's step count (a compiled step calls this at every call)."""
    st["step"] += 1
    return ()


def _cast_like(value: Any, p: Tensor, floating: dtype) -> Any:
    if isinstance(value, list):  # LBFGS keeps its history as lists of tensors
        return [_cast_like(v, p, floating) for v in value]
    if not isinstance(value, Tensor):
        return value
    dt = floating if value.dtype.is_floating_point else value.dtype
    return value.detach().to(device=p.device, dtype=dt, copy=True)
