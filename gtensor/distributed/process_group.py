"""Process groups: ``init_process_group``, the world and sub-groups, rank and size queries.

The world group is made once per process from the MPI launcher's environment
(``mpiexec`` sets the rank and size; mpi4py reads them). Each group holds one
backend object (:class:`~gtensor.distributed.backend_mpi.MPIBackend` or
:class:`~gtensor.distributed.backend_nccl.NCCLBackend`), its timeout and its
debug setting. After ``init_process_group`` an uncaught exception on any rank
aborts the whole job, so a rank that raised never leaves its peers waiting.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from datetime import timedelta
from types import TracebackType
from typing import Any

from .backend_mpi import MPIBackend, mpi_module
from .backend_nccl import NCCLBackend

DEFAULT_TIMEOUT = timedelta(minutes=30)
DEBUG_ENV = "GTENSOR_DISTRIBUTED_DEBUG"


class ProcessGroup:
    """A set of ranks that run collectives together.

    Attributes:
        backend: the object that runs the collectives (``None`` on ranks outside the group).
        ranks: the world ranks of the members, in group-rank order.
        timeout: each collective's deadline.
        debug: check shapes and dtypes across ranks before each collective.
    """

    def __init__(self, backend: Any, ranks: Sequence[int], timeout: timedelta,
                 debug: bool) -> None:
        self.backend = backend
        self.ranks = list(ranks)
        self.timeout = timeout
        self.debug = debug

    def rank(self) -> int:
        """This process's rank in the group (-1 outside it)."""
        return -1 if self.backend is None else self.backend.rank

    def size(self) -> int:
        """The number of ranks in the group."""
        return len(self.ranks)

    def group_rank(self, global_rank: int, op: str) -> int:
        """The group rank of world rank ``global_rank``."""
        if global_rank not in self.ranks:
            raise ValueError(f"[{op}] rank {global_rank} is not part of the group "
                             f"(ranks {self.ranks})")
        return self.ranks.index(global_rank)


class _State:
    """This process's groups, and the exception hook that ``init_process_group`` replaced."""

    def __init__(self) -> None:
        self.world: ProcessGroup | None = None
        self.groups: list[ProcessGroup] = []
        self.previous_hook: Any = None


_state = _State()


def is_available() -> bool:
    """True: the distributed package is built in (the backends load on first use)."""
    return True


def is_mpi_available() -> bool:
    """Whether mpi4py and an MPI library can be imported."""
    try:
        mpi_module()
    except ImportError:
        return False
    return True


def is_nccl_available() -> bool:
    """Whether CuPy's NCCL bindings can be imported."""
    try:
        from cupy.cuda import nccl  # noqa: F401
    except ImportError:
        return False
    return True


def is_initialized() -> bool:
    """Whether ``init_process_group`` ran (and ``destroy_process_group`` did not since)."""
    return _state.world is not None


def _debug_from_env() -> bool:
    return os.environ.get(DEBUG_ENV, "OFF").upper() == "DETAIL"


def _abort_on_uncaught(kind: type[BaseException], value: BaseException,
                       tb: TracebackType | None) -> None:
    """Print the exception, then end the whole job: the other ranks would wait for this one."""
    previous = _state.previous_hook or sys.__excepthook__
    previous(kind, value, tb)
    world = _state.world
    if world is not None and world.size() > 1 and not issubclass(kind, KeyboardInterrupt):
        print(f"[gtensor.distributed] rank {world.rank()} raised {kind.__name__}; aborting "
              "the job", file=sys.stderr, flush=True)
        world.backend.abort(1)


def _env_int(*names: str) -> int | None:
    for name in names:
        if name in os.environ:
            return int(os.environ[name])
    return None


def init_process_group(backend: str | None = None, init_method: str | None = None,
                       timeout: timedelta | None = None, world_size: int = -1, rank: int = -1,
                       *, debug: bool | None = None, abort_on_exception: bool = True) -> None:
    """Join the job's world group; every rank calls it once.

    Args:
        backend: ``"mpi"`` (CPU and CUDA tensors; CUDA through the host) or ``"nccl"`` (CUDA
            tensors through NCCL, one GPU per rank). Default: ``"mpi"``.
        init_method: ``None`` or ``"env://"``: the launcher's environment. For ``nccl``,
            ``"file://PATH"`` shares NCCL's id through a file instead of MPI (a path no
            earlier job left a file at).
        timeout: how long a collective may wait for the other ranks (default 30 minutes).
        world_size: expected number of ranks (-1: from the launcher).
        rank: expected rank of this process (-1: from the launcher).
        debug: check shapes and dtypes agree across ranks before each collective (default:
            ``GTENSOR_DISTRIBUTED_DEBUG=DETAIL`` in the environment).
        abort_on_exception: an uncaught exception on this rank aborts the whole job.

    Example:
        >>> import gtensor.distributed as dist  # doctest: +SKIP
        >>> dist.init_process_group("mpi")  # doctest: +SKIP
    """
    if _state.world is not None:
        raise RuntimeError("[init_process_group] trying to initialize the default process "
                           "group twice")
    name = (backend or "mpi").lower()
    if name not in ("mpi", "nccl"):
        raise ValueError(f"[init_process_group] unknown backend {backend!r}; available: "
                         "'mpi', 'nccl'")
    if init_method not in (None, "env://") and not (
            name == "nccl" and init_method.startswith("file://")):
        raise ValueError(f"[init_process_group] unsupported init_method {init_method!r}: use "
                         "None or 'env://' (the MPI launcher's environment), or 'file://PATH' "
                         "with nccl")
    timeout = timeout or DEFAULT_TIMEOUT
    debug = _debug_from_env() if debug is None else debug
    file_init = init_method is not None and init_method.startswith("file://")
    if file_init:
        size = world_size if world_size > 0 else _env_int("WORLD_SIZE", "PMI_SIZE")
        me = rank if rank >= 0 else _env_int("RANK", "PMI_RANK")
        if size is None or me is None:
            raise ValueError("[init_process_group] file:// needs world_size and rank (or the "
                             "WORLD_SIZE and RANK environment variables)")
        impl: Any = NCCLBackend.from_file(init_method[len("file://"):], me, size, timeout)
    else:
        mpi = MPIBackend(mpi_module().COMM_WORLD, timeout)
        for asked, got, what in ((world_size, mpi.size, "world_size"), (rank, mpi.rank, "rank")):
            if asked not in (-1, got):
                raise ValueError(f"[init_process_group] {what}={asked} but the MPI launcher "
                                 f"started this process with {what} {got}")
        impl = mpi if name == "mpi" else NCCLBackend.from_mpi(mpi, timeout)
    _state.world = ProcessGroup(impl, range(impl.size), timeout, debug)
    _state.groups = [_state.world]
    if abort_on_exception and sys.excepthook is not _abort_on_uncaught:
        _state.previous_hook = sys.excepthook
        sys.excepthook = _abort_on_uncaught


def world(op: str) -> ProcessGroup:
    """The world group, or a RuntimeError naming ``op`` when none was initialized."""
    if _state.world is None:
        raise RuntimeError(f"[{op}] Default process group has not been initialized, please "
                           "make sure to call init_process_group.")
    return _state.world


def resolve(group: ProcessGroup | None, op: str) -> ProcessGroup:
    """``group``, or the world group when None."""
    return world(op) if group is None else group


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank in ``group`` (the world by default; -1 outside the group)."""
    return resolve(group, "get_rank").rank()


def get_world_size(group: ProcessGroup | None = None) -> int:
    """The number of ranks in ``group`` (the world by default)."""
    return resolve(group, "get_world_size").size()


def get_backend(group: ProcessGroup | None = None) -> str:
    """The backend name of ``group``: ``"mpi"`` or ``"nccl"``."""
    return resolve(group, "get_backend").backend.name


def new_group(ranks: Sequence[int] | None = None, timeout: timedelta | None = None,
              backend: str | None = None) -> ProcessGroup:
    """A group of the world ranks ``ranks`` (all by default); every rank of the world calls it.

    Ranks outside the group get a group whose collectives they must not call (rank -1).
    """
    parent = world("new_group")
    members = sorted(range(parent.size()) if ranks is None else set(ranks))
    if any(r < 0 or r >= parent.size() for r in members):
        raise ValueError(f"[new_group] ranks {members} out of range for world size "
                         f"{parent.size()}")
    if backend not in (None, parent.backend.name):
        raise ValueError(f"[new_group] backend {backend!r} differs from the world's "
                         f"{parent.backend.name!r}")
    timeout = timeout or parent.timeout
    group = ProcessGroup(parent.backend.split(members, timeout), members, timeout, parent.debug)
    _state.groups.append(group)
    return group


def destroy_process_group(group: ProcessGroup | None = None) -> None:
    """Release ``group`` (every group, and the world, when None)."""
    groups = list(_state.groups) if group is None else [group]
    for g in groups:
        if g.backend is not None:
            g.backend.close()
        if g in _state.groups:
            _state.groups.remove(g)
    if group is None or group is _state.world:
        _state.world = None
        _state.groups = []
        if sys.excepthook is _abort_on_uncaught:
            sys.excepthook = _state.previous_hook or sys.__excepthook__
