"""Packaging glue: ships the top-level ``kernels/`` folder as ``gtensor.kernels``."""

from setuptools import find_packages, setup

kernel_packages = ["gtensor.kernels"] + [
    f"gtensor.kernels.{name}" for name in find_packages("kernels")
]
packages = find_packages(include=["gtensor", "gtensor.*", "bench", "bench.*"]) + kernel_packages
package_dir = {"gtensor.kernels": "kernels"}

setup(packages=packages, package_dir=package_dir)
