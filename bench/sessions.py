"""Where a library's workload runs: in this process, or in its own worker subprocess.

Both kinds of session answer the same three calls (``prepare``, ``sample``,
``finish``), so the runner can alternate between libraries without caring
where each one lives. A worker subprocess keeps one library's thread pools
(BLAS, Numba, OpenMP) away from the others': the idle worker waits on a pipe
while another one measures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from pathlib import Path
from typing import IO, Any, Protocol

from .libraries import Library
from .registry import Unsupported, Workload, get_case
from .timing import Timer, TimingConfig


class Session(Protocol):
    """One library ready to run cases."""

    name: str

    def prepare(self, case: str, params: dict[str, Any], timing: TimingConfig) -> dict[str, Any]:
        """Build and warm up ``case``; return ``{"status", "number", "first_call_s", "work"}``."""
        ...

    def sample(self, count: int) -> list[float]:
        """Take ``count`` samples of the prepared case."""
        ...

    def finish(self) -> dict[str, Any]:
        """Drop the prepared case; return its extra information."""
        ...

    def close(self) -> None:
        """Release the session."""
        ...


class LocalSession:
    """Runs one library's workloads in the current process.

    Args:
        name: the library.
        device: ``cpu`` or ``cuda``.

    Example:
        >>> s = LocalSession("numpy", "cpu")
        >>> s.prepare("copy.contiguous_transpose", {"n": 8},
        ...           TimingConfig.for_preset("tiny"))["status"]
        'ok'
        >>> len(s.sample(1)), s.finish()
        (1, {})
    """

    def __init__(self, name: str, device: str) -> None:
        self.name = name
        self.device = device
        self._lib: Library | None = None
        self._workload: Workload | None = None
        self._timer: Timer | None = None

    @property
    def lib(self) -> Library:
        """The library adapter, imported on first use."""
        if self._lib is None:
            self._lib = Library(self.name, self.device)
        return self._lib

    def prepare(self, case: str, params: dict[str, Any], timing: TimingConfig) -> dict[str, Any]:
        """Build the workload and warm it up; failures come back as a status, not raised."""
        self._workload = self._timer = None
        try:
            workload = get_case(case).build(self.lib, **params)
            timer = Timer(workload, self.lib.sync, timing)
            number = timer.warm_up()
        except Unsupported as exc:
            return {"status": f"unsupported: {exc}"}
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            return {"status": f"error: {type(exc).__name__}: {exc}"}
        self._workload, self._timer = workload, timer
        return {"status": "ok", "number": number, "first_call_s": timer.first_call_s,
                "work": workload.work()}

    def sample(self, count: int) -> list[float]:
        """Take ``count`` samples (none when the case failed to prepare)."""
        return [] if self._timer is None else self._timer.samples(count)

    def finish(self) -> dict[str, Any]:
        """Collect the workload's extra information and drop it."""
        extra: dict[str, Any] = {}
        if self._workload is not None and self._workload.extra is not None:
            try:
                extra = self._workload.extra()
            except Exception as exc:
                extra = {"error": f"{type(exc).__name__}: {exc}"}
        self._workload = self._timer = None
        return extra

    def close(self) -> None:
        """Drop any prepared workload."""
        self._workload = self._timer = None


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Return this process's environment for a child Python, able to import ``bench``.

    Args:
        extra: variables to set on top.

    Example:
        >>> "PYTHONPATH" in child_env()
        True
    """
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env.update(extra or {})
    return env


class WorkerSession:
    """Runs one library's workloads in a subprocess (``python -m bench.worker``).

    Args:
        name: the library.
        device: ``cpu`` or ``cuda``.

    Example:
        >>> s = WorkerSession("numpy", "cpu")  # doctest: +SKIP
        >>> s.close()  # doctest: +SKIP
    """

    def __init__(self, name: str, device: str) -> None:
        self.name = name
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "bench.worker", name, device],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env())

    def _call(self, **message: Any) -> Any:
        stdin, stdout = self._pipes()
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"[bench] the {self.name} worker exited (code {self._proc.poll()})")
        reply = json.loads(line)
        if "fatal" in reply:
            raise RuntimeError(f"[bench] the {self.name} worker failed: {reply['fatal']}")
        return reply["result"]

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        if self._proc.stdin is None or self._proc.stdout is None:
            raise RuntimeError("[bench] worker pipes are closed")
        return self._proc.stdin, self._proc.stdout

    def prepare(self, case: str, params: dict[str, Any], timing: TimingConfig) -> dict[str, Any]:
        """Build and warm up ``case`` in the worker."""
        try:
            return dict(self._call(op="prepare", case=case, params=params,
                                   timing=timing.to_json()))
        except RuntimeError as exc:
            return {"status": f"error: {exc}"}

    def sample(self, count: int) -> list[float]:
        """Take ``count`` samples in the worker."""
        return [float(v) for v in self._call(op="sample", count=count)]

    def finish(self) -> dict[str, Any]:
        """Drop the case in the worker and return its extra information."""
        return dict(self._call(op="finish"))

    def close(self) -> None:
        """Ask the worker to exit and wait for it."""
        if self._proc.poll() is None:
            try:
                self._call(op="quit")
            except (RuntimeError, OSError, ValueError):
                pass
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()


class SessionPool:
    """Opens at most one session per (library, isolated) pair and closes them all at the end.

    Args:
        device: ``cpu`` or ``cuda``.

    Example:
        >>> with SessionPool("cpu") as pool:
        ...     pool.get("numpy", isolated=False).name
        'numpy'
    """

    def __init__(self, device: str) -> None:
        self.device = device
        self._open: dict[tuple[str, bool], Session] = {}

    def get(self, name: str, isolated: bool) -> Session:
        """Return the session of library ``name``, opening it on first use."""
        key = (name, isolated)
        if key not in self._open:
            self._open[key] = (WorkerSession(name, self.device) if isolated
                               else LocalSession(name, self.device))
        return self._open[key]

    def close(self) -> None:
        """Close every open session."""
        for session in self._open.values():
            session.close()
        self._open.clear()

    def __enter__(self) -> SessionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
