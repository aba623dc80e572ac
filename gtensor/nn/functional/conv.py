"""Convolution, pooling and resampling in functional form (the ops of :mod:`gtensor.ops`)."""

from __future__ import annotations

from ...ops.conv import conv1d, conv2d, conv_transpose2d
from ...ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from ...ops.resample import interpolate

__all__ = ["adaptive_avg_pool2d", "avg_pool2d", "conv1d", "conv2d", "conv_transpose2d",
           "interpolate", "max_pool2d"]
