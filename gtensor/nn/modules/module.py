"""Module: the base class of layers and models (parameters, buffers, submodules, hooks).

Attributes assigned on a module are sorted as they are set: a
:class:`~gtensor.nn.Parameter` is registered as a parameter, a ``Module`` as a
child, and a tensor given to :meth:`Module.register_buffer` as a buffer.
:meth:`Module.to` moves and casts parameters and buffers in place (see
:func:`~gtensor.nn.parameter.replace_data_`): the Parameter objects an
optimizer holds stay valid.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from ...autograd.hooks import RemovableHandle
from ...device import device, resolve
from ...dtypes import as_dtype, bfloat16, dtype, float16, float32, float64
from ...graph.grad_mode import no_grad
from ...tensor import Tensor
from ...trace_state import state as trace_state
from ..parameter import Buffer, Parameter, replace_data_, zero_grads
from .backward_hooks import BackwardHooks, with_backward_hooks
from .state_dict import IncompatibleKeys, StateDict

__all__ = ["IncompatibleKeys", "Module"]


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[device | None,
                                                                        dtype | None]:
    dev: Any = kwargs.pop("device", None)
    dt: Any = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"[Module.to] unexpected keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif isinstance(a, dtype):
            dt = a
        elif isinstance(a, (device, int)):
            dev = a
        elif isinstance(a, str):
            try:
                dev = resolve(a)
            except (ValueError, TypeError):
                dt = as_dtype(a)
        else:
            dt = as_dtype(a)
    dev = None if dev is None else resolve(dev)
    dt = None if dt is None else as_dtype(dt)
    if dt is not None and not dt.is_floating_point:
        raise TypeError(f"[Module.to] only floating point dtypes are accepted, got {dt.name}")
    return dev, dt


class _WithKwargs:
    """A forward (pre-)hook registered with ``with_kwargs=True``: it also takes the kwargs."""

    def __init__(self, hook: Callable[..., Any]) -> None:
        self.hook = hook


class Module(StateDict, BackwardHooks):
    """Base class of every layer: subclass it, create children in ``__init__``, define ``forward``.

    Example:
        >>> import gtensor as gt
        >>> class Net(gt.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = gt.nn.Linear(4, 2)
        ...     def forward(self, x):
        ...         return self.fc(x)
        >>> [name for name, _ in Net().named_parameters()]
        ['fc.weight', 'fc.bias']
    """

    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", [])
        object.__setattr__(self, "_forward_pre_hooks", [])
        object.__setattr__(self, "_backward_hooks", [])
        object.__setattr__(self, "_backward_pre_hooks", [])

    # -- calling -------------------------------------------------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Compute the module's output; every subclass defines it."""
        raise TypeError(f"[Module] {type(self).__name__} does not define forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        trace = trace_state.trace
        if trace is not None:  # a compiled call replays this forward only in this mode
            trace.guard_attribute(self, "training")
        for hook in list(self._forward_pre_hooks):
            if isinstance(hook, _WithKwargs):
                result = hook.hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("[Module] a forward pre-hook with kwargs must "
                                           f"return None or (args, kwargs), got {result!r}")
                    args, kwargs = result
                continue
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        if self._backward_hooks or self._backward_pre_hooks:
            out = with_backward_hooks(self, args, lambda a: self.forward(*a, **kwargs))
        else:
            out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks):
            result = (hook.hook(self, args, kwargs, out) if isinstance(hook, _WithKwargs)
                      else hook(self, args, out))
            if result is not None:
                out = result
        return out

    @staticmethod
    def _add_hook(hooks: list[Any], hook: Callable[..., Any], prepend: bool,
                  with_kwargs: bool) -> RemovableHandle:
        entry = _WithKwargs(hook) if with_kwargs else hook
        hooks.insert(0 if prepend else len(hooks), entry)
        return RemovableHandle(hooks, entry)

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, inputs, output)`` after each forward; a non-None result replaces
        the output. With ``with_kwargs`` the call is ``hook(module, inputs, kwargs, output)``;
        ``prepend`` runs it before the hooks already registered.

        Returns:
            A handle whose ``remove()`` unregisters the hook.

        Example:
            >>> lin = nn.Linear(2, 1)
            >>> h = lin.register_forward_hook(lambda m, i, o: print(o.shape))
            >>> _ = lin(gt.ones(3, 2))
            (3, 1)
            >>> h.remove(); _ = lin(gt.ones(3, 2))  # prints nothing now
        """
        return self._add_hook(self._forward_hooks, hook, prepend, with_kwargs)

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, inputs)`` before each forward; a non-None result replaces the
        inputs. With ``with_kwargs`` the call is ``hook(module, inputs, kwargs)`` and a
        non-None result is the new ``(inputs, kwargs)``; ``prepend`` runs it first.

        Returns:
            A handle whose ``remove()`` unregisters the hook.
        """
        return self._add_hook(self._forward_pre_hooks, hook, prepend, with_kwargs)

    # -- registration --------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("[Module] call super().__init__() before assigning "
                                     "parameters")
            self._discard(name)
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"[Module] cannot assign {type(value).__name__} as parameter "
                                f"'{name}' (a Parameter or None is required)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("[Module] call super().__init__() before assigning "
                                     "submodules")
            self._discard(name)
            self._modules[name] = value
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"[Module] cannot assign {type(value).__name__} as child "
                                f"module '{name}' (a Module or None is required)")
            self._modules[name] = None
        elif isinstance(value, Buffer):
            if params is None:
                raise AttributeError("[Module] call super().__init__() before assigning "
                                     "buffers")
            self.register_buffer(name, value, value.persistent)
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"[Module] cannot assign {type(value).__name__} as buffer "
                                f"'{name}' (a Tensor or None is required)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _discard(self, name: str) -> None:
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            table.pop(name, None)
        self._non_persistent.discard(name)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or a None placeholder) under ``name``."""
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"[register_parameter] '{name}' must be a Parameter or None, got "
                            f"{type(param).__name__}")
        self._check_name(name, "register_parameter", "_parameters")
        self._discard(name)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a tensor that is state but not a parameter (e.g. running statistics).

        Args:
            name: attribute name.
            tensor: the buffer (or None).
            persistent: whether :meth:`state_dict` includes it.

        Example:
            >>> m = nn.Module()
            >>> m.register_buffer("running_mean", gt.zeros(2))
            >>> m.running_mean, list(m.state_dict())
            (tensor([0., 0.]), ['running_mean'])
        """
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"[register_buffer] '{name}' must be a Tensor or None, got "
                            f"{type(tensor).__name__}")
        self._check_name(name, "register_buffer", "_buffers")
        self._discard(name)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register ``module`` as a child called ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"[add_module] {type(module).__name__} is not a Module")
        self._check_name(name, "add_module", "_modules")
        self._discard(name)
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name: str, op: str, table: str) -> None:
        if not isinstance(name, str) or not name or "." in name:
            raise KeyError(f"[{op}] invalid name {name!r}: a non-empty string without '.'")
        if hasattr(self, name) and name not in getattr(self, table):
            raise KeyError(f"[{op}] attribute '{name}' already exists")

    # -- traversal -----------------------------------------------------------------------
    def named_modules(self, memo: set[int] | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """Yield ``(qualified name, module)`` for this module and all below it, once each
        (under every name it has when not ``remove_duplicate``)."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(memo, f"{prefix}.{name}" if prefix else name,
                                               remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """Yield this module and every module below it."""
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """Yield ``(name, child)`` for the direct children."""
        seen: set[int] = set()
        for name, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self) -> Iterator[Module]:
        """Yield the direct children."""
        for _, child in self.named_children():
            yield child

    def _named_members(self, table: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        mods = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                if recurse else iter([(prefix, self)]))
        for mod_prefix, mod in mods:
            for name, value in getattr(mod, table).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(qualified name, parameter)``, each shared parameter once (under every
        name when not ``remove_duplicate``).

        Example:
            >>> [n for n, _ in gt.nn.Linear(2, 3).named_parameters()]
            ['weight', 'bias']
        """
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)  # type: ignore[misc]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Yield the parameters (what an optimizer takes)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Yield ``(qualified name, buffer)``."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Yield the buffers."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target: str) -> Module:
        """Return the module at dotted path ``target`` (``""`` is this module)."""
        mod: Module = self
        for part in target.split(".") if target else []:
            child = mod._modules.get(part)
            if child is None:
                raise AttributeError(f"[get_submodule] {type(mod).__name__} has no submodule "
                                     f"'{part}' (in '{target}')")
            mod = child
        return mod

    def _get_member(self, target: str, table: str, op: str) -> Any:
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if name not in getattr(mod, table):
            raise AttributeError(f"[{op}] {type(mod).__name__} has no {table[1:-1]} '{name}' "
                                 f"(in '{target}')")
        return getattr(mod, table)[name]

    def get_parameter(self, target: str) -> Parameter:
        """Return the parameter at dotted path ``target`` (e.g. ``"fc.weight"``)."""
        return self._get_member(target, "_parameters", "get_parameter")  # type: ignore[no-any-return]

    def get_buffer(self, target: str) -> Tensor:
        """Return the buffer at dotted path ``target`` (e.g. ``"bn.running_mean"``)."""
        return self._get_member(target, "_buffers", "get_buffer")  # type: ignore[no-any-return]

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call ``fn`` on every submodule (children first) and then on this module.

        Example:
            >>> def zero_linear(m):
            ...     if isinstance(m, nn.Linear):
            ...         _ = nn.init.zeros_(m.weight)
            >>> model = nn.Sequential(nn.Linear(2, 2), nn.ReLU()).apply(zero_linear)
            >>> model[0].weight.tolist()
            [[0.0, 0.0], [0.0, 0.0]]
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # -- modes ---------------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (dropout active, batch norm uses batch statistics) recursively."""
        if not isinstance(mode, bool):
            raise TypeError("[train] mode must be a bool")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        """Set evaluation mode recursively (same as ``train(False)``)."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` on every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the parameters' gradients (to None by default, else to zeros in place)."""
        zero_grads(self.parameters(), set_to_none)

    # -- device and dtype ----------------------------------------------------------------
    def _apply_to_tensors(self, fn: Callable[[Tensor], Tensor]) -> Module:
        with no_grad():
            for m in self.modules():
                for p in m._parameters.values():
                    if p is None:
                        continue
                    replace_data_(p, fn(p.detach()))
                    if p.grad is not None:
                        p.grad = fn(p.grad)
                for b in m._buffers.values():
                    if b is not None and b.grad_fn is None:
                        replace_data_(b, fn(b.detach()))
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Move and/or cast parameters and buffers in place; return ``self``.

        Floating point tensors take the dtype; integer buffers (such as
        ``num_batches_tracked``) keep theirs. The Parameter objects are kept
        and their data replaced, so optimizers created before stay valid.

        Args:
            *args: a device, a floating dtype, both, or a tensor to match.
            **kwargs: ``device=``, ``dtype=``, ``non_blocking=``.

        Example:
            >>> model = nn.Linear(2, 1).to("cuda")
            >>> model.weight.device
            device(type='cuda', index=0)
            >>> model.to(gt.float64).weight.dtype
            gtensor.float64
        """
        dev, dt = _parse_to(args, dict(kwargs))

        def move(t: Tensor) -> Tensor:
            target = dt if dt is not None and t.dtype.is_floating_point else t.dtype
            return t.to(device=dev or t.device, dtype=target)

        return self._apply_to_tensors(move)

    def cpu(self) -> Module:
        """Move everything to the cpu."""
        return self.to("cpu")

    def cuda(self, device: int | str | None = None) -> Module:
        """Move everything to a CUDA device (the current one by default)."""
        return self.to(f"cuda:{device}" if isinstance(device, int) else (device or "cuda"))

    def float(self) -> Module:
        """Cast floating parameters and buffers to float32."""
        return self.to(float32)

    def double(self) -> Module:
        """Cast floating parameters and buffers to float64."""
        return self.to(float64)

    def half(self) -> Module:
        """Cast floating parameters and buffers to float16."""
        return self.to(float16)

    def bfloat16(self) -> Module:
        """Cast floating parameters and buffers to bfloat16."""
        return self.to(bfloat16)

    # -- repr ----------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside this module's parentheses in its repr (override in layers)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        if not self._modules and len(lines) <= 1:
            return f"{type(self).__name__}({extra})"
        for name, child in self._modules.items():
            body = repr(child).replace("\n", "\n  ")
            lines.append(f"({name}): {body}")
        return type(self).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"
