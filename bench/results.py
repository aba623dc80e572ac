"""Result files: one JSON document per run, with the machine it ran on.

Schema ``gtensor-bench/1``: ``created``, ``command``, ``options``, ``machine``,
``libraries``, ``ceilings``, ``timing`` and ``cases`` (a list of
``{name, summary, params, isolated, work, results, ratios, gtensor_rate}``;
``results`` maps each library that ran to its status, samples and median).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import Any

from .libraries import REFERENCES, Availability
from .runner import CaseResult
from .timing import TimingConfig

SCHEMA = "gtensor-bench/1"
TOP_KEYS = ("schema", "created", "command", "options", "machine", "libraries", "ceilings",
            "timing", "cases")
CASE_KEYS = ("name", "summary", "params", "isolated", "work", "results", "ratios",
             "gtensor_rate")


def case_json(result: CaseResult) -> dict[str, Any]:
    """Return one case's entry of the result file."""
    rate = result.rate()
    return {
        "name": result.name,
        "summary": result.summary,
        "params": result.params,
        "isolated": result.isolated,
        "work": result.work,
        "results": {k: v.to_json() for k, v in result.results.items()},
        "ratios": {ref: result.ratio(ref) for ref in REFERENCES if ref in result.results},
        "gtensor_rate": None if rate is None else {"value": rate[0], "unit": rate[1]},
    }


def document(results: list[CaseResult], *, options: dict[str, Any], machine: dict[str, Any],
             libraries: dict[str, Availability], ceilings: dict[str, Any],
             timing: TimingConfig) -> dict[str, Any]:
    """Assemble the result document of one run.

    Example:
        >>> doc = document([], options={}, machine={}, libraries={}, ceilings={},
        ...                timing=TimingConfig.for_preset("tiny"))
        >>> validate(doc)
    """
    return {
        "schema": SCHEMA,
        "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["python -m bench", *sys.argv[1:]]),
        "options": options,
        "machine": machine,
        "libraries": {k: v.to_json() for k, v in libraries.items()},
        "ceilings": ceilings,
        "timing": timing.to_json(),
        "cases": [case_json(r) for r in results],
    }


def validate(doc: dict[str, Any]) -> None:
    """Raise ``ValueError`` unless ``doc`` has the shape of a ``gtensor-bench/1`` document."""
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"[bench] unknown result schema {doc.get('schema')!r}")
    missing = [k for k in TOP_KEYS if k not in doc]
    if missing:
        raise ValueError(f"[bench] result lacks {missing}")
    for entry in doc["cases"]:
        lacking = [k for k in CASE_KEYS if k not in entry]
        if lacking:
            raise ValueError(f"[bench] case {entry.get('name')} lacks {lacking}")
        for lib, res in entry["results"].items():
            if res["status"] == "ok" and not isinstance(res["median_s"], float):
                raise ValueError(f"[bench] {entry['name']} [{lib}] has no median")


def default_path(device: str, preset: str) -> Path:
    """Return ``<folder>/<time>-<device>-<preset>.json`` for a run's result file.

    The folder is ``$GTENSOR_BENCH_RESULTS`` when set, else ``bench/results/`` next to
    this package, else ``./bench-results/`` when the package folder is read-only.

    Example:
        >>> default_path("cpu", "quick").suffix
        '.json'
    """
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    chosen = os.environ.get("GTENSOR_BENCH_RESULTS")
    if chosen:
        return Path(chosen) / f"{stamp}-{device}-{preset}.json"
    folder = Path(__file__).resolve().parent / "results"
    if not os.access(folder if folder.exists() else folder.parent, os.W_OK):
        folder = Path.cwd() / "bench-results"
    return folder / f"{stamp}-{device}-{preset}.json"


def write(doc: dict[str, Any], path: Path) -> Path:
    """Validate ``doc`` and write it to ``path`` (creating folders); return the path."""
    validate(doc)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path
