"""master_weights=True: half-precision parameters follow a float32 reference run."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt

CASES = [("Adam", {"lr": 1e-3, "weight_decay": 0.1}), ("AdamW", {"lr": 1e-3}),
         ("SGD", {"lr": 1e-3, "momentum": 0.9, "nesterov": True})]
STEPS = 4


@pytest.mark.parametrize("name, kwargs", CASES, ids=[c[0] for c in CASES])
def test_half_parameters_follow_a_float32_run(name: str, kwargs: dict, device: str) -> None:
    rng = np.random.default_rng(5)
    p0 = (1.0 + rng.random(6)).astype(np.float16)  # in [1, 2): float16 steps there are 2**-10
    grads = [rng.standard_normal(6).astype(np.float16) for _ in range(STEPS)]
    ref = gt.nn.Parameter(gt.tensor(p0.astype(np.float32), device=device))
    half = gt.nn.Parameter(gt.tensor(p0, device=device))
    plain = gt.nn.Parameter(gt.tensor(p0))  # without master weights, on the cpu only
    make = getattr(gt.optim, name)
    opts = [make([ref], **kwargs), make([half], master_weights=True, **kwargs),
            make([plain], **kwargs)]
    for g in grads:
        for p, opt in zip((ref, half, plain), opts, strict=True):
            p.grad = gt.tensor(g, device=p.device).to(p.dtype)
            opt.step()
    state = opts[1].state[half]
    want = ref.detach().cpu().numpy()
    assert all(v.dtype is gt.float32 for v in state.values() if isinstance(v, gt.Tensor))
    np.testing.assert_allclose(state["master_param"].cpu().numpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(half.detach().cpu().numpy(), want.astype(np.float16))
    # updates of ~1e-3 against a spacing of ~1e-3: plain float16 drifts from the reference
    assert np.abs(plain.detach().float().numpy() - want).max() > 1e-4

    restored = make([half], master_weights=True, **kwargs)
    restored.load_state_dict(opts[1].state_dict())
    assert restored.state[half]["master_param"].dtype is gt.float32
    for p, opt in ((ref, opts[0]), (half, restored)):
        p.grad = gt.tensor(grads[0], device=device).to(p.dtype)
        opt.step()
    np.testing.assert_allclose(restored.state[half]["master_param"].cpu().numpy(),
                               ref.detach().cpu().numpy(), rtol=1e-6)
