"""DistributedDataParallel against single-process training (run by ``job.py``).

Every rank also trains the single-process reference on the whole global
batch (the same seed), so each checks its own replica. Prints ``ok <name>``
per check; a mismatch raises (and aborts the job).
"""

from __future__ import annotations

import numpy as np
from collectives_check import say

import gtensor as gt
import gtensor.distributed as dist
import gtensor.nn.functional as F
from gtensor import nn
from gtensor.nn.parallel import DistributedDataParallel as DDP

BATCH = 4  # per rank


class Affine(nn.Module):
    """``x @ weight.T + bias`` with weights from a seeded NumPy generator (no random kernels)."""

    def __init__(self, n_in: int, n_out: int, seed: int) -> None:
        super().__init__()
        rng = np.random.default_rng(seed)
        self.weight = nn.Parameter(gt.tensor(rng.standard_normal((n_out, n_in)).astype("f4")))
        self.bias = nn.Parameter(gt.tensor(rng.standard_normal(n_out).astype("f4")))

    def forward(self, x: gt.Tensor) -> gt.Tensor:
        return x @ self.weight.t() + self.bias


def mlp() -> nn.Module:
    """The same small MLP on every rank, then perturbed per rank so the broadcast shows."""
    model = nn.Sequential(Affine(5, 8, 0), nn.Tanh(), Affine(8, 3, 1))
    with gt.no_grad():
        for p in model.parameters():
            p.add_(float(dist.get_rank()))
    return model


def close(a: gt.Tensor, b: gt.Tensor, what: str) -> None:
    """Assert two tensors agree to float32 rounding."""
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6,
                               err_msg=what)


def run() -> None:
    """Train a few steps with DDP and alone; compare; then no_sync and unused parameters."""
    rank, world = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(7)
    xs = gt.tensor(rng.standard_normal((3, world * BATCH, 5)).astype(np.float32))
    ys = gt.tensor(rng.integers(0, 3, (3, world * BATCH)))
    mine = slice(rank * BATCH, (rank + 1) * BATCH)

    ref = mlp()
    if rank != 0:
        with gt.no_grad():
            for p in ref.parameters():
                p.sub_(float(rank))
    ddp = DDP(mlp(), bucket_cap_mb=200 / 2**20)  # about 200 bytes: several buckets
    assert len(ddp.reducer.buckets) > 1
    for p, q in zip(ddp.module.parameters(), ref.parameters(), strict=True):
        close(p, q, "broadcast at construction")
    assert list(ddp.state_dict())[0].startswith("module."), list(ddp.state_dict())
    opt = gt.optim.SGD(ddp.parameters(), lr=0.5)
    ref_opt = gt.optim.SGD(ref.parameters(), lr=0.5)
    for step in range(3):
        F.cross_entropy(ddp(xs[step, mine]), ys[step, mine]).backward()
        F.cross_entropy(ref(xs[step]), ys[step]).backward()
        for p, q in zip(ddp.module.parameters(), ref.parameters(), strict=True):
            close(p.grad, q.grad, f"gradient at step {step}")
        opt.step()
        ref_opt.step()
        opt.zero_grad()
        ref_opt.zero_grad()
    for p, q in zip(ddp.module.parameters(), ref.parameters(), strict=True):
        close(p, q, "parameters after 3 steps")
    say("ok ddp equals single-process")

    with ddp.no_sync():
        F.cross_entropy(ddp(xs[0, mine]), ys[0, mine]).backward()
    local = [p.grad.clone() for p in ddp.module.parameters()]
    F.cross_entropy(ddp(xs[1, mine]), ys[1, mine]).backward()
    (F.cross_entropy(ref(xs[0]), ys[0]) + F.cross_entropy(ref(xs[1]), ys[1])).backward()
    for p, q in zip(ddp.module.parameters(), ref.parameters(), strict=True):
        close(p.grad, q.grad, "no_sync accumulation")
    assert any(not np.allclose(a.numpy(), p.grad.numpy())
               for a, p in zip(local, ddp.module.parameters(), strict=True))
    say("ok no_sync")

    heads = nn.ModuleDict({"a": Affine(5, 2, 2), "b": Affine(5, 2, 3), "never": Affine(5, 2, 4)})

    class TwoHeads(nn.Module):
        """Head ``b`` is used on rank 0 only; ``never`` on no rank."""

        def __init__(self) -> None:
            super().__init__()
            self.heads = heads

        def forward(self, x: gt.Tensor) -> gt.Tensor:
            out = self.heads["a"](x).sum()
            return out + self.heads["b"](x).sum() if rank == 0 else out

    model = DDP(TwoHeads(), find_unused_parameters=True, gradient_as_bucket_view=True)
    x = xs[0, mine]
    model(x).backward()
    want_b = xs[0, :BATCH].sum(0) / world  # rank 0's gradient, averaged with zeros
    close(heads["b"].weight.grad, gt.stack([want_b, want_b]), "unused on some ranks")
    assert heads["never"].weight.grad is None
    want_a = xs[0].sum(0) / world
    close(heads["a"].weight.grad, gt.stack([want_a, want_a]), "used everywhere")
    say("ok find_unused_parameters")

    strict = DDP(TwoHeads())
    strict(x).backward()
    try:
        strict(x)
    except RuntimeError as exc:
        assert "find_unused_parameters=True" in str(exc), exc
        say("ok unused parameters without find_unused_parameters raise")
    else:
        raise AssertionError("a reduction left unfinished was not reported")
