"""The CPU's float32 LSTM step by row blocks against the per-unit cell of ``rnn_math``."""

from __future__ import annotations

import numpy as np

try:
    from gtensor.kernels.cpu import recurrent
except ImportError:
    from kernels.cpu import recurrent


def _buffers(rng: np.random.Generator, rows: int, hidden: int) -> dict[str, np.ndarray]:
    def draw(n: int, scale: float = 3.0) -> np.ndarray:
        return (rng.standard_normal(n) * scale).astype(np.float32)

    gates, units = rows * 4 * hidden, rows * hidden
    return {"gi": draw(gates), "hh": draw(gates), "b": draw(4 * hidden), "hprev": draw(units),
            "cprev": draw(units), "dy": draw(units), "dcarry": draw(units), "dc": draw(units)}


def test_lstm_rows_match_the_per_unit_cell() -> None:
    rng = np.random.default_rng(7)
    rows, hidden = 3, 37
    size = rows * hidden
    v = _buffers(rng, rows, hidden)
    v["gi"][:4] = (np.inf, -np.inf, 90.0, -90.0)  # saturated gates stay finite and exact
    results = []
    for forward, backward in ((recurrent._forward_loops[0], recurrent._backward_loops[0]),
                              (recurrent.gtensor_rnn_cell_forward_cpu,
                               recurrent.gtensor_rnn_cell_backward_cpu)):
        h, c = np.empty(size, np.float32), np.empty(size, np.float32)
        acts = np.empty(4 * size, np.float32)
        forward(size, hidden, 0, v["gi"], v["hh"], v["b"], v["hprev"], v["cprev"], h, c, acts)
        dgi, dc, dummy = np.empty(4 * size, np.float32), v["dc"].copy(), np.empty(1, np.float32)
        backward(size, hidden, 0, v["dy"], v["dcarry"], acts, c, v["cprev"], v["hprev"], h,
                 dgi, dummy, dc, dummy)
        results.append((h, c, acts, dgi, dc))
    for name, want, got in zip(("h", "c", "acts", "dgi", "dc"), *results, strict=True):
        assert np.isfinite(got).all(), name
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6, err_msg=name)
