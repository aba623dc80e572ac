import numpy as np

import gtensor as gt
from gtensor.utils.checkpoint import checkpoint, checkpoint_sequential


def _block(lin, x, scale=1.0):
    return gt.nn.functional.dropout(lin(x).tanh(), 0.5, training=True) * scale


def test_checkpoint_matches_plain_backward_with_dropout_and_params(device):
    use_reentrant = device == "cpu"
    gt.manual_seed(0)
    lin = gt.nn.Linear(3, 4).to(device)
    x = gt.randn(2, 3, device=device, requires_grad=True)
    grads = []
    for ck in (False, True):
        gt.manual_seed(1)
        lin.zero_grad()
        x.grad = None
        out = (checkpoint(_block, lin, x, use_reentrant=use_reentrant, scale=2.0) if ck
               else _block(lin, x, scale=2.0))
        (out * out).sum().backward()
        grads.append([x.grad.tolist(), lin.weight.grad.tolist(), lin.bias.grad.tolist()])
    for a, b in zip(*grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_checkpoint_sequential_and_inputs_without_grad():
    seq = gt.nn.Sequential(gt.nn.Linear(2, 2), gt.nn.Tanh(), gt.nn.Linear(2, 1))
    x = gt.ones(3, 2)
    checkpoint(seq, x).sum().backward()  # no input needs grad: parameters still get theirs
    plain = seq[0].weight.grad.numpy().copy()
    seq.zero_grad()
    y = x.clone().requires_grad_()
    checkpoint_sequential(seq, 2, y, use_reentrant=False).sum().backward()
    np.testing.assert_allclose(seq[0].weight.grad.numpy(), plain, rtol=1e-6)
    assert y.grad.shape == (3, 2)
