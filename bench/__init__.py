"""gtensor's benchmark suite: ``python -m bench`` (also the ``gtensor-bench`` command).

Each case is one small function registered with :func:`bench.registry.case` in a
module under ``bench/cases/``; the harness times it for gtensor and for every
importable reference library (NumPy always, PyTorch and CuPy when present) and
reports times, ratios and achieved throughput against ceilings it measures on
the machine.

Example:
    >>> from bench.registry import all_cases
    >>> any(c.name == "copy.contiguous_transpose" for c in all_cases())
    True
"""
