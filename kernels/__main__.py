"""Print the op x backend x dtype coverage table from the registry.

Usage: ``python -m gtensor.kernels``
"""

from __future__ import annotations

from .registry import BACKENDS, registered


def coverage_table() -> str:
    """Return the coverage table as text, one row per op.

    Returns:
        A table with a column per backend listing the dtype signatures.

    Example:
        >>> coverage_table().split()[:3]
        ['op', 'cpu', 'cuda']
    """
    table = registered()
    ops = sorted({op for op, _ in table})
    rows = [("op", *BACKENDS)]
    for op in ops:
        cells = []
        for backend in BACKENDS:
            sigs = table.get((op, backend), [])
            cells.append(" ".join(",".join(s) for s in sigs) if sigs else "-")
        rows.append((op, *cells))
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, width, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in width))
    return "\n".join(lines)


def main() -> None:
    """Print the coverage table."""
    print(coverage_table())


if __name__ == "__main__":
    main()
