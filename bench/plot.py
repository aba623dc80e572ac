"""The PNG chart: gtensor's time relative to each reference, per case (log scale)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

COLORS = {"numpy": "#4c72b0", "torch": "#dd8452", "cupy": "#55a868"}


def plot_ratios(doc: dict[str, Any], path: Path) -> Path:
    """Draw one horizontal bar per case and reference, from 1 to gtensor time / reference time.

    Args:
        doc: a result document (see :mod:`bench.results`).
        path: where to write the PNG.

    Returns:
        The path written.

    Example:
        >>> plot_ratios(doc, Path("ratios.png"))  # doctest: +SKIP
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cases = [c for c in doc["cases"] if any(v is not None for v in c["ratios"].values())]
    refs = [r for r in COLORS if any(c["ratios"].get(r) is not None for c in cases)]
    height = 0.8 / max(1, len(refs))
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * max(1, len(cases)) * max(1, len(refs))))
    for j, ref in enumerate(refs):
        ys = [i + j * height for i, c in enumerate(cases) if c["ratios"].get(ref) is not None]
        xs = [c["ratios"][ref] for c in cases if c["ratios"].get(ref) is not None]
        ax.barh(ys, [x - 1 for x in xs], left=1, height=height, color=COLORS[ref],
                label=f"vs {ref}")
        for y, x in zip(ys, xs, strict=True):
            ax.annotate(f"{x:.2g}x", (x, y), xytext=(3 if x >= 1 else -3, 0),
                        textcoords="offset points", va="center", fontsize=7,
                        ha="left" if x >= 1 else "right")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ratios = [v for c in cases for v in c["ratios"].values() if v]
    if ratios:
        ax.set_xlim(min(0.5, min(ratios) / 2), max(2.0, max(ratios) * 2))
    ax.set_yticks([i + height * (len(refs) - 1) / 2 for i in range(len(cases))])
    ax.set_yticklabels([c["name"] for c in cases])
    ax.invert_yaxis()
    ax.set_xlabel("gtensor time / reference time (left of 1: gtensor faster)")
    machine = doc.get("machine", {})
    where = ", ".join(machine.get("gpus") or [machine.get("cpu", "")])
    ax.set_title(f"gtensor on {doc['options'].get('device', '?')}: {where}", fontsize=9)
    if refs:
        ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
