"""The two graphs a compiled call captures: CuPy's CUDA graph, and its emulation on the simulator.

Both take the work that ``run()`` queues on a stream during :meth:`capture`,
without running it, and run that same work again at each :meth:`launch`:

- :class:`CudaGraph` (a real GPU): CuPy's stream capture
  (``Stream.begin_capture``/``end_capture``) into a ``cupy.cuda.Graph``,
  uploaded once, launched on the stream. Numba kernels and cuBLAS calls join
  the capture because they are queued on the capturing stream.
- :class:`EmulatedGraph` (the CUDA simulator): every simulated kernel launch
  made during the capture is recorded as (kernel, launch configuration, bound
  arguments) instead of run, and :meth:`launch` issues exactly those launches
  again. Like a CUDA graph it keeps the buffers it was captured with, so a
  replay sees only what was written into them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..kernels.cuda import _launch


class CudaGraph:
    """One CUDA graph captured on a gtensor stream (a real GPU, through CuPy).

    Example:
        >>> graph = CudaGraph(stream)  # doctest: +SKIP
        >>> graph.capture(step); graph.launch()  # doctest: +SKIP
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.graph: Any = None

    def capture(self, run: Callable[[], None]) -> None:
        """Capture the work ``run()`` queues on the stream (not run now).

        Raises:
            Exception: whatever the capture met (a host synchronization, a call
                the capture does not allow); the stream is out of capture again.
        """
        cupy_stream = self.stream.cupy
        cupy_stream.begin_capture()  # CuPy's default mode: relaxed (allocations may happen)
        try:
            run()
        except BaseException:
            try:
                cupy_stream.end_capture()
            except Exception:  # an invalidated capture ends with an error of its own
                pass
            raise
        self.graph = cupy_stream.end_capture()
        self.graph.upload(cupy_stream)

    def launch(self) -> None:
        """Queue the captured work on the stream."""
        self.graph.launch(self.stream.cupy)


class EmulatedGraph:
    """The simulator's stand-in for a CUDA graph: recorded kernel launches, issued again.

    Example:
        >>> graph = EmulatedGraph(stream)  # doctest: +SKIP
        >>> graph.capture(step); graph.launch()  # doctest: +SKIP
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.launches: list[tuple[Any, Any, tuple[Any, ...]]] = []

    def capture(self, run: Callable[[], None]) -> None:
        """Record the kernel launches ``run()`` makes, without running them."""
        launches: list[Any] = []
        _launch.record_launches(launches)
        try:
            run()
        finally:
            _launch.record_launches(None)
        self.launches = launches

    def launch(self) -> None:
        """Run the recorded launches again, in order, with the arguments they were given."""
        for kernel, configuration, args in self.launches:
            _launch.relaunch(kernel, configuration, args)


def graph_type(simulated: bool) -> type[CudaGraph] | type[EmulatedGraph]:
    """The graph of the device: emulated on the simulator, CuPy's on a GPU.

    Example:
        >>> graph_type(True).__name__
        'EmulatedGraph'
    """
    return EmulatedGraph if simulated else CudaGraph
