"""Benchmark cases: every module here is imported and its ``@case`` functions register."""
