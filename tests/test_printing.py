import pytest

import gtensor as gt


def test_repr_forms():
    assert repr(gt.tensor([[1.0, 2.0]])) == "tensor([[1., 2.]])"
    assert repr(gt.tensor([1.5, -2.25])) == "tensor([ 1.5000, -2.2500])"
    assert repr(gt.tensor([1, 20])) == "tensor([ 1, 20])"
    assert repr(gt.tensor([True, False])) == "tensor([ True, False])"
    assert repr(gt.tensor(3.0)) == "tensor(3.)"
    assert repr(gt.tensor([1e-5, 1.0])) == "tensor([1.0000e-05, 1.0000e+00])"
    assert repr(gt.zeros(2, dtype=gt.float64)) == "tensor([0., 0.], dtype=gtensor.float64)"
    assert repr(gt.zeros(2, dtype=gt.int32)) == "tensor([0, 0], dtype=gtensor.int32)"
    assert repr(gt.zeros(0, 3)) == "tensor([], size=(0, 3))"
    assert repr(gt.tensor([[1.0, 2.0]], device="cuda", requires_grad=True)) == (
        "tensor([[1., 2.]], device='cuda:0', requires_grad=True)")
    assert repr(gt.tensor([float("nan"), float("inf"), 1.0])) == "tensor([nan, inf, 1.])"


def test_repr_multiline_and_summary():
    text = repr(gt.arange(6).view(2, 3))
    assert text == "tensor([[0, 1, 2],\n        [3, 4, 5]])"
    big = repr(gt.arange(2000))
    assert big == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"
    cube = repr(gt.arange(2000).view(20, 100))
    assert cube.count("\n") == 6 and "..." in cube


def test_long_rows_wrap():
    text = repr(gt.linspace(0.5, 39.5, 40))
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.count("\n") >= 3


def test_printoptions_profiles_match_torch():
    torch = pytest.importorskip("torch")
    values = [1.23456, 2.0]
    try:
        for profile in ("short", "full", "default"):
            gt.set_printoptions(profile=profile)
            torch.set_printoptions(profile=profile)
            assert repr(gt.tensor(values)) == repr(torch.tensor(values))
            assert repr(gt.arange(2000)) == repr(torch.arange(2000))
        gt.set_printoptions(precision=2)
        assert repr(gt.tensor(values)) == "tensor([1.23, 2.00])"
    finally:
        gt.set_printoptions(profile="default")
        torch.set_printoptions(profile="default")
    with pytest.raises(ValueError, match=r"^\[set_printoptions\] unknown profile"):
        gt.set_printoptions(profile="long")
