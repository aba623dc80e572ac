"""The examples in the package's docstrings run and print what they show.

Each module's examples run in one namespace that starts with ``gt``, ``np``,
``F`` and ``nn`` (as a reader would have them) plus the module's own globals.
Modules are imported here, inside the tests, so that ``conftest.py`` has chosen
the simulated or real CUDA device before any of them loads.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import numpy as np
import pytest

import gtensor as gt
from gtensor import nn
from gtensor.nn import functional as F

_ROOTS = {"gtensor": Path(gt.__file__).parent}
_ROOTS["gtensor.kernels"] = Path(importlib.import_module("gtensor.kernels").__file__).parent
# run as scripts or need what the suite has no use for: a cluster launcher's entry point
_SKIPPED = {"gtensor.kernels.__main__", "gtensor.distributed.run"}


def _module_names() -> list[str]:
    names = set()
    for package, root in _ROOTS.items():
        for path in root.rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts and parts[0] == "kernels" and package == "gtensor":
                continue  # the kernels package is walked from its own root
            if ">>>" in path.read_text(encoding="utf-8"):
                names.add(".".join((package, *parts)))
    return sorted(names - _SKIPPED)


_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _restore_defaults() -> None:
    """Put back the process-wide settings an example may change."""
    gt.set_default_dtype(gt.float32)
    gt.set_default_device("cpu")
    gt.set_grad_enabled(True)
    gt.use_deterministic_algorithms(False)
    gt.set_float32_matmul_precision("highest")
    gt.set_printoptions(profile="default")


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    namespace = {"gt": gt, "np": np, "F": F, "nn": nn}
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    failures = []
    examples = 0
    rng_state = gt.get_rng_state()
    try:
        for test in finder.find(module, name, module=module, globs={}):
            test.globs = {**module.__dict__, **namespace}
            out: list[str] = []
            result = runner.run(test, out=out.append, clear_globs=True)
            examples += result.attempted
            if result.failed:
                failures.append("".join(out))
    finally:
        _restore_defaults()
        gt.set_rng_state(rng_state)
    assert not failures, "\n".join(failures)
    if not examples:
        pytest.skip("every example is marked +SKIP or sits outside a docstring doctest reads")
