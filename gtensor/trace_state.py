"""The one flag every op tests: the ``gt.compile`` trace being recorded, or None.

It sits below the tensor core so that :class:`~gtensor.tensor_base.TensorBase`
can hand allocations and ``.grad`` reads and writes to the trace; the trace
itself (:class:`gtensor.ops.tracing.Trace`) lives with the ops.

Example:
    >>> state.trace is None  # no gt.compile trace is being recorded
    True
"""

from __future__ import annotations

from typing import Any


class _State:
    __slots__ = ("trace",)

    def __init__(self) -> None:
        self.trace: Any = None


state = _State()
"""``state.trace``: the trace being recorded, or None (the ops' one test)."""
