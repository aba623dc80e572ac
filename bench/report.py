"""The final table: one row per case, a column per library, throughput against the ceiling."""

from __future__ import annotations

import math
from typing import Any

from .libraries import Availability
from .runner import CaseResult

ISOLATED_MARK = "†"


def format_time(seconds: float | None) -> str:
    """Format a duration with a unit that keeps three significant digits.

    Example:
        >>> format_time(0.00123)
        '1.23 ms'
        >>> format_time(9.9996e-7)
        '1 µs'
    """
    if seconds is None or math.isnan(seconds):
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if float(f"{seconds:.3g}") >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _cell(result: CaseResult, name: str, availability: Availability) -> str:
    if not availability.available:
        return "absent"
    res = result.results.get(name)
    if res is None:
        return "-"
    if res.status != "ok":
        return res.status.split(":", 1)[0]
    text = format_time(res.median_s)
    ratio = result.ratio(name) if name != "gtensor" else None
    return f"{text} ({ratio:.2f}x)" if ratio is not None else text


def _rate(result: CaseResult, ceilings: dict[str, Any]) -> tuple[str, str]:
    rate = result.rate()
    if rate is None:
        return "-", "-"
    value, unit = rate
    ceiling = {"GB/s": ceilings.get("copy_gbps"), "GFLOP/s": ceilings.get("matmul_gflops")}
    top = ceiling.get(unit)
    share = f"{100 * value / top:.0f}% of {top:.3g}" if top else "-"
    return f"{value:.3g} {unit}", share


def _params(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def table(results: list[CaseResult], libraries: dict[str, Availability],
          ceilings: dict[str, Any]) -> str:
    """Return the final table as text, with its footnotes.

    Args:
        results: the cases' results.
        libraries: every library's availability (absent ones get an ``absent`` column).
        ceilings: the measured ceilings (``copy_gbps``, ``matmul_gflops``).

    Returns:
        The table followed by notes on ratios, isolation, absent libraries and errors.
    """
    names = list(libraries)
    header = ["case", "params", *names, "gtensor rate", "of ceiling"]
    rows = [header]
    for r in results:
        mark = f" {ISOLATED_MARK}" if r.isolated else ""
        rows.append([r.name + mark, _params(r.params),
                     *(_cell(r, n, libraries[n]) for n in names), *_rate(r, ceilings)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += ["", "Times are medians of interleaved samples; (Nx) = gtensor time / reference "
              "time, below 1 means gtensor is faster."]
    if any(r.isolated for r in results):
        lines.append(f"{ISOLATED_MARK} isolated: each library ran this case in its own "
                     "subprocess, alternating turns, so their thread pools could not disturb "
                     "each other.")
    absent = [f"{a.name} ({a.reason})" for a in libraries.values() if not a.available]
    if absent:
        lines.append("Absent references (not run, not substituted): " + ", ".join(absent))
    lines.append(_ceiling_line(ceilings))
    lines += _notes(results)
    return "\n".join(lines)


def _ceiling_line(ceilings: dict[str, Any]) -> str:
    if ceilings.get("copy_gbps") is None:
        return f"Ceilings: not measured ({ceilings.get('error', 'skipped')})"
    return (f"Ceilings: copy {ceilings['copy_gbps']:.3g} GB/s ({ceilings['copy_how']}), "
            f"matmul {ceilings['matmul_gflops']:.3g} GFLOP/s ({ceilings['matmul_how']})")


def _clip(text: str, width: int = 160) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _notes(results: list[CaseResult]) -> list[str]:
    notes = []
    for r in results:
        for name, res in r.results.items():
            if res.status != "ok" and not res.status.startswith("unsupported"):
                last = res.status.strip().splitlines()[-1]
                notes.append(f"{r.name} [{name}]: {_clip(last)}")
            imported = res.extra.get("import_s_median")
            if imported is not None and res.median_s:
                notes.append(f"{r.name} [{name}]: import {format_time(imported)} of "
                             f"{format_time(res.median_s)}")
            held = res.extra.get("allocated_bytes")
            if held:
                shown = ", ".join(f"{k}={v:g}" for k, v in held.items())
                steps = res.extra.get("steps")
                notes.append(f"{r.name} [{name}] bytes allocated ({steps} steps): {shown}")
            stats = res.extra.get("allocator_stats")
            if stats:
                shown = ", ".join(f"{k}={v:g}" for k, v in list(stats.items())[:8])
                notes.append(f"{r.name} [{name}] allocator stats: {shown}")
    return notes
