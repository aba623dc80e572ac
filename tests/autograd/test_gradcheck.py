import pytest

import gtensor as gt
from gtensor.autograd import Function, GradcheckError, gradcheck, gradgradcheck


def test_gradcheck_passes_on_correct_ops(device):
    gt.manual_seed(0)
    x = gt.randn(3, dtype=gt.float64, device=device, requires_grad=True)
    w = gt.randn(3, dtype=gt.float64, device=device, requires_grad=True)
    assert gradcheck(lambda a, b: (a * b).tanh(), (x, w))
    assert gradgradcheck(lambda a, b: (a * b).tanh(), (x, w))


class WrongGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * x

    @staticmethod
    def backward(ctx, g):
        return g  # should be 2 * x * g


def test_gradcheck_reports_the_worst_element():
    x = gt.tensor([1.0, 3.0], dtype=gt.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match=r"^\[gradcheck\] Jacobian mismatch for output 0 "
                       r"with respect to input 0: worst element \(output index 1, input index "
                       r"1\): numerical 6, analytical 1"):
        gradcheck(WrongGrad.apply, (x,))
    assert gradcheck(WrongGrad.apply, (x,), raise_exception=False) is False
    assert gradcheck(WrongGrad.apply, (x,), raise_exception=False, fast_mode=True) is False
    assert gradgradcheck(lambda a: a.tanh(), (x,), fast_mode=True)
