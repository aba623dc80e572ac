"""A whole training step on CUDA stays on the device."""

import gtensor as gt
import gtensor.nn.functional as F


def test_mlp_training_step_on_cuda_makes_no_host_transfers():
    gt.manual_seed(0)
    model = gt.nn.Sequential(gt.nn.Linear(6, 8), gt.nn.ReLU(), gt.nn.Linear(8, 3)).to("cuda")
    opt = gt.optim.Adam(model.parameters(), lr=1e-2)
    x = gt.randn(4, 6, device="cuda")
    y = gt.randint(0, 3, (4,), device="cuda")
    losses = []
    for _ in range(3):
        before = gt.transfer_count()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        assert gt.transfer_count() == before  # forward, backward and update: no host copy
        losses.append(loss.item())
    assert losses[-1] < losses[0]
