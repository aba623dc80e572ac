"""Adapters that give the four libraries one small surface for writing cases.

Each :class:`Library` wraps a module namespace (``lib.ns``: gtensor, numpy,
torch or cupy) on one device, with the few helpers whose names differ between
libraries: moving host data in, synchronizing, making a transposed copy
contiguous. A reference that cannot be imported, or has no such device, is
reported by :func:`probe` with the reason and is never replaced by anything.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from typing import Any

import numpy as np

LIBRARIES = ("gtensor", "numpy", "torch", "cupy")
REFERENCES = LIBRARIES[1:]


@dataclass
class Availability:
    """Whether a library can run on a device, and why not when it cannot.

    Example:
        >>> probe("numpy", "cpu").available
        True
    """

    name: str
    available: bool
    version: str | None = None
    reason: str | None = None
    where: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the fields as a JSON-ready dict."""
        return {"available": self.available, "version": self.version, "reason": self.reason,
                "where": self.where}


def _distribution_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def probe(name: str, device: str) -> Availability:
    """Check whether library ``name`` can run cases on ``device`` (``cpu`` or ``cuda``).

    Args:
        name: one of :data:`LIBRARIES`.
        device: ``cpu`` or ``cuda``.

    Returns:
        The availability; NumPy on ``cuda`` runs on the host and says so in ``where``.
    """
    if name != "gtensor" and importlib.util.find_spec(name) is None:
        return Availability(name, False, reason="not installed")
    try:
        mod = importlib.import_module(name)
    except Exception as exc:  # a broken install is reported, not raised
        return Availability(name, False, reason=f"import failed: {exc}")
    version = str(getattr(mod, "__version__", None) or _distribution_version(name))
    if name == "numpy":
        return Availability(name, True, version, where="host")
    if device == "cpu":
        if name == "cupy":
            return Availability(name, False, version, reason="GPU-only library")
        return Availability(name, True, version, where="cpu")
    if name == "gtensor":
        ok = mod.cuda.is_available() and not mod.cuda.is_simulated()
        return Availability(name, ok, version, None if ok else "no real CUDA device", "cuda")
    if name == "torch":
        ok = bool(mod.cuda.is_available())
        return Availability(name, ok, version, None if ok else "built without CUDA or no GPU",
                            "cuda")
    try:
        ok = mod.cuda.runtime.getDeviceCount() > 0
    except Exception as exc:
        return Availability(name, False, version, reason=f"no CUDA device: {exc}")
    return Availability(name, ok, version, None if ok else "no CUDA device", "cuda")


class Library:
    """One library on one device, as seen by a case.

    Args:
        name: ``gtensor``, ``numpy``, ``torch`` or ``cupy``.
        device: ``cpu`` or ``cuda`` (NumPy always runs on the host).

    Example:
        >>> lib = Library("numpy", "cpu")
        >>> float(lib.ns.add(lib.asarray(np.ones(3)), 1).sum())
        6.0
    """

    def __init__(self, name: str, device: str) -> None:
        if name not in LIBRARIES:
            raise ValueError(f"[bench] unknown library {name!r}; expected one of {LIBRARIES}")
        self.name = name
        self.device = device
        self.ns: Any = importlib.import_module(name)
        self.on_gpu = device == "cuda" and name != "numpy"
        if name == "torch":  # the float32 math gtensor does by default: no TF32 in cuDNN either
            self.ns.backends.cudnn.allow_tf32 = False
            self.ns.backends.cuda.matmul.allow_tf32 = False

    def __repr__(self) -> str:
        return f"Library({self.name!r}, {self.device!r})"

    def asarray(self, host: np.ndarray) -> Any:
        """Copy a NumPy array into memory this library allocated on its device."""
        if self.name == "numpy":
            return host.copy()
        if self.name == "cupy":
            return self.ns.array(host)
        if self.name == "torch":
            return self.ns.from_numpy(host).to(self.device).clone()
        return self.ns.tensor(host, device=self.device)

    def randn(self, *shape: int, dtype: str = "float32", seed: int = 0) -> Any:
        """Return standard-normal data of ``shape``, identical across libraries for a seed."""
        host = np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)
        return self.asarray(host.astype(dtype, copy=False))

    def empty(self, n: int, dtype: str = "float32") -> Any:
        """Allocate ``n`` uninitialized elements."""
        if self.name == "numpy":
            return np.empty(n, dtype)
        if self.name == "cupy":
            return self.ns.empty(n, dtype)
        dt = getattr(self.ns, dtype)
        return self.ns.empty(n, dtype=dt, device=self.device)

    def contiguous(self, x: Any) -> Any:
        """Return a C-contiguous copy of ``x`` (a view such as a transpose)."""
        if self.name in ("numpy", "cupy"):
            return self.ns.ascontiguousarray(x)
        return x.contiguous()

    def sum(self, x: Any, axis: int) -> Any:
        """Sum ``x`` along ``axis`` (``dim`` in gtensor and PyTorch)."""
        if self.name in ("numpy", "cupy"):
            return x.sum(axis=axis)
        return x.sum(dim=axis)

    def softmax(self, x: Any, axis: int) -> Any:
        """Softmax along ``axis``: the library's own where it has one, else the max-shifted
        composition (NumPy, CuPy)."""
        if self.name in ("gtensor", "torch"):
            return self.ns.softmax(x, dim=axis)
        e = self.ns.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def gather(self, x: Any, dim: int, index: Any) -> Any:
        """PyTorch's ``x.gather(dim, index)`` (``take_along_axis`` in NumPy and CuPy)."""
        if self.name in ("numpy", "cupy"):
            return self.ns.take_along_axis(x, index, axis=dim)
        return x.gather(dim, index)

    def scatter_add_(self, out: Any, dim: int, index: Any, src: Any) -> Any:
        """PyTorch's ``out.scatter_add_(dim, index, src)`` (``np.add.at``,
        ``cupyx.scatter_add``)."""
        if self.name in ("gtensor", "torch"):
            return out.scatter_add_(dim, index, src)
        grids: list[Any] = [
            self.ns.arange(n).reshape([-1 if j == i else 1 for j in range(index.ndim)])
            for i, n in enumerate(index.shape)]
        grids[dim] = index
        if self.name == "numpy":
            np.add.at(out, tuple(grids), src)
        else:
            import cupyx

            cupyx.scatter_add(out, tuple(grids), src)
        return out

    def relu(self, x: Any) -> Any:
        """``max(x, 0)``: the library's ``relu`` where it has one (gtensor, PyTorch)."""
        if self.name in ("gtensor", "torch"):
            return x.relu()
        return self.ns.maximum(x, 0)

    def conv2d(self, x: Any, w: Any, padding: int) -> Any:
        """2-D cross-correlation of NCHW ``x`` with OIHW ``w``, stride 1, zero ``padding``.

        gtensor and PyTorch call their own ``conv2d``; NumPy and CuPy, which have
        none, get the usual im2col composition: a strided window view of the
        padded input contracted with the filters by one ``tensordot`` (a BLAS
        GEMM), then made NCHW-contiguous like the others' results.
        """
        if self.name == "gtensor":
            return self.ns.conv2d(x, w, padding=padding)
        if self.name == "torch":
            return self.ns.nn.functional.conv2d(x, w, padding=padding)
        p = padding
        xp = self.ns.pad(x, ((0, 0), (0, 0), (p, p), (p, p))) if p else x
        n, c, hp, wp = xp.shape
        kh, kw = w.shape[2:]
        oh, ow = hp - kh + 1, wp - kw + 1
        s = xp.strides
        windows = self.ns.lib.stride_tricks.as_strided(
            xp, (n, c, kh, kw, oh, ow), (s[0], s[1], s[2], s[3], s[2], s[3]))
        out = self.ns.tensordot(windows, w, axes=([1, 2, 3], [1, 2, 3]))
        return self.ns.ascontiguousarray(out.transpose(0, 3, 1, 2))

    def sync(self) -> None:
        """Wait until the work queued on this library's device has finished."""
        if not self.on_gpu:
            return
        if self.name == "gtensor":
            self.ns.cuda.synchronize()
        elif self.name == "torch":
            self.ns.cuda.synchronize()
        else:
            self.ns.cuda.Device().synchronize()

    def to_host(self, x: Any) -> np.ndarray:
        """Return ``x`` as a NumPy array (copying from the device when needed)."""
        if self.name == "numpy":
            return np.asarray(x)
        if self.name == "cupy":
            return self.ns.asnumpy(x)
        if self.name == "torch":
            return x.detach().cpu().numpy()
        return x.cpu().numpy()
