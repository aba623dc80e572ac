"""pytest plugin: record every call into a cuda kernel of the dispatch table.

Run the simulated suite with it to collect the argument layouts the CUDA
kernels really see; ``replay.py`` then compiles each one for a real GPU::

    PYTHONPATH=tests/cuda_compile python -m pytest -p launch_recorder -k cuda \\
        --record-launches launches.jsonl tests/ops tests/autograd tests/nn tests/optim tests/kernels

Each line of the output is one distinct call: op, dtype signature and a
description of each argument (arrays by dtype, shape and strides; scalars by
type and value). A ``gt.compile`` fused kernel's launch is recorded with its
generated source and the functions that source calls (op ``fused:<kind>``).
Under pytest-xdist each worker writes ``PATH.gwN``; ``replay.py`` takes several
files and merges them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

_calls: set[str] = set()


def describe(x: Any) -> Any:
    """Return a JSON-able description of one kernel argument.

    Example:
        >>> describe((2, np.zeros(3, np.float32)))
        {'t': [{'i': 2}, {'a': ['<f4', [3], [4]]}]}
    """
    if isinstance(x, np.ndarray):
        return {"a": [x.dtype.str, list(x.shape), list(x.strides)]}
    if isinstance(x, bool | np.bool_):
        return {"b": bool(x)}
    if isinstance(x, np.complexfloating):
        return {"nc": [x.dtype.str, float(x.real), float(x.imag)]}
    if isinstance(x, np.generic):
        return {"n": [x.dtype.str, x.item()]}
    if isinstance(x, int):
        return {"i": x}
    if isinstance(x, float):
        return {"f": x}
    if isinstance(x, complex):
        return {"c": [x.real, x.imag]}
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, np.dtype):
        return {"dt": x.str}
    if isinstance(x, tuple | list):
        return {"t" if isinstance(x, tuple) else "l": [describe(v) for v in x]}
    if type(x).__name__.lower() in ("stream", "fakestream"):
        return {"stream": 0}
    return {"?": type(x).__name__}


class _Recording:
    """Stands in for one cuda kernel of the table: records each call, and each planned launch.

    A kernel is called directly (``kernel(*arrays, stream=...)``) or through a
    launch plan (``kernel.plan(*layout)`` once, then ``run(*buffers)``); a planned
    launch is recorded with the plan's arguments and the run's.
    """

    def __init__(self, op: str, sig: tuple[str, ...], fn: Callable) -> None:
        self.op, self.sig, self.fn = op, sig, fn
        self.__wrapped__ = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        entry = {"op": self.op, "sig": list(self.sig), "args": [describe(a) for a in args],
                 "kwargs": {k: describe(v) for k, v in kwargs.items()}}
        _calls.add(json.dumps(entry, sort_keys=True))
        return self.fn(*args, **kwargs)

    def plan(self, *args: Any) -> Callable:
        run = self.fn.plan(*args)
        head = {"op": self.op, "sig": list(self.sig), "plan": [describe(a) for a in args]}

        def recorded(*run_args: Any) -> Any:
            _calls.add(json.dumps({**head, "run": [describe(a) for a in run_args]},
                                  sort_keys=True))
            return run(*run_args)

        return recorded


def _recording(op: str, sig: tuple[str, ...], fn: Callable) -> Callable:
    return _Recording(op, sig, fn)


def _fused_functions(namespace: dict[str, Any]) -> dict[str, list[str]]:
    """How replay finds each function a fused kernel's source calls: ``["device", module,
    name]`` for a scalar body compiled as a device function, ``["attr", module, name]``."""
    found = {}
    for name, value in namespace.items():
        fn = getattr(value, "fn", None) if type(value).__name__ == "FakeCUDAKernel" else value
        if callable(fn) and getattr(fn, "__module__", "").startswith("gtensor."):
            kind = "attr" if fn is value else "device"
            found[name] = [kind, fn.__module__, fn.__qualname__]
    return found


def _record_fused() -> None:
    """Record every launch of a ``gt.compile`` fused cuda kernel: its generated source, the
    functions it calls and its arguments."""
    from gtensor.compiler import fusion_cuda

    compile_kernel = fusion_cuda._compile

    def recording(kind: str, signature: str, lines: list[str], body: Any, *rest: Any) -> Any:
        kernel = compile_kernel(kind, signature, lines, body, *rest)
        launch = kernel.fn
        head = {"op": f"fused:{kind}", "sig": [], "source": kernel.source,
                "fns": _fused_functions(body.namespace)}

        def recorded(*args: Any) -> Any:
            _calls.add(json.dumps({**head, "run": [describe(a) for a in args]}, sort_keys=True))
            return launch(*args)

        kernel.fn = recorded
        return kernel

    fusion_cuda._compile = recording


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-launches", default=None,
                     help="write the distinct cuda kernel calls to this JSON-lines file")


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("--record-launches"):
        return
    from gtensor.kernels import registry

    registry.load_backend("cuda")
    for (op, backend), entry in registry._table.items():
        if backend == "cuda":
            for sig, fn in list(entry.items()):
                entry[sig] = _recording(op, sig, fn)
    _record_fused()


def pytest_unconfigure(config: pytest.Config) -> None:
    path = config.getoption("--record-launches")
    if not path:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        path = f"{path}.{worker}"
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in sorted(_calls))
