"""Run one call with gtensor and with torch and compare values and input gradients.

A case is ``call(F, lit, *floats)``: ``F`` is either functional module, ``lit`` turns a
NumPy array into a constant tensor of that library, and the float arrays become leaves
whose gradients are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import gtensor as gt
import gtensor.nn.functional as F

Call = Callable[..., Any]


def match_torch(call: Call, arrays: list[np.ndarray], device: str = "cpu",
                rtol: float = 1e-7, atol: float = 1e-12) -> None:
    """``call`` with gtensor and with torch: the same values and the same input gradients."""
    import torch

    g_in = [gt.tensor(a, device=device, requires_grad=True) for a in arrays]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    got = call(F, lambda a: gt.tensor(np.asarray(a), device=device), *g_in)
    want = call(torch.nn.functional, lambda a: torch.tensor(np.asarray(a)), *t_in)
    if isinstance(want, tuple):  # (values, indices): indices compared, values go on
        np.testing.assert_array_equal(got[1].cpu().numpy(), want[1].numpy())
        got, want = got[0], want[0]
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=rtol,
                               atol=atol)
    weights = np.random.default_rng(7).uniform(0.5, 1.5, tuple(want.shape))
    (got * gt.tensor(weights, device=device)).sum().backward()
    (want * torch.tensor(weights)).sum().backward()
    for g, t in zip(g_in, t_in, strict=True):
        if t.grad is None:
            assert g.grad is None or not np.any(g.grad.cpu().numpy())
            continue
        np.testing.assert_allclose(g.grad.cpu().numpy(), t.grad.numpy(), rtol=rtol, atol=atol)
