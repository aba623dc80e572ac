"""gt.compile fuses float16 and bfloat16 chains: float32 registers, each result rounded as the
eager op rounds it, so compiled and eager results agree to the bit."""

from __future__ import annotations

import gtensor as gt
import gtensor.nn.functional as F


def test_compiled_bfloat16_training_step_equals_eager() -> None:
    gt.manual_seed(0)
    model = gt.nn.Sequential(gt.nn.Linear(6, 8), gt.nn.ReLU(), gt.nn.Linear(8, 3)).bfloat16()
    start = {k: v.clone() for k, v in model.state_dict().items()}
    x = gt.randn(5, 6).bfloat16()
    y = gt.tensor([0, 1, 2, 0, 1])
    opt = gt.optim.SGD(model.parameters(), 0.1)

    def step() -> gt.Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    eager = [step().item() for _ in range(2)]
    model.load_state_dict(start)
    compiled = gt.compile(step, fullgraph=True)
    assert [compiled().item() for _ in range(2)] == eager
    assert model[0].weight.dtype is gt.bfloat16


def test_fused_half_chain_equals_eager(device: str) -> None:
    x = gt.randn(4, 5, device=device).half()
    chain = gt.compile(lambda a: (a * 3 - 1).sigmoid().sum(1), fullgraph=True)
    out = chain(x)
    assert out.dtype is gt.float16
    assert out.float().tolist() == (x * 3 - 1).sigmoid().sum(1).float().tolist()
