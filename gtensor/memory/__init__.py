"""Tensor memory (placeholder raw allocation until the caching allocator lands)."""
