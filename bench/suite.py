"""One benchmark run: probe libraries, measure ceilings, run the chosen cases, build the result."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .ceilings import measure
from .libraries import LIBRARIES, Availability, probe
from .machine import describe
from .registry import Case
from .results import document
from .runner import CaseResult, run_case, should_isolate
from .sessions import SessionPool
from .timing import TimingConfig


@dataclass
class Run:
    """Everything one run produced."""

    results: list[CaseResult]
    libraries: dict[str, Availability]
    ceilings: dict[str, Any]
    doc: dict[str, Any]


def _progress(cases: list[Case], enabled: bool) -> Iterator[Case]:
    if not enabled:
        yield from cases
        return
    try:
        from tqdm import tqdm
    except ImportError:
        for i, c in enumerate(cases, 1):
            print(f"[{i}/{len(cases)}] {c.name}", file=sys.stderr, flush=True)
            yield c
        return
    bar = tqdm(cases, desc="bench", unit="case", file=sys.stderr, dynamic_ncols=True)
    for c in bar:
        bar.set_postfix_str(c.name)
        yield c


def run_suite(cases: Iterable[Case], device: str, preset: str, *,
              libraries: Iterable[str] = LIBRARIES, isolate: str = "auto",
              progress: bool = False, params: dict[str, Any] | None = None) -> Run:
    """Run ``cases`` on ``device`` for gtensor and every available reference.

    Args:
        cases: the cases to run.
        device: ``cpu`` or ``cuda``.
        preset: ``tiny``, ``quick`` or ``full``.
        libraries: the libraries to consider (unavailable ones are reported absent).
        isolate: ``auto``, ``always`` or ``never`` (see :func:`bench.runner.should_isolate`).
        progress: show a progress bar on stderr.
        params: size overrides applied to every case (for tests).

    Returns:
        The results and the JSON document describing the run.

    Example:
        >>> from bench.registry import select
        >>> run = run_suite(select(["copy"], "cpu"), "cpu", "tiny", libraries=["numpy"])
        >>> run.results[0].results["numpy"].status
        'ok'
    """
    chosen = list(cases)
    avail = {name: probe(name, device) for name in libraries}
    running = [n for n, a in avail.items() if a.available]
    timing = TimingConfig.for_preset(preset)
    ceilings = measure(device, preset)
    results: list[CaseResult] = []
    interrupted = False
    with SessionPool(device) as pool:
        try:
            for case in _progress(chosen, progress):
                isolated = should_isolate(case, device, running, isolate)
                results.append(run_case(case, running, pool, preset, timing, isolated, params))
        except KeyboardInterrupt:
            interrupted = True
            print(f"[bench] interrupted: keeping the {len(results)} finished case(s)",
                  file=sys.stderr)
    options = {"device": device, "preset": preset, "isolate": isolate,
               "cases": [c.name for c in chosen], "interrupted": interrupted}
    doc = document(results, options=options, machine=describe(avail), libraries=avail,
                   ceilings=ceilings, timing=timing)
    return Run(results, avail, ceilings, doc)
