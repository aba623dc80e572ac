"""Scalar math and helpers shared by the CPU and CUDA kernels."""
