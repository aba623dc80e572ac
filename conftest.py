"""Docstring examples run as doctests: the names they use without importing them."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, Any]) -> None:
    # imported here, not at the top: tests/conftest.py must choose the simulated CUDA device
    # before anything imports Numba
    import numpy as np

    import gtensor as gt

    doctest_namespace.update(gt=gt, np=np, F=gt.nn.functional, nn=gt.nn)
