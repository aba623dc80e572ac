"""gt.compile fuses float16 and bfloat16 chains: float32 registers, each result rounded as the
eager op rounds it, so compiled and eager results agree to the bit."""

from __future__ import annotations

import pytest

import gtensor as gt


# one half type on the cpu, where each costs seconds of Numba compilation; both simulated
@pytest.mark.parametrize(("device", "half"), [("cpu", "bfloat16"), ("cuda", "float16"),
                                              ("cuda", "bfloat16")])
def test_fused_half_chain_equals_eager(device: str, half: str) -> None:
    x = gt.randn(4, 5, device=device).to(getattr(gt, half))

    def chain(a: gt.Tensor) -> tuple[gt.Tensor, gt.Tensor]:
        return (a * 3 - 1).sigmoid().sum(1), (a * a).relu() + 0.5

    compiled = gt.compile(chain, fullgraph=True)
    for got, want in zip(compiled(x), chain(x), strict=True):
        assert got.dtype is x.dtype
        assert got.float().tolist() == want.float().tolist()
