"""Compile every recorded cuda kernel call for a real GPU target, with no GPU present.

The simulator runs kernels as Python, so it accepts code that the CUDA target
rejects (typing errors on 0-d operands, unsupported math, Python objects).
This script replays the calls that ``launch_recorder`` collected from the
simulated suite through the same dispatch table, with Numba's real CUDA target
and NumPy arrays standing in for device arrays, and compiles each launched
kernel to PTX for one compute capability instead of running it (a ``gt.compile``
fused kernel is rebuilt from its recorded source)::

    python tests/cuda_compile/replay.py launches.jsonl.gz [--cc 9.0] [--max-per-kernel N]

It needs NVVM and NVRTC (``cuda-toolkit[nvvm,nvrtc]``, in the test extra) but no
driver. It
prints one line per kernel signature that fails to compile and exits 1 if any
does; calls whose host code needs a GPU (CuPy, device allocations) are counted
as not checked.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import os
import sys
import traceback
import zlib
from collections import Counter
from typing import Any

os.environ.pop("NUMBA_ENABLE_CUDASIM", None)

import numpy as np  # noqa: E402
from numba import cuda, typeof  # noqa: E402
from numba.core import config  # noqa: E402


class _Device:
    compute_capability = (9, 0)
    id = 0
    MULTIPROCESSOR_COUNT = 132  # an H200's; launch plans read these to size their grids
    MAX_THREADS_PER_MULTIPROCESSOR = 2048


class _CompileError(Exception):
    """A kernel failed to compile for the CUDA target."""


_compiled: dict[tuple[Any, ...], str | None] = {}
_per_kernel: dict[Any, int] = {}
MAX_PER_KERNEL = [0]  # 0: compile every signature


class _CompileOnly:
    """Stands in for a configured launch: compiles for the argument types, runs nothing."""

    def __init__(self, dispatcher: Any) -> None:
        self.dispatcher = dispatcher

    def __call__(self, *args: Any) -> None:
        disp = self.dispatcher
        types = tuple(disp.typeof_pyval(a) for a in args)
        key = (disp.py_func, types)
        if key not in _compiled and MAX_PER_KERNEL[0]:
            if _per_kernel.get(disp.py_func, 0) >= MAX_PER_KERNEL[0]:
                return
            _per_kernel[disp.py_func] = _per_kernel.get(disp.py_func, 0) + 1
        if key not in _compiled:
            try:
                cuda.compile_ptx(disp.py_func, types, cc=_Device.compute_capability,
                                 fastmath=bool(disp.targetoptions.get("fastmath")))
                _compiled[key] = None
            except Exception as exc:  # noqa: BLE001 - every compile failure is reported
                _compiled[key] = f"{type(exc).__name__}: {exc}"
        if _compiled[key] is not None:
            raise _CompileError(_compiled[key])


def _install_fakes() -> None:
    """Route device queries, allocations and launches to host stand-ins."""
    import numba.cuda.compiler as compiler
    import numba.cuda.dispatcher as dispatcher

    dispatcher.get_current_device = compiler.get_current_device = lambda: _Device
    dispatcher.CUDADispatcher.configure = lambda self, *a, **k: _CompileOnly(self)
    dispatcher.CUDADispatcher.specialize = lambda self, *a: self  # compiled by _CompileOnly
    cuda.device_array = lambda shape, dtype=np.float64, *a, **k: np.zeros(shape, dtype)
    cuda.device_array_like = lambda ary, *a, **k: np.zeros_like(ary)
    cuda.mapped_array = lambda shape, dtype=np.float64, *a, **k: np.zeros(shape, dtype)
    cuda.to_device = lambda ary, *a, **k: np.array(ary)
    cuda.synchronize = lambda: None
    cuda.get_current_device = lambda: _Device


def build(desc: Any) -> Any:
    """Rebuild an argument from its recorded description (arrays as zeros)."""
    if not isinstance(desc, dict):
        return desc
    (tag, value), = desc.items()
    if tag == "a":
        dtype, shape, strides = np.dtype(value[0]), tuple(value[1]), tuple(value[2])
        if 0 in shape:
            return np.zeros(shape, dtype)
        lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides, strict=True))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides, strict=True))
        base = np.zeros(hi - lo + dtype.itemsize, np.uint8)
        return np.lib.stride_tricks.as_strided(base[-lo:].view(dtype), shape, strides)
    if tag in ("t", "l"):
        items = [build(v) for v in value]
        return tuple(items) if tag == "t" else items
    if tag == "n":
        return np.dtype(value[0]).type(value[1])
    if tag == "nc":
        return np.dtype(value[0]).type(complex(value[1], value[2]))
    if tag == "c":
        return complex(*value)
    if tag == "dt":
        return np.dtype(value)
    if tag == "stream":
        return None
    if tag == "?" and value.lower() == "stream":
        return None
    if tag == "?":
        raise TypeError(f"argument of type {value} cannot be rebuilt")
    return value


def _compile_fused(entry: dict[str, Any], args: list[Any]) -> None:
    """Rebuild a recorded ``gt.compile`` kernel from its source and compile it for the
    argument types (raises :class:`_CompileError`)."""
    namespace: dict[str, Any] = {"np": np, "cuda": cuda, "__name__": "fused"}
    for name, (kind, module, qualname) in entry["fns"].items():
        fn = getattr(importlib.import_module(module), qualname)
        namespace[name] = cuda.jit(device=True)(fn) if kind == "device" else fn
    source = entry["source"]
    exec(compile(source, "<fused>", "exec"), namespace)  # noqa: S102 - recorded kernel source
    py_func = namespace[source.split("(", 1)[0].removeprefix("def ")]
    types = tuple(typeof(a) for a in args)
    key = (source, types)
    if key not in _compiled:
        try:
            cuda.compile_ptx(py_func, types, cc=_Device.compute_capability)
            _compiled[key] = None
        except Exception as exc:  # noqa: BLE001 - every compile failure is reported
            _compiled[key] = f"{type(exc).__name__}: {exc}"
    if _compiled[key] is not None:
        raise _CompileError(_compiled[key])


def replay(lines: list[str]) -> tuple[dict[str, str], Counter[str], int]:
    """Replay recorded calls; return failures, calls not checked (by reason) and calls done."""
    from gtensor.kernels import lookup

    failures: dict[str, str] = {}
    unchecked: Counter[str] = Counter()
    done = 0
    for line in lines:
        entry = json.loads(line)
        planned = "plan" in entry
        try:
            args = [build(a) for a in entry.get("plan" if planned else "args", [])]
            kwargs = {k: build(v) for k, v in entry.get("kwargs", {}).items()}
            run_args = [build(a) for a in entry["run"]] if planned or "source" in entry else []
        except TypeError as exc:
            unchecked[f"{entry['op']}: {exc}"] += 1
            continue
        try:
            if "source" in entry:
                _compile_fused(entry, run_args)
            elif planned:
                lookup(entry["op"], "cuda", tuple(entry["sig"])).plan(*args)(*run_args)
            else:
                lookup(entry["op"], "cuda", tuple(entry["sig"]))(*args, **kwargs)
            done += 1
        except _CompileError as exc:
            shown = entry.get("args", entry.get("plan", entry.get("source", "")[:60]))
            where = f"{entry['op']}{tuple(entry['sig'])} args={shown}"
            failures.setdefault(str(exc).splitlines()[0][:300] + "\n    " + where, str(exc))
        except Exception as exc:  # noqa: BLE001 - host code that needs a GPU
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            unchecked[f"{entry['op']}: {type(exc).__name__} at "
                      f"{os.path.basename(frame.filename)}:{frame.lineno}"] += 1
    return failures, unchecked, done


def _read(path: str) -> list[str]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: replay files of recorded calls, print failures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cc", default="9.0", help="compute capability to compile for")
    parser.add_argument("--max-per-kernel", type=int, default=0,
                        help="compile at most N signatures of each kernel (0: all)")
    parser.add_argument("--verbose", action="store_true", help="print whole compiler messages")
    parser.add_argument("--shard", default="0/1",
                        help="I/N: replay only the ops of shard I of N (run N processes at once)")
    args = parser.parse_args(argv)
    if config.ENABLE_CUDASIM:
        print("the CUDA simulator is on; unset NUMBA_ENABLE_CUDASIM", file=sys.stderr)
        return 2
    _Device.compute_capability = tuple(int(p) for p in args.cc.split("."))
    MAX_PER_KERNEL[0] = args.max_per_kernel
    _install_fakes()
    lines = sorted({ln for f in args.files for ln in _read(f) if ln.strip()})
    shard, shards = (int(p) for p in args.shard.split("/"))
    lines = [ln for ln in lines if zlib.crc32(json.loads(ln)["op"].encode()) % shards == shard]
    failures, unchecked, done = replay(lines)
    for head, full in failures.items():
        print("FAIL", full if args.verbose else head)
    for reason, n in unchecked.most_common():
        print(f"not checked ({n}): {reason}")
    kernels = len({k[0] for k in _compiled})
    print(f"{len(lines)} calls, {done} replayed, {len(_compiled)} kernel signatures "
          f"({kernels} kernels) compiled for sm_{args.cc.replace('.', '')}: "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
