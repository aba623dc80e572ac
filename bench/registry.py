"""The case registry: a case is one decorated function, found by importing ``bench.cases``.

A case function takes a :class:`~bench.libraries.Library` and its size
parameters and returns a :class:`Workload`: the call to time plus the work it
does (bytes moved, floating-point operations or items), so the harness can
report GB/s or GFLOP/s. No list of cases is kept by hand: every module in
``bench/cases/`` is imported and its decorators fill the registry.
"""

from __future__ import annotations

import fnmatch
import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

PRESETS = ("tiny", "quick", "full")


@dataclass
class Workload:
    """What a case hands the harness for one library.

    Args:
        fn: the call to time; with ``self_timed`` it returns its own duration in seconds.
        bytes: bytes read plus written by one call (gives GB/s against the copy ceiling).
        flops: floating-point operations of one call (gives GFLOP/s against the matmul ceiling).
        items: countable units of one call, e.g. allocations (gives items/s).
        extra: called once after timing; its dict is stored with the result (e.g. stats).
        self_timed: ``fn`` measures itself (e.g. a subprocess); no warm-up or inner loop.

    Example:
        >>> Workload(lambda: None, bytes=8).bytes
        8
    """

    fn: Callable[[], Any]
    bytes: float | None = None
    flops: float | None = None
    items: float | None = None
    extra: Callable[[], dict[str, Any]] | None = None
    self_timed: bool = False

    def work(self) -> dict[str, float]:
        """Return the non-empty work counts by kind (``bytes``, ``flops``, ``items``)."""
        counts = {"bytes": self.bytes, "flops": self.flops, "items": self.items}
        return {k: float(v) for k, v in counts.items() if v is not None}


class Unsupported(Exception):
    """Raised by a case when a library cannot run it; reported, never faked."""


@dataclass(frozen=True)
class Case:
    """A registered benchmark case.

    Args:
        name: ``family.case`` name shown in the table and used by ``--only``.
        build: the decorated function ``build(lib, **params) -> Workload``.
        sizes: parameters per preset (``tiny`` for tests, ``quick``, ``full``).
        threaded: uses thread pools on the CPU (parallel kernels, BLAS): isolated per library.
        in_process: never isolate (the case already runs its own subprocesses).
        summary: one line describing what is measured (the function's docstring).
        max_rounds: cap on interleaved rounds, for cases whose one sample takes seconds.
        devices: the devices the case makes sense on.
    """

    name: str
    build: Callable[..., Workload]
    sizes: dict[str, dict[str, Any]]
    threaded: bool = False
    in_process: bool = False
    summary: str = ""
    max_rounds: int | None = None
    devices: tuple[str, ...] = field(default=("cpu", "cuda"))

    @property
    def family(self) -> str:
        """The part of the name before the first dot."""
        return self.name.split(".", 1)[0]

    def params(self, preset: str) -> dict[str, Any]:
        """Return the size parameters of ``preset``."""
        if preset not in self.sizes:
            raise KeyError(f"[bench] case {self.name} has no {preset!r} sizes")
        return dict(self.sizes[preset])


_REGISTRY: dict[str, Case] = {}


def case(name: str, *, sizes: dict[str, dict[str, Any]], threaded: bool = False,
         in_process: bool = False, max_rounds: int | None = None,
         devices: tuple[str, ...] = ("cpu", "cuda")) -> Callable[[Callable[..., Workload]],
                                                                 Callable[..., Workload]]:
    """Register the decorated function as benchmark case ``name``.

    Args:
        name: ``family.case``; registering a name twice raises.
        sizes: ``{"tiny": {...}, "quick": {...}, "full": {...}}`` keyword arguments per preset.
        threaded: the case runs thread pools on the CPU device (isolated per library there).
        in_process: the case spawns its own subprocesses and is never isolated.
        max_rounds: cap on interleaved rounds (for cases whose samples take seconds).
        devices: the devices the case makes sense on.

    Returns:
        A decorator returning the function unchanged.

    Example:
        >>> @case("demo.noop", sizes={p: {} for p in PRESETS})  # doctest: +SKIP
        ... def noop(lib): return Workload(lambda: None)
    """
    missing = [p for p in PRESETS if p not in sizes]
    if missing:
        raise ValueError(f"[bench] case {name} lacks sizes for {missing}")

    def register(fn: Callable[..., Workload]) -> Callable[..., Workload]:
        if name in _REGISTRY:
            raise ValueError(f"[bench] case {name} is registered twice")
        doc = (fn.__doc__ or "").strip().splitlines()
        _REGISTRY[name] = Case(name, fn, sizes, threaded, in_process, doc[0] if doc else "",
                               max_rounds, devices)
        return fn

    return register


def load_cases() -> None:
    """Import every module of :mod:`bench.cases` so that its cases register."""
    from . import cases

    for info in sorted(pkgutil.iter_modules(cases.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{cases.__name__}.{info.name}")


def all_cases() -> list[Case]:
    """Return every registered case, sorted by name.

    Example:
        >>> len(all_cases()) > 0
        True
    """
    load_cases()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_case(name: str) -> Case:
    """Return the case called ``name``."""
    load_cases()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"[bench] no case named {name!r}; see python -m bench --list") from None


def select(patterns: Iterable[str] | None, device: str) -> list[Case]:
    """Return the cases for ``device`` matching any pattern (a name, a family or a glob).

    Example:
        >>> [c.name for c in select(["copy"], "cpu")][:1]
        ['copy.contiguous_transpose']
    """
    cases = [c for c in all_cases() if device in c.devices]
    pats = list(patterns or [])
    if not pats:
        return cases
    chosen = [c for c in cases if any(
        c.name == p or c.family == p or fnmatch.fnmatch(c.name, p) for p in pats)]
    if not chosen:
        raise KeyError(f"[bench] --only {' '.join(pats)} matches no case on {device}")
    return chosen
