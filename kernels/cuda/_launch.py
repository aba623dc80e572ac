"""Launch geometry, raw-buffer helpers and the simulator's launch lock for the CUDA kernels."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from numba import cuda, types
from numba.np.numpy_support import as_dtype

from ..common import transfers
from ..common.strided import element_strides, host_flat, span
from ..simulator import SIMULATED
from . import raw_launch

THREADS = 32 if SIMULATED else 256
MAX_BLOCKS = 4 if SIMULATED else 65535

SIMULATOR_LAUNCH_LOCK = threading.RLock()
"""Held for each whole simulated launch; unused on a real GPU."""
SWITCH_INTERVAL = 1e-4
"""Seconds between GIL switches during a simulated launch."""

_fake_configure: Any = None  # the simulator's own FakeCUDAKernel.__getitem__ and __call__
_fake_run: Any = None


class _SimulatedLaunch:
    """``kernel[config]`` under the simulator: configures and runs the kernel under one lock.

    Numba's simulator keeps a single global kernel context and stores a
    launch's grid on the shared kernel object, so two threads launching at
    once would run with each other's grid and thread indices. Its block
    threads pass ``syncthreads`` through a thread that polls them, so the
    launch runs with a short GIL switch interval (``SWITCH_INTERVAL``): at the
    default 5 ms every barrier would wait for one switch per thread.
    """

    __slots__ = ("kernel", "configuration")

    def __init__(self, kernel: Any, configuration: Any) -> None:
        self.kernel = kernel
        self.configuration = configuration

    def __call__(self, *args: Any) -> Any:
        recorder = getattr(_recording, "launches", None)
        if recorder is not None:  # an emulated graph capture: kept for later, not run
            if len(self.configuration) < 3 or self.configuration[2] in (0, None):
                name = getattr(getattr(self.kernel, "fn", None), "__name__", "a kernel")
                raise RuntimeError(f"{name} was launched on the default stream during a "
                                   "capture (a GPU would run it outside the graph)")
            recorder.append((self.kernel, self.configuration, args))
            return None
        return relaunch(self.kernel, self.configuration, args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel, name)


_recording = threading.local()


def record_launches(launches: list[Any] | None) -> None:
    """Make this thread's simulated launches append ``(kernel, configuration, args)`` to
    ``launches`` instead of running (None: run them again), as a graph capture does; a
    launch that names no stream raises, as it escapes a real capture.

    Example:
        >>> record_launches([]); record_launches(None)
    """
    _recording.launches = launches


def relaunch(kernel: Any, configuration: Any, args: tuple[Any, ...]) -> Any:
    """Run one simulated launch, as recorded by :func:`record_launches`.

    Example:
        >>> relaunch(k, (1, 32), (x,))  # doctest: +SKIP
    """
    with SIMULATOR_LAUNCH_LOCK:
        _fake_configure(kernel, configuration)
        interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        try:
            return _fake_run(kernel, *args)
        finally:
            sys.setswitchinterval(interval)


def _simulated_getitem(kernel: Any, configuration: Any) -> _SimulatedLaunch:
    return _SimulatedLaunch(kernel, configuration)


_SHARED_LOCK = threading.Lock()
_fake_shared: Any = None  # the simulator's own FakeCUDAShared.array


def _simulated_shared_array(self: Any, shape: Any, dtype: Any, alignment: Any = None) -> Any:
    """``cuda.shared.array`` under the simulator, one array per block and call site.

    The simulator's own looks the call site up and stores a new array without a
    lock, so two threads of a block that both miss would each get their own array.
    """
    if shape == 0 or alignment is not None:
        return _fake_shared(self, shape, dtype, alignment)
    if isinstance(dtype, types.Type):
        dtype = as_dtype(dtype)
    caller = sys._getframe(1)
    site = (caller.f_code.co_filename, caller.f_lineno)
    with _SHARED_LOCK:
        array = self._allocations.get(site)
        if array is None:
            array = self._allocations[site] = np.empty(shape, dtype)
    return array


def _simulated_store(self: Any, idx: Any, val: Any) -> None:
    """A simulated array's element store that converts integers as a GPU store does.

    NumPy refuses to store an integer its dtype cannot hold (a uint64 above
    2**63 into int64); compiled code keeps the low bits, as this does.
    """
    try:
        self._ary[idx] = val
    except OverflowError:
        if not isinstance(val, (int, np.integer)):
            raise
        self._ary[idx] = np.asarray(val).astype(self._ary.dtype)


def _serialize_simulated_launches() -> None:
    """Make every simulated ``kernel[grid](...)`` launch a :class:`_SimulatedLaunch`,
    simulated shared arrays safe to allocate from the threads of a block at once, and
    integer stores into simulated arrays wrap (:func:`_simulated_store`)."""
    global _fake_configure, _fake_run, _fake_shared
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray
    from numba.cuda.simulator.kernel import FakeCUDAKernel
    from numba.cuda.simulator.kernelapi import FakeCUDAShared

    if FakeCUDAKernel.__getitem__ is not _simulated_getitem:
        _fake_configure, _fake_run = FakeCUDAKernel.__getitem__, FakeCUDAKernel.__call__
        FakeCUDAKernel.__getitem__ = _simulated_getitem
    if FakeCUDAShared.array is not _simulated_shared_array:
        _fake_shared = FakeCUDAShared.array
        FakeCUDAShared.array = _simulated_shared_array
    FakeCUDAArray.__setitem__ = _simulated_store


if SIMULATED:
    _serialize_simulated_launches()


_multiprocessors: dict[int, tuple[int, int]] = {}


def multiprocessors() -> tuple[int, int]:
    """The current GPU's multiprocessor count and resident threads per multiprocessor.

    Read once per device; launch plans size their grids from them.

    Example:
        >>> multiprocessors()[0] >= 1  # doctest: +SKIP
        True
    """
    device = cuda.get_current_device()
    found = _multiprocessors.get(device.id)
    if found is None:
        found = _multiprocessors[device.id] = (int(device.MULTIPROCESSOR_COUNT),
                                               int(device.MAX_THREADS_PER_MULTIPROCESSOR))
    return found


PLANS_LIMIT = 1024
"""Plans a kernel's memo keeps before it starts over (a bound, not a working-set size)."""


def remembered(plans: dict[Any, Any], key: Any, make: Any, *args: Any) -> Any:
    """``plans[key]``, made by ``make(*args)`` on a miss; ``plans`` is emptied when it is full.

    Example:
        >>> remembered({}, "k", max, 1, 3)
        3
    """
    run = plans.get(key)
    if run is None:
        if len(plans) >= PLANS_LIMIT:
            plans.clear()
        run = plans[key] = make(*args)
    return run


def grid(n: int) -> tuple[int, int]:
    """Return ``(blocks, threads)`` for a grid-stride loop over ``n`` items.

    The block count is rounded up to a power of two: Numba keeps the 128 most
    recent launch configurations of all kernels together (an LRU cache keyed by
    kernel and grid), so a grid per size would evict the configurations of the
    planned launches; this way a kernel sees at most 17 grids. The kernels
    check their bounds, so the extra threads do nothing.

    Example:
        >>> grid(1000)[1] in (32, 256)
        True
    """
    blocks = (n + THREADS - 1) // THREADS
    return max(1, min(MAX_BLOCKS, 1 << max(0, blocks - 1).bit_length())), THREADS


def on(kernel: Any, n: int, stream: Any = None) -> Any:
    """Return ``kernel`` configured for a grid-stride loop over ``n`` items on ``stream``.

    Example:
        >>> from gtensor.kernels.cuda.fill import gtensor_arange
        >>> x = np.empty(4); on(gtensor_arange, x.size)(x, 1.0, 0.5); x.tolist()
        [1.0, 1.5, 2.0, 2.5]
    """
    blocks, threads = grid(n)
    return kernel[blocks, threads] if stream is None else kernel[blocks, threads, stream]


class PlannedLaunch:
    """A kernel launch fixed by a plan: grid, block and stream chosen once.

    The first call specializes the kernel for its argument types (every call
    of one plan passes the same types: flat buffers of the plan's dtypes,
    integers, stride tuples of the plan's rank), so later calls skip Numba's
    per-call type dispatch (``typeof`` of every argument and the overload
    lookup), which costs several microseconds per launch; the configured
    launch object is made once, so Numba's cache of launch configurations
    is not churned. On a GPU, later calls also skip Numba's per-argument
    work: they go straight to ``cuda.core`` (:mod:`.raw_launch`).

    Example:
        >>> from gtensor.kernels.cuda.fill import gtensor_arange
        >>> x = np.empty(3); run = PlannedLaunch(gtensor_arange, x.size)
        >>> run(x, 0.0, 1.0); run(x, 3.0, 1.0); x.tolist()
        [3.0, 4.0, 5.0]
    """

    __slots__ = ("kernel", "blocks", "threads", "stream", "launch")

    def __init__(self, kernel: Any, n: int, stream: Any = None,
                 blocks: int | None = None, threads: int | None = None) -> None:
        self.kernel = kernel
        default_blocks, default_threads = grid(n)
        self.blocks = default_blocks if blocks is None else blocks
        self.threads = default_threads if threads is None else threads
        self.stream = stream
        self.launch: Any = None

    def on(self, stream: Any) -> PlannedLaunch:
        """This launch with the same kernel and grid on ``stream`` (a Numba stream).

        Example:
            >>> from gtensor.kernels.cuda.fill import gtensor_arange
            >>> s = cuda.stream(); PlannedLaunch(gtensor_arange, 1000).on(s).stream is s
            True
        """
        return PlannedLaunch(self.kernel, 1, stream, self.blocks, self.threads)

    def __call__(self, *args: Any) -> None:
        launch = self.launch
        if launch is not None:
            launch(*args)
            return
        kernel = self.kernel.specialize(*args)
        config = (self.blocks, self.threads) if self.stream is None else (
            self.blocks, self.threads, self.stream)
        configured = kernel[config]
        configured(*args)  # the first launch through Numba, which also compiles
        self.launch = configured
        if direct is not None:
            try:
                found = direct(next(iter(kernel.overloads.values())), configured, args)
            except Exception as error:  # Numba's launch stays, and stays correct
                raw_launch.OUTCOMES[f"{type(error).__name__}: {error}"] += 1
                found = None
            self.launch = found or configured


def _direct_launcher() -> Callable[..., Any] | None:
    """:func:`~.raw_launch.direct_launch` bound to this ``cuda.core``, or None (the simulator,
    ``GTENSOR_CUDA_LAUNCH=numba``, or a Numba-cuda without ``cuda.core`` launches)."""
    if SIMULATED or not raw_launch.ENABLED:
        return None
    try:
        from cuda.core import LaunchConfig
        from cuda.core import launch as core_launch
        from numba.cuda._compat import CUDA_CORE_GE_1_0
    except ImportError:  # an older numba-cuda: it launches through its own driver bindings
        return None
    keyword = "is_cooperative" if CUDA_CORE_GE_1_0 else "cooperative_launch"
    return partial(raw_launch.direct_launch, launch=core_launch, launch_config=LaunchConfig,
                   cooperative_keyword=keyword)


direct = _direct_launcher()


def address(arr: Any) -> int:
    """Where an array's first element is: a device array's pointer, or the host address of a
    NumPy array (the simulator's stand-in, and the replay tool's).

    Example:
        >>> a = np.zeros(4); address(a) == a.ctypes.data
        True
    """
    face = getattr(arr, "__cuda_array_interface__", None) or arr.__array_interface__
    return int(face["data"][0])


def flat_operand(arr: Any) -> tuple[Any, int, tuple[int, ...]]:
    """Split a strided array into a 1-D buffer over its extent, an offset and element strides.

    Works for NumPy arrays (the simulator) and CUDA device arrays, without copying.

    Example:
        >>> buf, off, strides = flat_operand(np.arange(6.0).reshape(2, 3)[:, ::-1])
        >>> off, strides
        (2, (3, -1))
    """
    strides = element_strides(arr)
    if isinstance(arr, np.ndarray):
        flat, off = host_flat(arr)
        return flat, off, strides
    lo, hi = span(arr.shape, strides)
    extent = 0 if arr.size == 0 else hi - lo + 1
    ptr = address(arr) + lo * arr.dtype.itemsize
    flat = cuda.from_cuda_array_interface(
        {"shape": (extent,), "strides": None, "typestr": arr.dtype.str,
         "data": (ptr, False), "version": 3, "stream": None}, owner=arr, sync=False)
    return flat, -lo, strides


def stream_pointer(stream: Any) -> int:
    """Return the raw ``cudaStream_t`` of a Numba stream (0 for None or the default stream).

    Numba-cuda before 0.20 keeps the handle as a ``ctypes.c_void_p`` (``.value``);
    later releases keep a ``cuda.bindings`` ``CUstream`` (``int(handle)``).

    Example:
        >>> stream_pointer(None)
        0
    """
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    handle = getattr(stream, "handle", stream)
    try:
        return int(handle)
    except TypeError:
        return int(getattr(handle, "value", None) or 0)


def to_host(arr: Any, stream: Any = None) -> np.ndarray:
    """Copy a device array to a new host array (waits for ``stream``), counting the copy.

    Example:
        >>> to_host(np.arange(3)).tolist()
        [0, 1, 2]
    """
    if isinstance(arr, np.ndarray):
        return arr.copy()
    transfers.count("device_to_host")
    return arr.copy_to_host(stream=0 if stream is None else stream)


def to_device(arr: np.ndarray, stream: Any = None) -> Any:
    """Copy a host array to a new device array on ``stream``, counting the copy.

    Example:
        >>> to_device(np.arange(3)).shape
        (3,)
    """
    transfers.count("host_to_device")
    return cuda.to_device(arr, stream=0 if stream is None else stream)
