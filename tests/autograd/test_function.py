import pytest

import gtensor as gt
from gtensor.autograd import Function, once_differentiable


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x * x


class ScaleInPlace(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.mark_dirty(x)
        ctx.k = k
        return x.mul_(k)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        assert not gt.is_grad_enabled()
        return g * ctx.k, None


def test_custom_function_forward_backward_and_needs_input_grad(device):
    x = gt.tensor([1.0, 2.0], dtype=gt.float64, device=device, requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.name == "Cube"
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]


def test_custom_function_is_twice_differentiable():
    x = gt.tensor([2.0], dtype=gt.float64, requires_grad=True)
    (g,) = gt.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (gg,) = gt.autograd.grad(g.sum(), x)
    assert g.tolist() == [12.0] and gg.tolist() == [12.0]


def test_mark_dirty_and_once_differentiable():
    x = gt.tensor([1.0, 2.0], dtype=gt.float64, requires_grad=True)
    h = x * 1.0
    out = ScaleInPlace.apply(h, 3.0)
    assert out is h
    out.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match=r"a leaf Variable that requires grad"):
        ScaleInPlace.apply(x, 2.0)


def test_ctx_needs_input_grad():
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, a, b):
            seen.append(ctx.needs_input_grad)
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g, g

    a = gt.ones(2, requires_grad=True)
    Probe.apply(a, gt.ones(2))
    assert seen == [(True, False)]


def test_set_materialize_grads_false_passes_none():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append(g2)
            return g1 * 2

    x = gt.tensor([1.0, 2.0], requires_grad=True)
    Two.apply(x)[0].sum().backward()
    assert seen == [None] and x.grad.tolist() == [2.0, 2.0]


def test_forward_without_ctx_and_setup_context():
    class Square(Function):
        @staticmethod
        def forward(x, k):
            return x * x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x * ctx.k, None

    x = gt.tensor([1.0, 2.0], requires_grad=True)
    Square.apply(x, 3.0).sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]
