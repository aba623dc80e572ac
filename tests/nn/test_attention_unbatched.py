"""``nn.MultiheadAttention`` on unbatched ``(L, E)`` input equals the batch of one, squeezed."""

import numpy as np
import pytest

import gtensor as gt


@pytest.mark.parametrize(("batch_first", "average"), [(False, True), (True, False)])
def test_unbatched_matches_batch_of_one(device, rng, batch_first, average):
    gt.manual_seed(0)
    mha = gt.nn.MultiheadAttention(4, 2, batch_first=batch_first, device=device,
                                   dtype=gt.float64)
    q = gt.tensor(rng.standard_normal((3, 4)), device=device, requires_grad=True)
    kv = gt.tensor(rng.standard_normal((5, 4)), device=device)
    pad = gt.tensor([False, True, False, False, False], device=device)
    out, w = mha(q, kv, kv, key_padding_mask=pad, average_attn_weights=average)
    assert out.shape == (3, 4)
    assert w.shape == ((3, 5) if average else (2, 3, 5))
    batch_dim = 0 if batch_first else 1
    ref_out, ref_w = mha(q.unsqueeze(batch_dim), kv.unsqueeze(batch_dim), kv.unsqueeze(batch_dim),
                         key_padding_mask=pad.unsqueeze(0), average_attn_weights=average)
    np.testing.assert_allclose(out.detach().cpu().numpy(),
                               ref_out.squeeze(batch_dim).detach().cpu().numpy(), rtol=1e-12)
    np.testing.assert_allclose(w.detach().cpu().numpy(), ref_w.squeeze(0).detach().cpu().numpy(),
                               rtol=1e-12)
    assert np.all(w.detach().cpu().numpy()[..., 1] == 0.0)
    out.sum().backward()
    assert q.grad.shape == (3, 4)


def test_unbatched_with_head_masks_and_errors(device, rng):
    mha = gt.nn.MultiheadAttention(4, 2, device=device, dtype=gt.float64)
    x = gt.tensor(rng.standard_normal((3, 4)), device=device)
    mask = gt.tensor(rng.standard_normal((2, 3, 3)), device=device)
    out, w = mha(x, x, x, attn_mask=mask, average_attn_weights=False)
    ref, ref_w = mha(x.unsqueeze(1), x.unsqueeze(1), x.unsqueeze(1), attn_mask=mask,
                     average_attn_weights=False)
    np.testing.assert_allclose(out.detach().cpu().numpy(), ref[:, 0].detach().cpu().numpy(),
                               rtol=1e-12)
    np.testing.assert_allclose(w.detach().cpu().numpy(), ref_w[0].detach().cpu().numpy(),
                               rtol=1e-12)
    with pytest.raises(gt.ShapeError, match=r"^\[multi_head_attention\] expected query, key"):
        mha(x, x.unsqueeze(0), x.unsqueeze(0))
