"""The dispatch table: kernels keyed by op, backend and dtype signature.

Kernels register themselves where they are defined::

    @register("add", "cpu", [("float32", "float32"), ("float64", "float64")])
    def add_cpu(a, b, out): ...

A backend's modules are imported on the first lookup for that backend, so
``import gtensor`` loads no kernel module and compiles nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

BACKENDS = ("cpu", "cuda")
ANY = "*"

Signature = tuple[str, ...]
_table: dict[tuple[str, str], dict[Signature, Callable]] = {}
_loaded: set[str] = set()


class KernelRegistrationError(RuntimeError):
    """A kernel key was registered twice, or with an unknown backend."""


class LazyKernel:
    """A kernel built by ``build()`` on its first use.

    For families of kernels that are many and rarely all used (the half-precision
    variants): building one costs milliseconds of Numba set-up at import.

    Example:
        >>> k = LazyKernel(lambda: abs, "abs"); k(-2)
        2
    """

    def __init__(self, build: Callable[[], Callable], name: str) -> None:
        self._build = build
        self._kernel: Callable | None = None
        self.__name__ = name

    def built(self) -> Callable:
        """The kernel, built now if it was not yet."""
        if self._kernel is None:
            self._kernel = self._build()
        return self._kernel

    def __getattr__(self, name: str) -> object:
        return getattr(self.built(), name)

    def __call__(self, *args: object, **kwargs: object) -> object:
        return self.built()(*args, **kwargs)


def register(op: str, backend: str, signatures: Iterable[Signature | str]) -> Callable:
    """Register the decorated function as ``op`` on ``backend`` for each signature.

    Args:
        op: op name, e.g. ``"add"``.
        backend: ``"cpu"`` or ``"cuda"``.
        signatures: dtype-name tuples of the inputs (a bare string means a
            one-input signature); ``"*"`` in a slot matches any dtype.

    Returns:
        A decorator that registers and returns the function unchanged.

    Example:
        >>> @register("my_neg", "cpu", ["float64"])
        ... def my_neg(x, out): out[...] = -x
    """
    if backend not in BACKENDS:
        raise KernelRegistrationError(f"[{op}] unknown backend {backend!r}; known: {BACKENDS}")
    sigs = [(s,) if isinstance(s, str) else tuple(s) for s in signatures]

    def decorate(fn: Callable) -> Callable:
        entry = _table.setdefault((op, backend), {})
        for sig in sigs:
            if sig in entry:
                raise KernelRegistrationError(
                    f"[{op}] kernel for backend {backend!r} and dtypes {sig} is already registered"
                )
        for sig in sigs:
            entry[sig] = fn
        return fn

    return decorate


def load_backend(backend: str) -> None:
    """Import every kernel module of ``backend`` (registration happens on import)."""
    if backend not in _loaded:
        importlib.import_module(f"{__package__}.{backend}")
        _loaded.add(backend)


def is_loaded(backend: str) -> bool:
    """True once ``backend``'s kernel modules have been imported.

    Example:
        >>> is_loaded("cpu") in (True, False)
        True
    """
    return backend in _loaded


def _match(entry: dict[Signature, Callable], sig: Signature) -> Callable | None:
    fn = entry.get(sig)
    if fn is not None:
        return fn
    for key, candidate in entry.items():
        if len(key) == len(sig) and all(k in (ANY, s) for k, s in zip(key, sig, strict=True)):
            return candidate
    return None


def lookup(op: str, backend: str, dtypes: Signature) -> Callable:
    """Return the kernel for ``op`` on ``backend`` and input dtype names ``dtypes``.

    Args:
        op: op name.
        backend: ``"cpu"`` or ``"cuda"``.
        dtypes: dtype names of the inputs, in order.

    Returns:
        The registered kernel.

    Raises:
        NotImplementedError: naming the op, backend and dtypes, and where the
            op does exist.

    Example:
        >>> lookup("copy", "cpu", ("float32", "float64")).__name__
        'gtensor_copy_cpu'
    """
    load_backend(backend)
    entry = _table.get((op, backend))
    fn = _match(entry, tuple(dtypes)) if entry else None
    if fn is None:
        raise NotImplementedError(_missing_message(op, backend, tuple(dtypes)))
    return fn


def _missing_message(op: str, backend: str, dtypes: Signature) -> str:
    for other in BACKENDS:
        try:
            load_backend(other)
        except Exception:  # a backend that cannot load simply has no kernels here
            continue
    where = {b: sorted(sigs) for (o, b), sigs in _table.items() if o == op}
    if not where:
        return f"[{op}] no kernel registered for backend {backend!r}, dtypes {dtypes}; " \
            "the op has no kernels on any backend"
    avail = "; ".join(
        f"{b}: " + ", ".join("(" + ", ".join(s) + ")" for s in sigs) for b, sigs in where.items()
    )
    return f"[{op}] no kernel for backend {backend!r} and dtypes {dtypes}; available: {avail}"


def registered() -> dict[tuple[str, str], list[Signature]]:
    """Return ``{(op, backend): [signatures]}`` for every loadable backend."""
    for backend in BACKENDS:
        try:
            load_backend(backend)
        except Exception:
            continue
    return {key: sorted(sigs) for key, sigs in sorted(_table.items())}
