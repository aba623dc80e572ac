"""nn modules' forward and backward under gt.compile: the eager values and gradients.

One module per kind of machinery (library calls, reductions, views written in
place in a backward); the elementwise activations are covered by
``test_compile.py``.
"""

import warnings

import numpy as np
import pytest

import gtensor as gt
from gtensor import nn


def _image(n=2, c=2, hw=4):
    return gt.randn(n, c, hw, hw)


# (module factory, input factory, traced without falling back to eager)
_MODULES = {
    "linear": (lambda: nn.Linear(3, 4), lambda: gt.randn(2, 3), True),
    "conv2d": (lambda: nn.Conv2d(2, 3, 3, stride=2, padding=1), _image, True),
    "conv_transpose2d": (lambda: nn.ConvTranspose2d(2, 3, 3, stride=2), _image, True),
    "max_pool2d": (lambda: nn.MaxPool2d(2), _image, True),
    "batch_norm2d": (lambda: nn.BatchNorm2d(2), _image, True),
    "layer_norm": (lambda: nn.LayerNorm(3), lambda: gt.randn(2, 3), True),
    "flatten": (lambda: nn.Sequential(nn.Flatten(), nn.Identity()), _image, True),
    "attention": (lambda: nn.MultiheadAttention(4, 2, batch_first=True),
                  lambda: (gt.randn(2, 3, 4),) * 3, True),
    "embedding": (lambda: nn.Embedding(5, 3, padding_idx=2), lambda: gt.tensor([[0, 4], [2, 2]]),
                  True),
    "upsample": (lambda: nn.Upsample(scale_factor=2), _image, True),
}


def _loss(out):
    out = out[0] if isinstance(out, tuple) else out
    return (out * out).sum()


@pytest.mark.parametrize("name", list(_MODULES))
def test_module_forward_and_backward_equal_eager(name):
    make, data, traced = _MODULES[name]
    gt.manual_seed(0)
    modules = [make(), make()]
    modules[1].load_state_dict(modules[0].state_dict())
    data = data()
    data = data if isinstance(data, tuple) else (data,)
    inputs = [[x.clone().requires_grad_(x.dtype.is_floating_point) for x in data]
              for _ in modules]  # gradients reach the inputs too (parameter-free modules)

    def step(module):
        def run(*xs):
            module.zero_grad()
            for x in xs:
                x.grad = None
            loss = _loss(module(*xs))
            loss.backward()
            return loss
        return run

    eager, compiled = step(modules[0]), gt.compile(step(modules[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("error" if traced else "ignore")
        for _ in range(2):
            got, want = compiled(*inputs[1]), eager(*inputs[0])
            np.testing.assert_allclose(got.item(), want.item(), rtol=1e-5)
    for a, b in zip(*inputs, strict=True):
        if a.requires_grad:
            np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=1e-4, atol=1e-6)
    for (key, a), b in zip(modules[0].state_dict().items(), modules[1].state_dict().values(),
                           strict=True):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6, err_msg=key)
    for (key, a), b in zip(modules[0].named_parameters(), modules[1].parameters(),
                           strict=True):
        np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=key)
    program = next(iter(compiled._programs.values()))
    assert hasattr(program, "kernels") == traced


def test_a_compiled_model_follows_train_and_eval(device):
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).to(device)
    x = gt.randn(8, 3, device=device)
    f = gt.compile(lambda x: model(x))
    f(x)
    model.eval()
    with gt.no_grad():  # eval: the running statistics, not the batch's
        np.testing.assert_allclose(f(x).cpu().numpy(), model(x).cpu().numpy(), rtol=1e-6)
        model.train()
        np.testing.assert_allclose(f(x).cpu().numpy(), model(x).cpu().numpy(), rtol=1e-5,
                                   atol=1e-6)
