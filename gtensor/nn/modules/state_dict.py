"""Module state dicts: ``state_dict``, ``load_state_dict``, extra state and their hooks.

Keys are qualified names (``"0.fc.weight"``), a shared submodule under every
name it has, as PyTorch writes them. A module whose class defines
``get_extra_state`` adds ``"<prefix>_extra_state"``, handed back to
``set_extra_state`` on load. Hooks run as PyTorch's do: state-dict pre-hooks
``hook(module, prefix, keep_vars)`` before a module's entries are written;
load pre-hooks ``hook(module, state_dict, prefix, local_metadata, strict,
missing_keys, unexpected_keys, error_msgs)`` on the (copied) state dict before
it is matched; load post-hooks ``hook(module, incompatible_keys)``, which may
edit the key lists, before a strict load raises.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from ...autograd.hooks import RemovableHandle
from ...graph.grad_mode import no_grad
from ...ops.creation import as_tensor
from ...tensor import Tensor
from ..parameter import Parameter, UninitializedTensorMixin

EXTRA_STATE = "_extra_state"


class IncompatibleKeys(NamedTuple):
    """What :meth:`Module.load_state_dict` did not match (empty lists when all matched)."""

    missing_keys: list[str]
    unexpected_keys: list[str]


def _hooks(module: Any, table: str) -> list[Callable[..., Any]]:
    return module.__dict__.get(table) or []


def _add(module: Any, table: str, hook: Callable[..., Any]) -> RemovableHandle:
    hooks = module.__dict__.setdefault(table, [])
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


class StateDict:
    """The Module methods that save and load state."""

    def get_extra_state(self) -> Any:
        """State beyond parameters and buffers, saved as ``_extra_state`` (override it)."""
        raise RuntimeError("[get_extra_state] this module does not define extra state")

    def set_extra_state(self, state: Any) -> None:
        """Restore what :meth:`get_extra_state` returned (override both together)."""
        raise RuntimeError("[set_extra_state] this module does not define extra state")

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not StateDict.get_extra_state

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, prefix, keep_vars)`` before this module's entries are saved."""
        return _add(self, "_state_dict_pre_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before loading; it may edit ``state_dict``."""
        return _add(self, "_load_pre_hooks", hook)

    def _register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                           with_module: bool = False) -> RemovableHandle:
        """PyTorch's private form: ``hook(state_dict, prefix, ...)`` without the module
        unless ``with_module``."""
        if with_module:
            return self.register_load_state_dict_pre_hook(hook)
        return _add(self, "_load_pre_hooks", lambda module, *rest: hook(*rest))

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, incompatible_keys)`` after matching; it may edit the lists."""
        return _add(self, "_load_post_hooks", hook)

    def state_dict(self, destination: dict[str, Any] | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict[str, Any]:
        """Return parameters and persistent buffers by qualified name.

        Args:
            destination: a mapping to fill (a new OrderedDict by default).
            prefix: prepended to every key.
            keep_vars: return the parameters themselves instead of detached tensors.

        Example:
            >>> list(gt.nn.Linear(2, 3).state_dict())
            ['weight', 'bias']
        """
        out: OrderedDict[str, Any] = OrderedDict() if destination is None else destination  # type: ignore[assignment]
        for mod_prefix, mod in self.named_modules(prefix=prefix.rstrip("."),  # type: ignore[attr-defined]
                                                  remove_duplicate=False):  # as torch keys them
            head = f"{mod_prefix}." if mod_prefix else ""
            for hook in _hooks(mod, "_state_dict_pre_hooks"):
                hook(mod, head, keep_vars)
            for name, p in mod._parameters.items():
                if p is not None:
                    out[head + name] = p if keep_vars else p.detach()
            for name, b in mod._buffers.items():
                if b is not None and name not in mod._non_persistent:
                    out[head + name] = b if keep_vars else b.detach()
            if mod._has_extra_state():
                out[head + EXTRA_STATE] = mod.get_extra_state()
        return out

    def _fill_missing_state(self, state_dict: dict[str, Any], prefix: str) -> None:
        """Add to ``state_dict`` (a copy) entries that older checkpoints of this layer lack."""

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True,
                        assign: bool = False) -> IncompatibleKeys:
        """Copy values from ``state_dict`` into the parameters and buffers, in place.

        Values are converted to each target's device and dtype. Shapes must
        match exactly. With ``strict`` (the default), missing and unexpected
        keys are errors too; every problem is listed in one message.

        Args:
            state_dict: name -> tensor, as returned by :meth:`state_dict`.
            strict: require the key sets to match.
            assign: make the given tensors the parameters and buffers (as Parameters
                keeping each target's ``requires_grad``) instead of copying into them.

        Returns:
            The missing and unexpected keys (both empty when strict succeeds).

        Raises:
            RuntimeError: on mis-shaped keys, or missing/unexpected keys when strict.

        Example:
            >>> a, b = nn.Linear(2, 1), nn.Linear(2, 1)
            >>> b.load_state_dict(a.state_dict())
            IncompatibleKeys(missing_keys=[], unexpected_keys=[])
            >>> bool((a.weight == b.weight).all())
            True
        """
        state_dict = OrderedDict(state_dict)
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        modules = list(self.named_modules(remove_duplicate=False))  # type: ignore[attr-defined]
        for mod_prefix, mod in modules:
            head = f"{mod_prefix}." if mod_prefix else ""
            mod._fill_missing_state(state_dict, head)
            for hook in _hooks(mod, "_load_pre_hooks"):
                hook(mod, state_dict, head, {}, strict, missing, unexpected, errors)
        own = self.state_dict(keep_vars=True)
        extra = {f"{p}." * bool(p) + EXTRA_STATE: m for p, m in modules if m._has_extra_state()}
        missing += [k for k in own if k not in state_dict]
        unexpected += [k for k in state_dict if k not in own]
        mismatched = []
        for k, target in own.items():
            if k not in state_dict or k in extra:
                continue
            value = state_dict[k]
            if not isinstance(value, Tensor):
                value = as_tensor(value)
            lazy = isinstance(target, UninitializedTensorMixin)
            if not lazy and tuple(value.shape) != tuple(target.shape):
                mismatched.append(f"size mismatch for {k}: copying a param with shape "
                                  f"{tuple(value.shape)}, the shape in the current model is "
                                  f"{tuple(target.shape)}")
        result = IncompatibleKeys(missing, unexpected)
        for _, mod in modules:
            for hook in _hooks(mod, "_load_post_hooks"):
                hook(mod, result)
        problems = errors + mismatched
        if strict and unexpected:
            problems.insert(0, "Unexpected key(s) in state_dict: "
                            + ", ".join(f'"{k}"' for k in unexpected) + ".")
        if strict and missing:
            problems.insert(0, "Missing key(s) in state_dict: "
                            + ", ".join(f'"{k}"' for k in missing) + ".")
        if problems:
            raise RuntimeError(f"[load_state_dict] Error(s) in loading state_dict for "
                               f"{type(self).__name__}:\n\t" + "\n\t".join(problems))
        with no_grad():
            for k, target in own.items():
                if k not in state_dict:
                    continue
                value = state_dict[k]
                if k in extra:
                    extra[k].set_extra_state(value)
                    continue
                value = value if isinstance(value, Tensor) else as_tensor(value)
                if assign:
                    self._assign(k, value)
                    continue
                if isinstance(target, UninitializedTensorMixin):
                    target.materialize(tuple(value.shape))
                target.copy_(value)
        return result

    def _assign(self, key: str, value: Tensor) -> None:
        """Make ``value`` the parameter or buffer at dotted path ``key``."""
        path, _, name = key.rpartition(".")
        mod = self.get_submodule(path)  # type: ignore[attr-defined]
        if name in mod._parameters:
            old = mod._parameters[name]
            mod._parameters[name] = value if isinstance(value, Parameter) else Parameter(
                value, requires_grad=bool(old is not None and old.requires_grad))
        else:
            mod._buffers[name] = value

