"""Planned CUDA launches through cuda.core: the words they emit are Numba-cuda's own.

The launch itself needs a GPU (``bench/gpu_check.sh`` runs the suite with it on).
Here the packing is checked against Numba-cuda's real ``_Kernel._prepare_args``
in a process without the simulator (Numba-cuda's dispatcher loads without a GPU),
and the choice to keep Numba's launch on a mismatch with stand-ins.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import numpy as np
from gtensor.kernels.cuda import raw_launch
from numba.core import types


class _DeviceArray:
    """A 1-D device array as gtensor's storages hand them to kernels (no memory behind it)."""

    __cuda_memory__ = True  # what Numba-cuda's is_device_memory tests

    def __init__(self, ptr: int, n: int, dtype: str) -> None:
        self.dtype = np.dtype(dtype)
        self.size, self.shape, self.strides = n, (n,), (self.dtype.itemsize,)
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": (n,), "version": 3,
                                         "typestr": self.dtype.str, "strides": None}


def test_array_words_are_worked_out_once_per_array():
    arr = _DeviceArray(0x7000, 6, "float64")
    assert raw_launch.array_words(arr) == (0, 0, 6, 8, 0x7000, 6, 8)
    arr.__cuda_array_interface__ = {"data": (0x9000, False)}
    assert raw_launch.array_words(arr)[4] == 0x7000  # kept on the array
    assert raw_launch.array_words(_DeviceArray(0x7000, 0, "int8"))[4] == 0


def test_types_without_a_direct_form_keep_numbas_launch():
    assert raw_launch.packing_source((types.int64, types.complex128)) is None
    assert raw_launch.packing_source((types.UniTuple(types.float64, 2),)) is None
    assert raw_launch.packing_source((types.int64, types.float64[:, ::1])) is not None


class _Configured:
    griddim, blockdim, sharedmem, stream = (4, 1, 1), (256, 1, 1), 0, "stream"
    pre_launch_callbacks: list = []


class _Compiled:
    """A specialized kernel whose Numba words are given (``numba_words``)."""

    debug = cooperative = False

    def __init__(self, argtypes, numba_words):
        self.argument_types = argtypes
        self._numba_words = numba_words
        library = type("Library", (), {"get_cufunc": lambda _: type("F", (), {"kernel": "k"})})
        self._codelibrary = library()

    def _prepare_args(self, ty, value, stream, retr, kernelargs):
        if not kernelargs:
            kernelargs.extend(self._numba_words)


def _direct(compiled, args, launches):
    return raw_launch.direct_launch(
        compiled, _Configured(), args, launch=lambda *call: launches.append(call),
        launch_config=lambda **options: options, cooperative_keyword="is_cooperative")


def test_the_direct_launch_is_taken_only_when_its_words_are_numbas():
    argtypes = (types.int64, types.float32[::1], types.float32)
    arr = _DeviceArray(0x5000, 4, "float32")
    same = [ctypes.c_int64(4), 0, 0, 4, 4, 0x5000, 4, 4, ctypes.c_float(0.5)]
    launches: list = []
    run = _direct(_Compiled(argtypes, same), (4, arr, 0.5), launches)
    assert run is not None
    run(3, arr, 2.0)
    stream, config, kernel, *words = launches[0]
    assert (stream, kernel, config["grid"], config["block"]) == ("stream", "k", (4, 1, 1),
                                                                 (256, 1, 1))
    assert raw_launch.comparable(words) == [("i8", 3), ("i8", 0), ("i8", 0), ("i8", 4),
                                            ("i8", 4), ("i8", 0x5000), ("i8", 4), ("i8", 4),
                                            ("f4", 2.0)]
    kept_before = sum(n for k, n in raw_launch.OUTCOMES.items() if k != "direct")
    swapped = same[:5] + [0x5004] + same[6:]
    assert _direct(_Compiled(argtypes, swapped), (4, arr, 0.5), launches) is None
    host = np.zeros(4, np.float32)  # Numba copies it in and out at each launch
    assert _direct(_Compiled(argtypes, same), (4, host, 0.5), launches) is None
    assert sum(n for k, n in raw_launch.OUTCOMES.items() if k != "direct") == kept_before + 2


CHECK_AGAINST_NUMBA = """
import ctypes, numpy as np
from numba.core import types
from numba.cuda.dispatcher import _Kernel
from gtensor.kernels.cuda.raw_launch import comparable, packing_source, build, direct_launch
from gtensor.kernels.cuda import raw_launch

class Layout:
    strides_in_bytes = None
    is_contiguous_c, is_contiguous_f = True, True

class View:  # what Numba-cuda reads of a device array's strided memory view
    def __init__(self, ptr, n, dtype):
        self.ptr, self.size, self.shape, self.dtype = ptr, n, (n,), np.dtype(dtype)
        self._layout = Layout()

class DeviceArray:
    __cuda_memory__ = True
    def __init__(self, ptr, n, dtype):
        self.dtype = np.dtype(dtype)
        self.size, self.shape, self.strides = n, (n,), (self.dtype.itemsize,)
        self.__cuda_array_interface__ = {"data": (ptr, False)}
        self._strided_memory_view_shim = View(ptr, n, dtype)

class Kernel:
    extensions = []
    _prepare_args = _Kernel._prepare_args

argtypes = (types.int64, types.float32[::1], types.int64, types.float64[::1], types.int64,
            types.UniTuple(types.int64, 2), types.float32, types.float64, types.uint32,
            types.int32, types.boolean)
args = (5, DeviceArray(0x10000, 8, "float32"), 2, DeviceArray(0x20000, 3, "float64"), 0,
        (3, -1), 0.25, 1.5, 7, -3, True)
expected = []
for ty, value in zip(argtypes, args):
    Kernel()._prepare_args(ty, value, 0, [], expected)
names = build(packing_source(argtypes), direct_launch, {
    "array_words": raw_launch.array_words, "c_float": ctypes.c_float,
    **{f"c_{k}": v for k, v in raw_launch._C_INTEGERS.items()}})
got = comparable(names["words"](*args))
assert got == comparable(expected), (got, comparable(expected))
print("same", len(got))
"""


def test_the_words_match_numba_cudas_own_packing():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    done = subprocess.run([sys.executable, "-c", CHECK_AGAINST_NUMBA], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "same 24"
