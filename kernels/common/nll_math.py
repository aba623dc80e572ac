"""Per-row negative log-likelihood math, written once and compiled for the CPU and CUDA.

A row ``i`` with class-index target ``t`` (not ignored), class weights ``w``
(all 1 without weights) and label smoothing ``e`` over ``C`` classes has the
loss ``-(1 - e) * w[t] * lp[i, t] - (e / C) * sum_k w[k] * lp[i, k]``, so its
gradient with respect to ``lp[i, k]`` is
``-g * ((1 - e) * w[t] * [k == t] + (e / C) * w[k])`` for an incoming
(already scaled) gradient ``g``. Ignored rows have loss and gradient 0.
"""

from __future__ import annotations

NONE, SUM, MEAN = 0, 1, 2
"""The reductions as the kernels take them."""


def row_loss(picked, wt, smooth_sum, eps, classes):  # noqa: ANN001, ANN201
    """Loss of one kept row from its target's log-probability ``picked``, the target's weight
    ``wt`` and ``smooth_sum = sum_k w[k] * lp[i, k]`` (read only when ``eps`` is not 0)."""
    if eps == 0.0:
        return -wt * picked
    return -(1.0 - eps) * wt * picked - eps / classes * smooth_sum


def grad_value(k, target, wt, wk, g, eps, classes):  # noqa: ANN001, ANN201
    """Gradient of a kept row's loss at class ``k`` times ``g``; ``wk`` is class ``k``'s
    weight."""
    v = eps / classes * wk if eps != 0.0 else 0.0
    if k == target:
        v += (1.0 - eps) * wt
    return 0.0 - g * v  # 0.0, not -0.0, off the target without smoothing
