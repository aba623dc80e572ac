"""copy.deepcopy and pickle of tensors and modules, as PyTorch's behave."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import gtensor as gt


def test_deepcopy_of_a_model_copies_parameters_grads_and_buffers(device) -> None:
    model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.BatchNorm1d(4)).to(device)
    model(gt.randn(5, 3, device=device)).sum().backward()
    twin = copy.deepcopy(model)
    for (name, p), q in zip(model.named_parameters(), twin.parameters(), strict=True):
        assert type(q) is gt.nn.Parameter and q.requires_grad and q.device == p.device, name
        assert q.data_ptr() != p.data_ptr()
        np.testing.assert_array_equal(q.detach().cpu().numpy(), p.detach().cpu().numpy())
        np.testing.assert_array_equal(q.grad.cpu().numpy(), p.grad.cpu().numpy())
    with gt.no_grad():
        twin[0].weight.fill_(0.0)
    assert model[0].weight.abs().sum().item() > 0
    np.testing.assert_array_equal(twin[1].running_var.cpu().numpy(),
                                  model[1].running_var.cpu().numpy())


def test_views_copied_together_keep_sharing_and_non_leaves_are_refused(device) -> None:
    x = gt.arange(6.0, device=device).reshape(2, 3)
    a, b = copy.deepcopy((x, x[:, 1]))
    a[0, 1] = 100.0
    assert b.tolist() == [100.0, 4.0] and x[0, 1].item() == 1.0
    y = gt.ones(2, device=device, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match=r"^\[deepcopy\] only tensors created explicitly"):
        copy.deepcopy(y)


def test_pickle_keeps_layout_class_flags_attributes_and_sharing(device) -> None:
    t = gt.arange(6.0, device=device).reshape(2, 3).t()
    u, row = pickle.loads(pickle.dumps((t, t[0])))
    assert u.device == t.device and u.stride() == t.stride() and u.tolist() == t.tolist()
    u[0, 0] = -1.0
    assert row.tolist() == [-1.0, 3.0]
    p = gt.nn.Parameter(gt.ones(2, dtype=gt.bfloat16, device=device))
    p.tag = "w"
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is gt.nn.Parameter and q.requires_grad and q.tag == "w"
    assert q.dtype is gt.bfloat16 and q.tolist() == [1.0, 1.0]
