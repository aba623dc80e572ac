"""CUDA concatenation (``cat``, ``stack``): one launch writes up to ``MAX_INPUTS`` inputs.

A Numba kernel cannot load through a device-side table of input addresses
(it has no way to turn an address into an array, and the simulator runs
kernels as Python), so each input is a kernel argument of its own: kernels are
generated per input count, and a ``cat`` of more than ``MAX_INPUTS`` (16)
non-empty inputs takes one launch per group of 16 consecutive inputs, each
writing its group's part of the output. ``CudaCat.plan`` works out, once per
call signature, the groups, each one's layout and grid; a call then only binds
buffers and offsets.

Layouts (sizes for a real GPU):

- **rows** (the output contiguous; every input contiguous from the cat dim
  on, its leading dims stepping as one): the output is ``rows`` rows of ``L``
  elements and a group's inputs fill consecutive column ranges of every row.
  1-D grid of 256-thread blocks, grid-stride over chunks of 1024 of the
  group's elements in C order (one chunk per block, up to 65535 blocks, as
  the flat copy). A thread takes
  4 elements 256 apart, finds each one's row (one unsigned division; none
  when there is one row) and its input (compares against the inputs' column
  ends), and loads all 4 before storing any, so 4 loads are in flight.
  Consecutive threads read consecutive elements of one input and write
  consecutive output elements, so loads and stores are coalesced except where
  a warp straddles two inputs. When the group's inputs differ in dtype each
  element is converted and stored in the branch that loads it (one element
  per step).
- **strided** (anything else: non-contiguous, broadcast or reversed inputs):
  the group's part of the output over the dims before the cat dim, the cat dim
  and the dims after it (each side collapsed where every operand allows);
  grid-stride, one element per thread step: its cat coordinate (two
  divisions) picks the input, whose strides then give its offset.

Index arithmetic runs in 32 bits when the group's element count and every
operand's extent allow (a second compiled variant); buffer offsets are added
in 64 bits. A ``bool`` output stores ``value != 0``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda

from ..common.codegen import build
from ..common.operands import nothing
from ..common.strided import Dims, collapse, is_c_contiguous, span
from ..registry import ANY, register
from ._elementwise_build import _JIT
from ._launch import SIMULATED, PlannedLaunch, flat_operand, remembered
from .copy import NARROW_LIMIT, _at, _blocks, _index_types, _nonzero, strided_put
from .half import as_is

MAX_INPUTS = 4 if SIMULATED else 16
"""Inputs one launch writes (kernel arguments of their own)."""
THREADS = 4 if SIMULATED else 256
"""Threads per block."""
UNROLL = 4
"""Elements a rows-layout thread loads before storing any (written out in the source)."""

Input = tuple[Dims, Dims, np.dtype]
"""An input's shape, element strides and dtype."""


def _element(u: str, j: str, m: int, one_row: bool, body: Callable[[int, str], str],
             indent: str) -> str:
    """Source placing element ``j`` (row ``r{u}``, column ``c{u}``) and running ``body`` for the
    input whose columns hold it: ``if c < e0: ... elif c < e1: ... else: ...``."""
    lines = [] if j == f"j{u}" else [f"j{u} = {j}"]
    if one_row:
        lines += [f"r{u} = idx(0)", f"c{u} = j{u}"]
    else:
        lines += [f"r{u} = idx(uidx(j{u}) // uidx(width))", f"c{u} = idx(j{u} - r{u} * width)"]
    if m == 1:
        lines.append(body(0, u))
    for k in range(m if m > 1 else 0):
        lines.append(f"if c{u} < e{k}:" if k == 0 else f"elif c{u} < e{k}:" if k < m - 1
                     else "else:")
        lines.append("    " + body(k, u))
    return "".join(f"{indent}{line}\n" for line in lines)


def _load(k: int, u: str) -> str:
    return f"v{u} = a{k}[_at(o{k}, idx(r{u} * s{k} + c{u}))]"


def _convert_store(k: int, u: str) -> str:
    value = f"a{k}[_at(o{k}, idx(r{u} * s{k} + c{u}))]"
    return f"out[_at(oo, idx(r{u} * row_len + c{u}))] = conv({value})"


def _rows_source(name: str, m: int, one_row: bool, mixed: bool) -> str:
    """Source of a rows-layout kernel over ``m`` inputs (see the module docstring)."""
    args = ", ".join(f"a{k}, o{k}, s{k}, e{k}" for k in range(m))
    head = f"def {name}(n, width, row_len, out, oo, {args}):\n"
    if mixed:
        return head + f"""\
    j = idx(idx(cuda.blockIdx.x) * THREADS + idx(cuda.threadIdx.x))
    step = idx(idx(cuda.gridDim.x) * THREADS)
    while j < n:
{_element("", "j", m, one_row, _convert_store, "        ")}\
        j = idx(j + step)
"""
    loads = "".join(_element(str(u), f"idx(start + t + {u * THREADS})" if u else "idx(start + t)",
                             m, one_row, _load, "        ") for u in range(UNROLL))
    stores = "".join(f"        out[_at(oo, idx(r{u} * row_len + c{u}))] = conv(v{u})\n"
                     for u in range(UNROLL))
    return head + f"""\
    t = idx(cuda.threadIdx.x)
    chunk = idx(THREADS * UNROLL)
    start = idx(idx(cuda.blockIdx.x) * chunk)
    step = idx(idx(cuda.gridDim.x) * chunk)
    last = idx(n - chunk)
    while start <= last:
{loads}{stores}\
        start = idx(start + step)
    i = idx(start + t)
    while i < n:
{_element("", "i", m, one_row, _load, "        ")}\
        out[_at(oo, idx(r * row_len + c))] = conv(v)
        i = idx(i + THREADS)
"""


def _strided_source(name: str, m: int) -> str:
    """Source of a strided-layout kernel over ``m`` inputs (see the module docstring)."""
    args = ", ".join(f"a{k}, o{k}, t{k}, e{k}" for k in range(m))
    chain = []
    for k in range(m):
        call = f"put(j, shape, out, oo, out_strides, a{k}, o{k}, t{k})"
        if m == 1:
            chain.append(f"        {call}")
            break
        chain.append(f"        if c < e{k}:" if k == 0 else f"        elif c < e{k}:"
                     if k < m - 1 else "        else:")
        chain.append(f"            {call}")
    body = "\n".join(chain)
    return f"""\
def {name}(n, inner, cat, shape, out, oo, out_strides, {args}):
    j = idx(idx(cuda.blockIdx.x) * idx(cuda.blockDim.x) + idx(cuda.threadIdx.x))
    step = idx(idx(cuda.gridDim.x) * idx(cuda.blockDim.x))
    while j < n:
        q = uidx(uidx(j) // uidx(inner))
        c = idx(q - uidx(q // uidx(cat)) * uidx(cat))
{body}
        j = idx(j + step)
"""


def _compile(name: str, source: str, narrow: bool, to_bool: bool) -> Any:
    idx, uidx = _index_types(narrow)
    namespace = {"cuda": cuda, "idx": idx, "uidx": uidx, "_at": _at, "THREADS": THREADS,
                 "UNROLL": UNROLL, "conv": _nonzero if to_bool else as_is,
                 "put": strided_put(narrow, "nonzero" if to_bool else "as_is", False)}
    return cuda.jit(**_JIT)(build(source, _compile, namespace)[name])


@cache
def _rows_kernel(m: int, one_row: bool, mixed: bool, narrow: bool, to_bool: bool) -> Any:
    name = (f"gtensor_cat_rows{m}{'_one_row' if one_row else ''}{'_mixed' if mixed else ''}"
            f"_i{32 if narrow else 64}{'_bool' if to_bool else ''}")
    return _compile(name, _rows_source(name, m, one_row, mixed), narrow, to_bool)


@cache
def _strided_kernel(m: int, narrow: bool, to_bool: bool) -> Any:
    name = f"gtensor_cat_strided{m}_i{32 if narrow else 64}{'_bool' if to_bool else ''}"
    return _compile(name, _strided_source(name, m), narrow, to_bool)


class _Group:
    """One launch of a plan: binds the buffers and offsets of its inputs and launches."""

    __slots__ = ("launch", "head", "out_shift", "mid", "inputs", "idx")

    def __init__(self, launch: PlannedLaunch, head: tuple[Any, ...], out_shift: int,
                 mid: tuple[Any, ...], inputs: list[tuple[int, int, Any, Any]], idx: Any) -> None:
        self.launch, self.head, self.out_shift, self.mid = launch, head, out_shift, mid
        self.inputs, self.idx = inputs, idx

    def __call__(self, bufs: Sequence[Any], offs: Sequence[int], out: Any, oo: int) -> None:
        idx = self.idx
        args: list[Any] = [*self.head, out, idx(oo + self.out_shift), *self.mid]
        for k, shift, layout, end in self.inputs:
            args += (bufs[k], idx(offs[k] + shift), layout, end)
        self.launch(*args)


def _run(groups: tuple[_Group, ...], bufs: Sequence[Any], offs: Sequence[int], out: Any,
         oo: int) -> None:
    for group in groups:
        group(bufs, offs, out, oo)


def _row_stride(shape: Dims, strides: Dims, dim: int, rows: int) -> int | None:
    """The step between an input's rows when it is contiguous from ``dim`` on, else None."""
    if not is_c_contiguous(shape[dim:], strides[dim:]):
        return None
    if rows == 1:
        return 0
    outer, (steps,) = collapse(shape[:dim], [strides[:dim]])
    return steps[0] if len(outer) == 1 else None


def _narrow(n: int, shifts: Sequence[int], *views: tuple[Dims, Dims]) -> bool:
    """True when every index a launch forms fits 32-bit arithmetic (see ``copy.NARROW_LIMIT``)."""
    reach = n + max((abs(s) for s in shifts), default=0)
    for shape, strides in views:
        lo, hi = span(shape, strides)
        reach = max(reach, n + hi - lo + max((abs(s) for s in shifts), default=0))
        if any(abs(s) >= NARROW_LIMIT for s in strides):
            return False
    return reach < NARROW_LIMIT


class CudaCat:
    """The CUDA ``cat`` kernel: ``kernel(srcs, out, dim, stream=None)`` and ``plan``."""

    __name__ = "gtensor_cat_cuda"

    def __init__(self) -> None:
        self._plans: dict[tuple[Any, ...], Callable[..., None]] = {}

    def __call__(self, srcs: Sequence[Any], out: Any, dim: int, stream: Any = None) -> None:
        """Write the concatenation of ``srcs`` along ``dim`` into ``out``, converting dtypes.

        Args:
            srcs: device arrays (NumPy arrays on the simulator) with ``out``'s shape except
                along ``dim``, any strides and dtypes; their sizes along ``dim`` sum to
                ``out.shape[dim]``.
            out: destination array.
            dim: the cat dim (non-negative).
            stream: Numba stream to launch on (default stream when None).

        Example:
            >>> out = np.empty(3); gtensor_cat_cuda([np.ones(2), np.zeros(1, np.int8)], out, 0)
            >>> out.tolist()
            [1.0, 1.0, 0.0]
        """
        if out.size == 0:
            return
        operands = [flat_operand(s) for s in srcs]
        out_flat, out_off, out_strides = flat_operand(out)
        inputs = tuple((tuple(s.shape), strides, np.dtype(s.dtype))
                       for s, (_, _, strides) in zip(srcs, operands, strict=True))
        key = (out.shape, out_strides, out.dtype, dim, stream, inputs)
        run = remembered(self._plans, key, self.plan, tuple(out.shape), out_strides,
                         np.dtype(out.dtype), dim, inputs, stream)
        run([f for f, _, _ in operands], [o for _, o, _ in operands], out_flat, out_off)

    def plan(self, shape: Dims, out_strides: Dims, out_dtype: np.dtype, dim: int,
             inputs: Sequence[Input], stream: Any = None) -> Callable[..., None]:
        """Work out groups, layouts and grids once; return ``run(bufs, offs, out, oo)``.

        Args:
            shape: the output's shape.
            out_strides: the output's element strides.
            out_dtype: the output's dtype (a ``bool`` one stores ``value != 0``).
            dim: the cat dim.
            inputs: each input's shape, element strides and dtype.
            stream: Numba stream to launch on (default stream when None).

        Returns:
            A function of the inputs' flat buffers and element offsets (lists) and the
            output's flat buffer and element offset.

        Example:
            >>> f32 = np.dtype(np.float32)
            >>> run = gtensor_cat_cuda.plan((2, 5), (5, 1), f32, 1, [((2, 2), (2, 1), f32),
            ...                                                      ((2, 3), (3, 1), f32)])
            >>> out = np.empty(10, f32); run([np.zeros(4, f32), np.ones(6, f32)], [0, 0], out, 0)
            >>> out.reshape(2, 5)[0].tolist()
            [0.0, 0.0, 1.0, 1.0, 1.0]
        """
        if math.prod(shape) == 0:
            return nothing
        starts = np.cumsum([0] + [sh[dim] for sh, _, _ in inputs]).tolist()
        used = [k for k, (sh, _, _) in enumerate(inputs) if sh[dim]]
        rows = math.prod(shape[:dim])
        row_steps = [_row_stride(inputs[k][0], inputs[k][1], dim, rows) for k in used]
        contiguous = is_c_contiguous(shape, out_strides) and None not in row_steps
        steps = dict(zip(used, row_steps, strict=True))
        to_bool = np.dtype(out_dtype).kind == "b"
        groups = []
        for i in range(0, len(used), MAX_INPUTS):
            group = used[i:i + MAX_INPUTS]
            if contiguous:
                groups.append(_rows_group(shape, out_strides, dim, group, inputs, starts,
                                          steps, to_bool, stream))
            else:
                groups.append(_strided_group(shape, out_strides, dim, group, inputs, starts,
                                             to_bool, stream))
        return partial(_run, tuple(groups))


def _rows_group(shape: Dims, out_strides: Dims, dim: int, group: list[int],
                inputs: Sequence[Input], starts: list[int], steps: dict[int, int], to_bool: bool,
                stream: Any) -> _Group:
    """Plan one rows-layout launch over the inputs ``group`` (see the module docstring)."""
    inner = math.prod(shape[dim + 1:])
    rows, row_len = math.prod(shape[:dim]), shape[dim] * inner
    first = starts[group[0]] * inner
    width = starts[group[-1] + 1] * inner - first
    n = rows * width
    shifts = [first - starts[k] * inner for k in group]
    narrow = _narrow(n + row_len, shifts, (shape, out_strides),
                     *((inputs[k][0], inputs[k][1]) for k in group))
    idx, _ = _index_types(narrow)
    mixed = len({inputs[k][2] for k in group}) > 1
    kernel = _rows_kernel(len(group), rows == 1, mixed, narrow, to_bool)
    launch = PlannedLaunch(kernel, 0, stream, _blocks(n, THREADS * (1 if mixed else UNROLL)),
                           THREADS)
    bound = [(k, shift, idx(steps[k]), idx(starts[k + 1] * inner - first))
             for k, shift in zip(group, shifts, strict=True)]
    return _Group(launch, (idx(n), idx(width), idx(row_len)), first, (), bound, idx)


def _collapsed(dims: Dims, strides: list[Dims]) -> tuple[Dims, list[Dims]]:
    """``collapse`` that keeps no dim for an empty ``dims``."""
    if not dims:
        return (), [() for _ in strides]
    return collapse(dims, strides)


def _strided_group(shape: Dims, out_strides: Dims, dim: int, group: list[int],
                   inputs: Sequence[Input], starts: list[int], to_bool: bool,
                   stream: Any) -> _Group:
    """Plan one strided-layout launch over the inputs ``group`` (see the module docstring)."""
    first = starts[group[0]]
    cat = starts[group[-1] + 1] - first
    all_strides = [out_strides] + [inputs[k][1] for k in group]
    outer, outer_strides = _collapsed(shape[:dim], [st[:dim] for st in all_strides])
    inner, inner_strides = _collapsed(shape[dim + 1:], [st[dim + 1:] for st in all_strides])
    domain = (*outer, cat, *inner)
    layouts = [(*o, st[dim], *i) for o, st, i in zip(outer_strides, all_strides, inner_strides,
                                                       strict=True)]
    n = math.prod(domain)
    shifts = [(first - starts[k]) * inputs[k][1][dim] for k in group]
    narrow = _narrow(n, [first * out_strides[dim], *shifts], (shape, out_strides),
                     *((inputs[k][0], inputs[k][1]) for k in group))
    idx, uidx = _index_types(narrow)
    launch = PlannedLaunch(_strided_kernel(len(group), narrow, to_bool), 0, stream,
                           _blocks(n, THREADS), THREADS)
    bound = [(k, shift, tuple(idx(s) for s in layout), idx(starts[k + 1] - first))
             for k, shift, layout in zip(group, shifts, layouts[1:], strict=True)]
    head = (idx(n), idx(math.prod(inner)), idx(cat), tuple(uidx(s) for s in domain))
    return _Group(launch, head, first * out_strides[dim], (tuple(idx(s) for s in layouts[0]),),
                  bound, idx)


gtensor_cat_cuda = register("cat", "cuda", [ANY])(CudaCat())
