"""cuDNN convolutions (fprop, dgrad, wgrad) through the cuDNN frontend's graph API.

``kernels.cuda.conv`` asks :func:`fprop`, :func:`dgrad` and :func:`wgrad` first
on a real GPU; each returns ``False`` when cuDNN did not run (no ``cudnn``
module, the simulator, ``gt.backends.cudnn.enabled`` off, a layout or dtype
cuDNN is not given, or a graph that failed to build for this signature), and
the caller takes its im2col path. ``conv_transpose2d`` is cuDNN's dgrad: its
input plays the loss and its ``(C_in, C_out/groups, KH, KW)`` weight the filter
of the convolution it transposes.

One graph per signature (kind, dtype, shapes and strides of the three or four
operands, stride, padding, dilation, the TF32 and determinism switches, device) is built on first
use and kept in a bounded cache, as is the failure of one that does not build;
a call then binds the pointers and launches on the caller's stream. Groups are
implied by the shapes (the filter holds ``C/groups`` input channels), as in
cuDNN's backend API. Operands must be 16-byte aligned: the frontend describes
every tensor with that pointer alignment, which engines are selected for; a
misaligned view takes the im2col path.

Checked without a GPU (tests/kernels/test_cudnn_conv.py): the signature,
padding and cache logic, the selection and fallback, and the order and
arguments of the frontend calls against a recording stand-in for ``cudnn``.
Unproven until a run on a GPU with the frontend installed: what only cuDNN can
answer (which graphs build, the numeric-note filter leaving an engine, the
workspace size, ``execute`` with raw pointers on the caller's stream), the
fused conv + bias graph, float64 engines and the speed; the ``gpu`` test of
that file compares all three ops against the im2col path there.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..common.cudnn_library import SWITCHES, frontend
from ..common.strided import element_strides
from ._launch import address, stream_pointer

Pair = tuple[int, int]
Layout = tuple[tuple[int, ...], tuple[int, ...]]
"""A tensor's shape and its strides in elements."""

ALIGNMENT = 16
"""Bytes every operand's address must be a multiple of."""
GRAPHS_LIMIT = 256
"""Signatures the graph cache keeps (built graphs and remembered failures)."""
KINDS = ("fprop", "dgrad", "wgrad")
DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class ConvKey:
    """Everything a cuDNN convolution graph is built for.

    ``a``, ``b`` and ``out`` are (image, weight, y) for ``fprop``, (loss,
    filter, dx) for ``dgrad`` and (image, loss, dw) for ``wgrad``.
    """

    kind: str
    dtype: str
    a: Layout
    b: Layout
    out: Layout
    bias: bool
    stride: Pair
    pre_padding: Pair
    post_padding: Pair
    dilation: Pair
    tf32: bool
    deterministic: bool
    device: int


def cudnn_layout(shape: tuple[int, ...], strides: tuple[int, ...]) -> Layout | None:
    """Return ``(shape, strides)`` as cuDNN is given them, or None if cuDNN cannot take them.

    cuDNN takes positive strides; a dim of extent 1 is never stepped along, so
    its stride (any value, 0 included) is replaced by the packed one. A zero or
    negative stride on a longer dim (a broadcast or flipped view) is refused.

    Example:
        >>> cudnn_layout((1, 3, 4, 4), (0, 16, 4, 1))
        ((1, 3, 4, 4), (48, 16, 4, 1))
        >>> cudnn_layout((2, 3), (0, 1)) is None
        True
    """
    fixed = list(strides)
    for i in range(len(shape) - 1, -1, -1):
        if shape[i] == 1:
            fixed[i] = fixed[i + 1] * shape[i + 1] if i + 1 < len(shape) else 1
        elif fixed[i] <= 0:
            return None
    return tuple(shape), tuple(fixed)


def post_padding(size: int, out: int, kernel: int, stride: int, dilation: int,
                 pre: int) -> int | None:
    """Return the bottom/right padding that makes a convolution of ``size`` give ``out``.

    The top/left padding ``pre`` is kept whenever it also fits on the far side
    (symmetric padding, what PyTorch hands cuDNN); otherwise the
    smallest non-negative amount that gives ``out`` (PyTorch's ``"same"``, or
    an output size another op fixed). None when no such amount exists.

    Example:
        >>> post_padding(8, 4, 3, 2, 1, 1)
        1
        >>> post_padding(6, 6, 4, 1, 1, 1)
        2
    """
    reach = dilation * (kernel - 1) + 1
    lowest = (out - 1) * stride + reach - size - pre
    highest = lowest + stride - 1
    if lowest <= pre <= highest:
        return pre
    amount = max(lowest, 0)
    return amount if amount <= highest else None


def conv_key(kind: str, dtype: str, a: Layout | None, b: Layout | None, out: Layout | None,
             bias: bool, stride: Pair, padding: Pair, dilation: Pair, tf32: bool,
             deterministic: bool, device: int) -> ConvKey | None:
    """Return the graph signature of one call, or None where cuDNN is not given the call.

    Args:
        kind: ``"fprop"``, ``"dgrad"`` or ``"wgrad"``.
        dtype: the operands' dtype name.
        a, b, out: the operands' layouts in the order of :class:`ConvKey` (None: refused).
        bias: whether ``fprop`` adds a bias in the same graph.
        stride, padding, dilation: the convolution's geometry (top/left padding).
        tf32: whether float32 math may use TF32.
        deterministic: whether only deterministic engines may run.
        device: the CUDA device ordinal.

    Example:
        >>> x = ((1, 2, 5, 5), (50, 25, 5, 1))
        >>> w = ((4, 2, 3, 3), (18, 9, 3, 1))
        >>> y = ((1, 4, 5, 5), (100, 25, 5, 1))
        >>> key = conv_key("fprop", "float32", x, w, y, False, (1, 1), (1, 1), (1, 1), False,
        ...                False, 0)
        >>> key.post_padding
        (1, 1)
    """
    if kind not in KINDS or dtype not in DTYPES or (bias and kind != "fprop"):
        return None
    if a is None or b is None or out is None:
        return None
    image, result = {"fprop": (a, out), "dgrad": (out, a), "wgrad": (a, b)}[kind]
    weight = out if kind == "wgrad" else b
    post = [post_padding(image[0][2 + i], result[0][2 + i], weight[0][2 + i], stride[i],
                         dilation[i], padding[i]) for i in range(2)]
    if post[0] is None or post[1] is None:
        return None
    return ConvKey(kind, dtype, a, b, out, bias, _pair(stride), _pair(padding),
                   (post[0], post[1]), _pair(dilation), tf32 and dtype == "float32",
                   deterministic, device)


def _pair(values: Pair) -> Pair:
    return int(values[0]), int(values[1])


class Unsupported:
    """A signature whose graph failed to build or to run, and why."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class GraphCache:
    """Built graphs by :class:`ConvKey`, least recently used evicted first.

    A signature whose build raised is remembered as :class:`Unsupported` and
    answers None without building again.

    Example:
        >>> cache = GraphCache(2)
        >>> cache.lookup("k", lambda key: key.upper())
        'K'
        >>> cache.lookup("bad", lambda key: 1 / 0) is None
        True
        >>> cache.failures()
        {'bad': 'ZeroDivisionError: division by zero'}
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[Any, Any] = OrderedDict()

    def lookup(self, key: Any, build: Callable[[Any], Any]) -> Any:
        """Return the graph of ``key``, built by ``build(key)`` on a miss; None if unsupported."""
        entry = self._entries.get(key)
        if entry is None:
            try:
                entry = build(key)
            except Exception as exc:  # the frontend raises several types for "not supported"
                entry = Unsupported(f"{type(exc).__name__}: {exc}")
            self._store(key, entry)
        else:
            self._entries.move_to_end(key)
        return None if isinstance(entry, Unsupported) else entry

    def refuse(self, key: Any, exc: BaseException) -> None:
        """Remember that ``key``'s graph failed to run: later calls take the fallback."""
        self._store(key, Unsupported(f"{type(exc).__name__}: {exc}"))

    def _store(self, key: Any, entry: Any) -> None:
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def failures(self) -> dict[Any, str]:
        """Return why each remembered unsupported signature failed."""
        return {k: v.reason for k, v in self._entries.items() if isinstance(v, Unsupported)}

    def built(self) -> int:
        """Return how many built graphs the cache holds."""
        return sum(not isinstance(v, Unsupported) for v in self._entries.values())

    def clear(self) -> None:
        """Forget every graph and failure."""
        self._entries.clear()


@dataclass
class _Graph:
    """A built graph, its operands' uids (a, b, out[, bias]), workspace size and handle."""

    graph: Any
    uids: tuple[int, ...]
    workspace_size: int
    handle: Any


GRAPHS = GraphCache(GRAPHS_LIMIT)
_lock = threading.Lock()  # one cuDNN handle per device: stream setting and launch are serialized
_handles: dict[int, Any] = {}


def fprop(x: Any, w: Any, bias: Any, out: Any, stride: Pair, padding: Pair, dilation: Pair,
          stream: Any) -> bool:
    """Write ``conv2d(x, w) (+ bias)`` into ``out`` through cuDNN; False if cuDNN did not run.

    Example:
        >>> fprop(x, w, None, out, (1, 1), (1, 1), (1, 1), stream)  # doctest: +SKIP
        True
    """
    return _run("fprop", x, w, out, bias, stride, padding, dilation, stream)


def dgrad(g: Any, w: Any, out: Any, stride: Pair, padding: Pair, dilation: Pair,
          stream: Any) -> bool:
    """Write the input gradient of ``conv2d`` (``conv_transpose2d(g, w)``) into ``out``.

    Returns False if cuDNN did not run.

    Example:
        >>> dgrad(g, w, dx, (2, 2), (1, 1), (1, 1), stream)  # doctest: +SKIP
        True
    """
    return _run("dgrad", g, w, out, None, stride, padding, dilation, stream)


def wgrad(x: Any, g: Any, out: Any, stride: Pair, padding: Pair, dilation: Pair,
          stream: Any) -> bool:
    """Write the weight gradient of ``conv2d`` for input ``x`` and output gradient ``g``.

    Returns False if cuDNN did not run.

    Example:
        >>> wgrad(x, g, dw, (1, 1), (1, 1), (1, 1), stream)  # doctest: +SKIP
        True
    """
    return _run("wgrad", x, g, out, None, stride, padding, dilation, stream)


def _layout(arr: Any) -> Layout | None:
    return cudnn_layout(tuple(int(v) for v in arr.shape), element_strides(arr))


def _run(kind: str, a: Any, b: Any, out: Any, bias: Any, stride: Pair, padding: Pair,
         dilation: Pair, stream: Any) -> bool:
    cudnn = frontend()
    if cudnn is None or not SWITCHES.enabled:
        return False
    arrays = (a, b, out) if bias is None else (a, b, out, bias)
    if any(arr.size == 0 for arr in arrays) or len({arr.dtype for arr in arrays}) != 1:
        return False
    pointers = tuple(address(arr) for arr in arrays)
    if any(p % ALIGNMENT for p in pointers):
        return False
    key = conv_key(kind, a.dtype.name, _layout(a), _layout(b), _layout(out), bias is not None,
                   stride, padding, dilation, SWITCHES.allow_tf32, SWITCHES.deterministic,
                   _device())
    if key is None:
        return False
    with _lock:
        built = GRAPHS.lookup(key, lambda k: _build(cudnn, k))
        if built is None:
            return False
        try:
            _execute(cudnn, built, pointers, stream_pointer(stream))
        except Exception as exc:  # a launch cuDNN refuses: this signature falls back from now on
            GRAPHS.refuse(key, exc)
            return False
    return True


def _device() -> int:
    import cupy

    return int(cupy.cuda.runtime.getDevice())


def _handle(cudnn: Any, device: int) -> Any:
    handle = _handles.get(device)
    if handle is None:
        handle = _handles[device] = cudnn.create_handle()
    return handle


def _data_type(cudnn: Any, dtype: str) -> Any:
    return cudnn.data_type.FLOAT if dtype == "float32" else cudnn.data_type.DOUBLE


def _build(cudnn: Any, key: ConvKey) -> _Graph:
    """Build and plan the cuDNN graph of ``key`` (raises when cuDNN cannot run it)."""
    handle = _handle(cudnn, key.device)
    dt = _data_type(cudnn, key.dtype)
    graph = cudnn.pygraph(io_data_type=dt, intermediate_data_type=dt, compute_data_type=dt,
                          handle=handle)
    a = graph.tensor(name="a", dim=list(key.a[0]), stride=list(key.a[1]), data_type=dt)
    b = graph.tensor(name="b", dim=list(key.b[0]), stride=list(key.b[1]), data_type=dt)
    geometry = {"pre_padding": list(key.pre_padding), "post_padding": list(key.post_padding),
                "stride": list(key.stride), "dilation": list(key.dilation),
                "compute_data_type": dt}
    if key.kind == "fprop":
        y = graph.conv_fprop(image=a, weight=b, name="fprop", **geometry)
    elif key.kind == "dgrad":
        y = graph.conv_dgrad(loss=a, filter=b, name="dgrad", **geometry)
    else:
        y = graph.conv_wgrad(image=a, loss=b, name="wgrad", **geometry)
    operands = [a, b]
    if key.bias:
        channels = key.out[0][1]
        bias = graph.tensor(name="bias", dim=[1, channels, 1, 1], stride=[channels, 1, 1, 1],
                            data_type=dt)
        y = graph.bias(name="add_bias", input=y, bias=bias)
        operands.append(bias)
    y.set_output(True).set_data_type(dt).set_dim(list(key.out[0])).set_stride(list(key.out[1]))
    operands.insert(2, y)
    graph.validate()
    graph.build_operation_graph()
    graph.create_execution_plans([cudnn.heur_mode.A, cudnn.heur_mode.FALLBACK])
    # As PyTorch: never inputs converted down; float32 without TF32 and nondeterministic
    # engines allowed unless switched otherwise.
    notes = [cudnn.numerical_note.DOWN_CONVERT_INPUTS]
    if key.dtype == "float32" and not key.tf32:
        notes.append(cudnn.numerical_note.TENSOR_CORE)
    if key.deterministic:
        notes.append(cudnn.numerical_note.NONDETERMINISTIC)
    graph.deselect_numeric_notes(notes)
    graph.check_support()
    graph.build_plans()
    # uids are fixed once the graph is built (older frontends assign them while building)
    uids = tuple(int(t.get_uid()) for t in operands)
    return _Graph(graph, uids, int(graph.get_workspace_size()), handle)


def _execute(cudnn: Any, built: _Graph, pointers: tuple[int, ...], stream: int) -> None:
    """Launch ``built`` on ``stream`` over the operands at ``pointers`` (a, b, out[, bias])."""
    cudnn.set_stream(handle=built.handle, stream=stream)
    pack = dict(zip(built.uids, pointers, strict=True))
    with _workspace(built.workspace_size, stream) as workspace:
        built.graph.execute(pack, workspace, handle=built.handle)


@contextlib.contextmanager
def _workspace(nbytes: int, stream: int) -> Iterator[int]:
    """Yield the address of ``nbytes`` of scratch memory on ``stream`` (0 for none).

    The memory comes from gtensor's caching allocator (CuPy's allocator) on
    ``stream`` and goes back to the cache on exit, once the kernels that use it
    are enqueued. That is safe because the cache hands a block out again only
    for work on the stream that allocated it, which runs after those kernels.
    """
    if nbytes == 0:
        yield 0
        return
    import cupy

    with cupy.cuda.ExternalStream(stream):
        block = cupy.empty(nbytes, dtype=cupy.uint8)
    yield int(block.data.ptr)
