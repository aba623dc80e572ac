"""master_weights=True: half-precision parameters follow a float32 reference run."""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt

CASES = [("Adam", "float16", {"lr": 1e-3, "weight_decay": 0.1}),
         ("AdamW", "bfloat16", {"lr": 1e-2}),
         ("SGD", "float16", {"lr": 1e-3, "momentum": 0.9, "nesterov": True})]
STEPS = 4


@pytest.mark.parametrize("name, low, kwargs", CASES, ids=[c[0] for c in CASES])
def test_half_parameters_follow_a_float32_run(name: str, low: str, kwargs: dict,
                                              device: str) -> None:
    rng = np.random.default_rng(5)
    dt = getattr(gt, low)
    # in [1, 2) float16 steps by 2**-10 and bfloat16 by 2**-7, about the size of an update
    p0 = gt.tensor(1.0 + rng.random(6).astype(np.float32)).to(dt).float().numpy()
    grads = [gt.tensor(rng.standard_normal(6).astype(np.float32)).to(dt).float().numpy()
             for _ in range(STEPS)]
    ref = gt.nn.Parameter(gt.tensor(p0, device=device))
    half = gt.nn.Parameter(gt.tensor(p0, device=device).to(dt))
    plain = gt.nn.Parameter(gt.tensor(p0).to(dt))  # without master weights, on the cpu only
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
    np.testing.assert_array_equal(half.detach().float().cpu().numpy(),
                                  gt.tensor(want).to(dt).float().numpy())
    # updates about one spacing of the half dtype: without master weights it drifts
    assert np.abs(plain.detach().float().numpy() - want).max() > 1e-4

    restored = make([half], master_weights=True, **kwargs)
    restored.load_state_dict(opts[1].state_dict())
    assert restored.state[half]["master_param"].dtype is gt.float32
    for p, opt in ((ref, opts[0]), (half, restored)):
        p.grad = gt.tensor(grads[0], device=device).to(p.dtype)
        opt.step()
    np.testing.assert_allclose(restored.state[half]["master_param"].cpu().numpy(),
                               ref.detach().cpu().numpy(), rtol=1e-6)
