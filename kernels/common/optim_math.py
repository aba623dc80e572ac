"""Per-element optimizer updates, written once and compiled for the CPU and CUDA.

``adam_element`` updates one element of a parameter and its two moment
buffers in place (the running maximum too, with AMSGrad), so an Adam or AdamW
step reads and writes each element once instead of running eight kernels.
"""

from __future__ import annotations

import math


def adam_element(i, p, g, m, v, vmax, lr, beta1, beta2, eps, wd, bias1, bias2_sqrt,  # noqa: ANN001, ANN201, E501
                 decoupled, amsgrad, sign):
    gi = g[i] * sign
    pi = p[i]
    if wd != 0.0:
        if decoupled:
            pi = pi * (1.0 - lr * wd)
        else:
            gi = gi + wd * pi
    mi = beta1 * m[i] + (1.0 - beta1) * gi
    vi = beta2 * v[i] + (1.0 - beta2) * gi * gi
    m[i] = mi
    v[i] = vi
    if amsgrad:
        if vi > vmax[i]:
            vmax[i] = vi
        vi = vmax[i]
    p[i] = pi - (lr / bias1) * mi / (math.sqrt(vi) / bias2_sqrt + eps)
