"""Raw CUDA memory through CuPy's runtime (``cudaMalloc``/``cudaFree``), not CuPy's pool."""

from __future__ import annotations

from .raw import RawOutOfMemory

_CUDA_ERROR_MEMORY_ALLOCATION = 2


class CudaMemory:
    """Raw device memory of one GPU.

    Args:
        index: the CUDA device ordinal.

    Example:
        >>> mem = CudaMemory(0)  # doctest: +SKIP
        >>> ptr, buffer = mem.alloc(1 << 20)  # doctest: +SKIP
    """

    def __init__(self, index: int) -> None:
        self.index = index

    def alloc(self, nbytes: int) -> tuple[int, None]:
        """``cudaMalloc`` on this device; :class:`RawOutOfMemory` when it is full."""
        import cupy

        with cupy.cuda.Device(self.index):
            try:
                return cupy.cuda.runtime.malloc(nbytes), None
            except OverflowError as exc:  # past size_t: no device holds it
                raise RawOutOfMemory(nbytes) from exc
            except cupy.cuda.runtime.CUDARuntimeError as exc:
                if exc.status == _CUDA_ERROR_MEMORY_ALLOCATION:
                    raise RawOutOfMemory(nbytes) from exc
                raise

    def free(self, ptr: int) -> None:
        """``cudaFree`` on this device."""
        import cupy

        with cupy.cuda.Device(self.index):
            cupy.cuda.runtime.free(ptr)

    def _info(self) -> tuple[int, int]:
        import cupy

        with cupy.cuda.Device(self.index):
            return cupy.cuda.runtime.memGetInfo()

    def capacity(self) -> int:
        """Total device memory."""
        return self._info()[1]

    def free_bytes(self) -> int:
        """Device memory not reserved by anyone."""
        return self._info()[0]
