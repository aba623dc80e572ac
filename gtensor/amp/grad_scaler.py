"""``gt.amp.GradScaler``: loss scaling for float16 training, with PyTorch's interface.

The scale and the count of steps since the last overflow live on the device
as 0-d tensors. Unscaling checks every gradient of an optimizer for inf and
NaN on the device and multiplies it in place by the inverse scale, in one
pass per gradient (the ``amp_unscale`` kernel) raising one flag per device;
``step`` reads that flag on the host once per device to decide whether the
optimizer steps, and ``update`` moves the scale with device ops only.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from enum import Enum
from typing import Any

from ..cuda import is_available as cuda_is_available
from ..device import device
from ..dtypes import float16, float32, float64, int32
from ..graph.grad_mode import no_grad
from ..ops.creation import full, zeros
from ..ops.dispatch import launch
from ..ops.elementwise import logical_and, maximum, where
from ..ops.layout.copies import stack
from ..ops.unary import isfinite, logical_not
from ..tensor import Tensor
from ..trace_state import state as trace_state


class OptState(Enum):
    """Where an optimizer is in the current iteration."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state() -> dict[str, Any]:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


def found_inf_and_unscale_(grads: list[Tensor], inv_scale: Tensor) -> Tensor:
    """Return 1.0 (a 0-d float32 tensor on the gradients' device) if any of ``grads`` holds an
    inf or NaN, else 0.0; then multiply each gradient by ``inv_scale`` in place.

    The check reads the gradients as they were before the multiply, as PyTorch's
    ``_amp_foreach_non_finite_check_and_unscale_`` does. A contiguous float32 or
    float64 gradient takes one pass of the ``amp_unscale`` kernel, which checks,
    multiplies and raises the one shared flag; others (and traced calls) take
    the composite of ``isfinite``, ``all`` and ``mul_``.

    Example:
        >>> grads = [gt.tensor([2.0, 4.0]), gt.tensor([2.0, float("inf")])]
        >>> found_inf_and_unscale_(grads, gt.tensor(0.5)).item(), grads[0].tolist()
        (1.0, [1.0, 2.0])
    """
    dev = grads[0].device
    found = zeros(1, dtype=float32, device=dev)
    inv = inv_scale.to(dev, float32).reshape(1)
    finite = []
    for g in grads:
        if (trace_state.trace is None and g.dtype in (float32, float64)
                and g.is_contiguous()):
            g._check_writable("unscale_")
            launch("amp_unscale", dev, (g.dtype,), g.reshape(-1)._native(), inv._native(),
                   found._native())
            g._bump_version()
        else:
            finite.append(isfinite(g).all())
            g.mul_(inv_scale)
    if finite:
        found = maximum(found, logical_not(stack(finite).all()).to(float32))
    return found.reshape(())


def update_scale_(scale: Tensor, growth_tracker: Tensor, found_inf: Tensor,
                  growth_factor: float, backoff_factor: float, growth_interval: int) -> None:
    """PyTorch's ``_amp_update_scale_`` as device ops: back off after an overflow, grow after
    ``growth_interval`` clean steps in a row (when the grown scale is finite).

    Example:
        >>> scale, tracker = gt.tensor(8.0), gt.tensor(0, dtype=gt.int32)
        >>> update_scale_(scale, tracker, gt.tensor(1.0), 2.0, 0.5, 2); scale.item()  # overflow
        4.0
        >>> for _ in range(2): update_scale_(scale, tracker, gt.tensor(0.0), 2.0, 0.5, 2)
        >>> scale.item(), tracker.item()  # two clean steps: grown, count restarted
        (8.0, 0)
    """
    overflow = found_inf > 0
    successful = where(overflow, 0, growth_tracker + 1)
    grow = successful == growth_interval
    grown = scale * growth_factor
    kept = where(logical_and(grow, isfinite(grown)), grown, scale)
    scale.copy_(where(overflow, scale * backoff_factor, kept))
    growth_tracker.copy_(where(grow, 0, successful))


class GradScaler:
    """Scale the loss so that float16 gradients do not underflow; skip steps that overflow.

    ``scale(loss)`` multiplies the loss by the current scale;
    ``step(optimizer)`` unscales the optimizer's gradients (unless
    ``unscale_`` did) and runs ``optimizer.step()`` only if none holds an
    inf or NaN; ``update()`` multiplies the scale by ``backoff_factor`` after a
    skipped step, or by ``growth_factor`` after ``growth_interval`` clean steps
    in a row.

    Args:
        device: ``"cuda"`` (disabled with a warning when CUDA is unavailable) or ``"cpu"``.
        init_scale: the first scale.
        growth_factor: factor applied after ``growth_interval`` clean steps (> 1).
        backoff_factor: factor applied after a step with inf or NaN gradients (< 1).
        growth_interval: clean steps in a row before the scale grows.
        enabled: when False every method is a no-op and ``step`` just steps.

    Example:
        >>> model = gt.nn.Linear(4, 2)
        >>> opt = gt.optim.SGD(model.parameters(), lr=0.1)
        >>> scaler = gt.amp.GradScaler("cpu")
        >>> with gt.autocast("cpu"):
        ...     loss = model(gt.randn(8, 4)).float().pow(2).mean()
        >>> scaler.scale(loss).backward()
        >>> scaler.step(opt)
        >>> scaler.update()
        >>> scaler.get_scale()
        65536.0
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled and not cuda_is_available():
            warnings.warn("gt.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=2)
            self._enabled = False
        if not self._enabled:
            return
        if growth_factor <= 1.0:
            raise ValueError("[GradScaler] the growth factor must be > 1.0")
        if backoff_factor >= 1.0:
            raise ValueError("[GradScaler] the backoff factor must be < 1.0")
        self._init_scale = float(init_scale)
        self._scale: Tensor | None = None
        self._growth_factor = float(growth_factor)
        self._backoff_factor = float(backoff_factor)
        self._growth_interval = int(growth_interval)
        self._init_growth_tracker = 0
        self._growth_tracker: Tensor | None = None
        self._per_optimizer_states: dict[int, dict[str, Any]] = defaultdict(_fresh_state)

    def _check_scale_growth_tracker(self, funcname: str) -> tuple[Tensor, Tensor]:
        if self._scale is None or self._growth_tracker is None:
            raise RuntimeError(f"[GradScaler] attempted {funcname} but the scale is not set. "
                               "This may indicate your script did not use scaler.scale(loss or "
                               "outputs) earlier in the iteration.")
        return self._scale, self._growth_tracker

    def _lazy_init(self, dev: device) -> Tensor:
        if self._scale is None:
            self._scale = full((), self._init_scale, dtype=float32, device=dev)
            self._growth_tracker = full((), self._init_growth_tracker, dtype=int32, device=dev)
        return self._scale

    def scale(self, outputs: Any) -> Any:
        """Return ``outputs`` (a tensor, or lists and tuples of them) times the current scale.

        Example:
            >>> scaler = gt.amp.GradScaler("cpu", init_scale=4.0)
            >>> scaler.scale(gt.tensor(1.5)).item()
            6.0
        """
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return outputs * self._lazy_init(outputs.device).to(outputs.device)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise ValueError("[GradScaler] outputs must be a Tensor or an iterable of Tensors")

    def _unscale_grads_(self, optimizer: Any, inv_scale: Tensor,
                        allow_fp16: bool) -> dict[device, Tensor]:
        groups: dict[tuple[device, Any], list[Tensor]] = defaultdict(list)
        for group in optimizer.param_groups:
            for p in group["params"]:
                g = p.grad
                if g is None:
                    continue
                if not allow_fp16 and g.dtype is float16:
                    raise ValueError("Attempting to unscale FP16 gradients.")
                groups[(g.device, g.dtype)].append(g)
        found: dict[device, Tensor] = {}
        inv: dict[device, Tensor] = {}
        with no_grad():
            for (dev, _), grads in groups.items():
                if dev not in inv:
                    inv[dev] = inv_scale.to(dev)
                flag = found_inf_and_unscale_(grads, inv[dev])
                found[dev] = flag if dev not in found else maximum(found[dev], flag)
        return found

    def unscale_(self, optimizer: Any) -> None:
        """Divide the optimizer's gradients by the scale in place (for clipping before ``step``).

        Raises:
            RuntimeError: called twice before ``update``, or after ``step``.

        Example:
            >>> w = gt.ones(2, requires_grad=True); opt = gt.optim.SGD([w], lr=0.1)
            >>> scaler = gt.amp.GradScaler("cpu", init_scale=4.0)
            >>> scaler.scale((w * 3).sum()).backward(); scaler.unscale_(opt); w.grad.tolist()
            [3.0, 3.0]
        """
        if not self._enabled:
            return
        scale, _ = self._check_scale_growth_tracker("unscale_")
        st = self._per_optimizer_states[id(optimizer)]
        if st["stage"] is OptState.UNSCALED:
            raise RuntimeError("[GradScaler.unscale_] unscale_() has already been called on "
                               "this optimizer since the last update().")
        if st["stage"] is OptState.STEPPED:
            raise RuntimeError("[GradScaler.unscale_] unscale_() is being called after step().")
        with no_grad():
            inv_scale = scale.to(float64).reciprocal().to(float32)
        st["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, False)
        st["stage"] = OptState.UNSCALED

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale (unless done), then run ``optimizer.step(*args, **kwargs)`` if no gradient holds
        an inf or NaN; return its result (None when skipped).

        Raises:
            RuntimeError: a ``closure`` is passed, or ``step`` runs twice before ``update``.
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("[GradScaler.step] Closure use is not currently supported if "
                               "GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        st = self._per_optimizer_states[id(optimizer)]
        if st["stage"] is OptState.STEPPED:
            raise RuntimeError("[GradScaler.step] step() has already been called since the "
                               "last update().")
        if st["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if not st["found_inf_per_device"]:
            raise RuntimeError("[GradScaler] no inf checks were recorded for this optimizer "
                               "(none of its parameters has a gradient)")
        retval = None
        if not sum(v.item() for v in st["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        st["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: float | Tensor | None = None) -> None:
        """Move the scale for the next iteration (or set it to ``new_scale``).

        Raises:
            RuntimeError: no optimizer was unscaled or stepped since the last update.
        """
        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        with no_grad():
            if new_scale is None:
                found = [f.to(scale.device) for st in self._per_optimizer_states.values()
                         for f in st["found_inf_per_device"].values()]
                if not found:
                    raise RuntimeError("[GradScaler] no inf checks were recorded prior to "
                                       "update()")
                combined = found[0]
                for f in found[1:]:
                    combined = combined + f
                update_scale_(scale, tracker, combined, self._growth_factor,
                              self._backoff_factor, self._growth_interval)
            elif isinstance(new_scale, Tensor):
                if (new_scale.device.type != self._device or new_scale.numel() != 1
                        or new_scale.requires_grad):
                    raise ValueError("[GradScaler] new_scale should be a float or a 1-element "
                                     f"{self._device} tensor with requires_grad=False")
                scale.copy_(new_scale.reshape(()))
            else:
                scale.fill_(float(new_scale))
        self._per_optimizer_states = defaultdict(_fresh_state)

    def get_scale(self) -> float:
        """The current scale as a Python float (1.0 when disabled; reads the device)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale.item())

    def get_growth_factor(self) -> float:
        """The factor applied after ``growth_interval`` clean steps."""
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        """Set the growth factor."""
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self) -> float:
        """The factor applied after a step with inf or NaN gradients."""
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        """Set the backoff factor."""
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self) -> int:
        """Clean steps in a row before the scale grows."""
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        """Set the growth interval."""
        self._growth_interval = int(new_interval)

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        if self._growth_tracker is None:
            return self._init_growth_tracker
        return int(self._growth_tracker.item())

    def is_enabled(self) -> bool:
        """True unless built with ``enabled=False`` (or for cuda without CUDA)."""
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        """``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and
        ``_growth_tracker`` as Python numbers (empty when disabled); take it after ``update``.

        Example:
            >>> scaler = gt.amp.GradScaler("cpu", init_scale=4.0, growth_interval=10)
            >>> w = gt.ones(1, requires_grad=True); opt = gt.optim.SGD([w], lr=0.1)
            >>> scaler.scale(w.sum()).backward(); scaler.step(opt); scaler.update()
            >>> scaler.state_dict()
            {'scale': 4.0, 'growth_factor': 2.0, 'backoff_factor': 0.5, 'growth_interval': 10,
             '_growth_tracker': 1}
        """
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what :meth:`state_dict` returned (a no-op when disabled).

        Raises:
            RuntimeError: ``state_dict`` is empty (saved from a disabled scaler).
        """
        if not self._enabled:
            return
        if not state_dict:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._scale is not None and self._growth_tracker is not None:
            self._scale.fill_(self._init_scale)
            self._growth_tracker.fill_(self._init_growth_tracker)
