"""Differentiating through mutation.

Every differentiable in-place op is, for autograd, ``t.copy_(new_value)``:
the new value is computed out of place (and recorded as usual), then written
into ``t``. Writing into a plain tensor makes the write its new history;
writing into a view rewrites its base's history with a ``CopySlices`` node
(the base's gradient flows to the old base outside the written region and to
the written values inside it), and the view, like every other view of that
base, is re-derived from the base (``as_strided``) the next time it is used.
A view may have another dtype than its base (``z.real``, ``view_as_real(z)``
of a complex ``z``): its layout is then in its own elements, over the same
bytes, and the gradients move between the two dtypes the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import GTensorError
from ..storage import Storage
from ..tensor_base import TensorBase, from_storage
from .grad_mode import is_grad_enabled
from .node import Node, needs_grad, record
from .overlap import unaliased

if TYPE_CHECKING:
    from ..tensor import Tensor

F = TypeVar("F", bound=Callable[..., Any])


def check_inplace(t: Tensor, op: str) -> None:
    """Raise before an in-place op would modify a leaf that requires grad (or its view).

    Example:
        >>> check_inplace(gt.zeros(2), "add_")  # passes: nothing requires grad
        >>> check_inplace(gt.zeros(2, requires_grad=True), "add_")
        Traceback (most recent call last):
            ...
        gtensor.errors.GTensorError: [add_] a leaf Variable that requires grad is being used ...
    """
    if not is_grad_enabled():
        return
    root = t if t._base is None else t._base
    if root.requires_grad and root.is_leaf:
        what = "a leaf Variable" if root is t else "a view of a leaf Variable"
        raise GTensorError(f"[{op}] {what} that requires grad is being used in an in-place "
                           "operation")


def _layout_like(base: Tensor) -> Tensor:
    """Zeros in a fresh storage with exactly ``base``'s strides and offset."""
    storage = Storage.allocate(base._storage.nbytes, base.device)
    n = base._storage.nbytes // base.itemsize
    from_storage(storage, (n,), (1,), 0, base.dtype).fill_(0)
    return from_storage(storage, base.shape, base._strides, base._offset, base.dtype)


Geometry = tuple[tuple[int, ...], tuple[int, ...], int, Any]


def _geometry(view: Tensor) -> Geometry:
    return view.shape, view._strides, view._offset, view._dtype


def dtype_view(t: Tensor, shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
               dt: Any) -> Tensor:
    """A view of ``t``'s storage as dtype ``dt`` (layout in ``dt``'s elements), whose base is
    ``t``'s (``z.real`` of a complex ``z``: a float view of the same bytes).

    Example:
        >>> z = gt.tensor([1 + 2j, 3 + 4j])
        >>> dtype_view(z, z.shape, (2,), 1, gt.float32)  # the imaginary parts
        tensor([2., 4.])
    """
    return type(t)(t._storage, shape, strides, offset, dt, base=t if t._base is None else t._base)


def _apply_geometry(t: Tensor, geom: Geometry) -> Tensor:
    """The view of ``t``'s storage that ``geom`` describes (in its dtype's elements)."""
    shape, strides, offset, dt = geom
    if dt is t._dtype:
        return t._make_view(shape, strides, offset)
    return dtype_view(t, shape, strides, offset, dt)


def _as_strided_vjp(ctx: Node, g: Tensor) -> Tensor:
    out = _layout_like(ctx.base_ref)
    _apply_geometry(out, ctx.geom).copy_(g)
    return out


def _copy_slices_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    grad_base = _layout_like(ctx.base_ref)
    grad_base.copy_(g)
    region = _apply_geometry(grad_base, ctx.geom)
    grad_src = region.clone()
    region.copy_(TensorBase.empty(region.shape, region.dtype, region.device).fill_(0))
    return grad_base, grad_src


def refresh_view(t: Tensor) -> None:
    """Re-derive a view's ``grad_fn`` from its base after the base was written in place."""
    base = t._base
    if base is None or t._view_version == t._version:
        return
    t._view_version = t._version
    if base.requires_grad and is_grad_enabled():
        t._requires_grad = False
        t.grad_fn = None
        record("as_strided", t, (base,), _as_strided_vjp, base_ref=_shape_only(base),
               geom=_geometry(t))


def _shape_only(base: Tensor) -> Tensor:
    """A tensor with ``base``'s layout but no graph (what the VJPs need to rebuild it)."""
    return from_storage(base._storage, base._shape, base._strides, base._offset, base._dtype)


def record_write(t: Tensor, src: Any, op: str = "copy_") -> None:
    """Record, after ``t``'s data was overwritten by ``src``, the write in the graph.

    Args:
        t: the written tensor (a plain tensor or a view).
        src: the tensor whose values were written (broadcast to ``t``).
        op: the op's name for errors and ``grad_fn``.
    """
    base = t._base
    if not is_grad_enabled():
        return
    src_grad = isinstance(src, TensorBase) and src.requires_grad
    if base is None:
        if src_grad or t.requires_grad:
            record(op, t, (t, src), _overwrite_vjp)
        return
    if not (base.requires_grad or src_grad):
        return
    layout = _shape_only(base)
    record(op, base, (base, src), _copy_slices_vjp, base_ref=layout, geom=_geometry(t))
    t._view_version = -1  # force the view itself to re-derive from the new base history
    refresh_view(t)


def _overwrite_vjp(ctx: Node, g: Tensor) -> tuple[None, Tensor]:
    return None, g


def differentiable_inplace(out_of_place: Callable[..., Tensor], *,
                           elementwise: bool = False) -> Callable[[F], F]:
    """Make an in-place op differentiable by routing it through ``out_of_place`` and ``copy_``.

    When grad mode is on and ``self`` or a tensor argument requires grad, the
    decorated in-place op instead computes ``out_of_place(self, ...)`` (which
    records its own node) and writes it into ``self`` with ``copy_`` (which
    rewrites ``self``'s history, or its base's for a view). Otherwise the fast
    in-place kernel runs, on copies of the tensor arguments that share memory
    with ``self`` (so it reads every input before writing, as PyTorch does).
    A read-only ``self`` is refused before anything runs.

    Args:
        out_of_place: the op's out-of-place form, taking the same arguments.
        elementwise: the kernel reads each input at the index it writes, so an
            argument that is exactly ``self`` (``x.add_(x)``) needs no copy.

    Example:
        >>> @differentiable_inplace(gt.mul, elementwise=True)
        ... def mul_(self, other):
        ...     return self.mul_(other)
        >>> x = gt.ones(2, requires_grad=True)
        >>> mul_(x * 1, gt.tensor([2.0, 3.0])).sum().backward(); x.grad.tolist()
        [2.0, 3.0]
    """

    def decorate(inplace: F) -> F:
        name = inplace.__name__.removeprefix("_raw_")  # raw kernels may be named _raw_<op>_

        @functools.wraps(inplace)
        def wrapper(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
            self._check_writable(name)
            if needs_grad(self, *args, *kwargs.values()):
                check_inplace(self, name)
                # the op may save its input for backward: give it a copy the write won't touch
                before = self.clone() if self.requires_grad else self
                result = out_of_place(before, *args, **kwargs)
                return self.copy_(result)
            if _shares_storage(self, args, kwargs):
                args = tuple(unaliased(self, a, elementwise) for a in args)
                kwargs = {k: unaliased(self, v, elementwise) for k, v in kwargs.items()}
            return inplace(self, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def _shares_storage(t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """True when a tensor argument shares ``t``'s storage (the in-place write may alias it)."""
    storage = t._storage
    for a in args:
        if isinstance(a, TensorBase) and a._storage is storage:
            return True
    for a in kwargs.values():
        if isinstance(a, TensorBase) and a._storage is storage:
            return True
    return False
