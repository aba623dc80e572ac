"""Command line of the benchmark suite: ``python -m bench`` or ``gtensor-bench``.

Example:
    python -m bench                     # quick run on the CPU, table only
    python -m bench --save              # ... and keep the JSON under bench/results/
    python -m bench --device cuda --full --plot ratios.png
    python -m bench --only copy memory.allocator_churn --json out.json
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .registry import all_cases, select


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line (see ``python -m bench --help``)."""
    p = argparse.ArgumentParser(prog="python -m bench",
                                description="Time gtensor against NumPy, PyTorch and CuPy.")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="preset", action="store_const", const="quick",
                      help="small sizes, few samples (default; a few minutes on 2 cores)")
    size.add_argument("--full", dest="preset", action="store_const", const="full",
                      help="the sizes of the issue, more samples")
    size.add_argument("--tiny", dest="preset", action="store_const", const="tiny",
                      help=argparse.SUPPRESS)
    p.set_defaults(preset="quick")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--only", nargs="+", metavar="CASE",
                   help="case names, families (e.g. 'copy') or globs ('matmul.*')")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", type=Path, metavar="PATH", help="write the results to PATH")
    out.add_argument("--save", action="store_true",
                     help="write the results to bench/results/<time>-<device>-<preset>.json")
    p.add_argument("--plot", type=Path, metavar="PATH", help="write a PNG chart of the ratios")
    p.add_argument("--isolate", choices=("auto", "always", "never"), default="auto",
                   help="run each library in its own subprocess (auto: thread-pool-heavy "
                        "cases on the CPU, every case on CUDA)")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    return p.parse_args(argv)


def cuda_problem() -> str | None:
    """Return why ``--device cuda`` cannot run here, or ``None`` when a real GPU is usable."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
        return ("NUMBA_ENABLE_CUDASIM is set: the simulated CUDA device is for tests, not for "
                "benchmarks; unset it to benchmark a real GPU")
    import gtensor as gt

    if gt.cuda.is_simulated() or not gt.cuda.is_available():
        return ("no CUDA GPU is available (gt.cuda.is_available() is False); install a driver "
                "and gtensor[cuda12] or gtensor[cuda13], or run with --device cpu")
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the suite from the command line; return the exit status.

    Example:
        >>> main(["--list"])  # doctest: +SKIP
    """
    args = parse_args(argv)
    if args.list:
        for c in all_cases():
            print(f"{c.name:40s} {'/'.join(c.devices):9s} {c.summary}")
        return 0
    try:
        cases = select(args.only, args.device)
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return 2
    if args.device == "cuda":
        problem = cuda_problem()
        if problem:
            print(f"[bench] --device cuda: {problem}", file=sys.stderr)
            return 2
    from . import report, results
    from .suite import run_suite

    print(f"[bench] {len(cases)} case(s) on {args.device}, {args.preset} sizes; measuring "
          "ceilings first", file=sys.stderr, flush=True)
    run = run_suite(cases, args.device, args.preset, isolate=args.isolate, progress=True)
    print(report.table(run.results, run.libraries, run.ceilings))
    if args.json or args.save:
        path = args.json or results.default_path(args.device, args.preset)
        print(f"\nresults: {results.write(run.doc, path)}")
    if args.plot:
        from .plot import plot_ratios

        print(f"chart: {plot_ratios(run.doc, args.plot)}")
    gt_ran = any(r.results.get("gtensor") and r.results["gtensor"].status == "ok"
                 for r in run.results)
    return 0 if gt_ran or not run.results else 1


if __name__ == "__main__":
    sys.exit(main())
