"""Subprocess-bound tests started when the suite is collected, so they use the idle core.

The test process runs one test at a time on one core. A test whose work is a
subprocess (the sm_90 compile check, the example scripts) would leave that
core waiting; instead ``conftest.py`` starts its jobs as soon as the test is
selected, and the test only collects their results, by then mostly done.

A test module opts in with a ``start_background()`` function, which starts its
jobs with :func:`start`; the test calls :func:`result` for each.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

_jobs: dict[str, subprocess.Popen[str]] = {}


def start(name: str, argv: Sequence[str], env: dict[str, str] | None = None) -> None:
    """Start job ``name`` (once) running ``argv``, its output captured."""
    if name not in _jobs:
        _jobs[name] = subprocess.Popen(list(argv), env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)


def result(name: str, timeout: float) -> tuple[int, str, str]:
    """Wait for job ``name``; return its exit status, standard output and standard error."""
    job = _jobs.pop(name)
    try:
        out, err = job.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        job.kill()
        out, err = job.communicate()
        return -9, out, err + f"\n(timed out after {timeout} s)"
    return job.returncode, out, err


def stop_all() -> None:
    """Kill the jobs no test collected (the session ended early)."""
    for job in _jobs.values():
        job.kill()
        job.communicate()
    _jobs.clear()
