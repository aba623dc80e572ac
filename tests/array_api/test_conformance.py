"""gtensor.array_api walks the standard's function list: names, call signatures, promotion table.

``array_api_strict`` (the standard's reference namespace, in the test extra)
supplies the 2024.12 list and signatures: every function it has must exist
here and accept the same positional arguments and keywords, and ``result_type``
must agree with its table wherever the standard defines one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import pytest

import gtensor as gt
import gtensor.array_api as gxp

strict = pytest.importorskip("array_api_strict")

# Not in gtensor yet (complex and 16/32/64-bit unsigned dtypes, the fft extension), or
# added by the standard after 2024.12.
ABSENT = {"complex64", "complex128", "uint16", "uint32", "uint64", "fft",
          "broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"}
HELPERS = {"ArrayAPIStrictFlags", "Device", "get_array_api_strict_flags", "__version__",
           "set_array_api_strict_flags", "reset_array_api_strict_flags"}


@pytest.fixture(scope="module", autouse=True)
def _version_2024() -> Iterator[None]:
    strict.set_array_api_strict_flags(api_version="2024.12")
    yield
    strict.reset_array_api_strict_flags()


def _standard_names() -> list[tuple[str, str]]:
    names = [("", n) for n in strict.__all__ if n not in HELPERS]
    names += [("linalg.", n) for n in dir(strict.linalg)
              if inspect.isfunction(getattr(strict.linalg, n)) and not n.startswith("_")
              and getattr(strict.linalg, n).__module__.startswith("array_api_strict._l")]
    return names


_MISSING = object()


def _lookup(namespace: object, path: str, name: str) -> object:
    return getattr(namespace.linalg if path else namespace, name, _MISSING)


def _accepts(ours: Callable, theirs: Callable) -> list[str]:
    """What a call written against ``theirs``'s signature could pass that ``ours`` refuses."""
    mine = list(inspect.signature(ours).parameters.values())
    kinds = {p.name: p.kind for p in mine}
    var_kw = any(p.kind is p.VAR_KEYWORD for p in mine)
    problems = []
    for i, p in enumerate(inspect.signature(theirs).parameters.values()):
        if p.kind is p.VAR_POSITIONAL:
            ok = any(q.kind is q.VAR_POSITIONAL for q in mine)
        elif p.kind is p.POSITIONAL_ONLY:
            ok = i < len(mine) and mine[i].kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) \
                or any(q.kind is q.VAR_POSITIONAL for q in mine)
        else:
            ok = kinds.get(p.name) in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) or var_kw
            if ok and p.default is not p.empty and p.name in kinds:
                ok = next(q for q in mine if q.name == p.name).default is not p.empty
        if not ok:
            problems.append(p.name)
    return problems


def test_every_standard_function_is_here_with_its_signature() -> None:
    missing, refused = [], {}
    for path, name in _standard_names():
        theirs, ours = _lookup(strict, path, name), _lookup(gxp, path, name)
        if ours is _MISSING:
            missing.append(path + name)
        elif callable(theirs) and not isinstance(theirs, type) and inspect.isfunction(
                inspect.unwrap(theirs)):
            bad = _accepts(ours, theirs)
            if bad:
                refused[path + name] = bad
    assert set(missing) == {n for n in ABSENT if n in missing}, missing
    assert not refused, refused
    assert gxp.__array_api_version__ == "2024.12"


def _pairs() -> list[tuple[str, str]]:
    names = list(gxp.__array_namespace_info__().dtypes())
    return [(a, b) for a in names for b in names]


def test_result_type_follows_the_standard_table() -> None:
    defined = 0
    for a, b in _pairs():
        try:
            want = strict.result_type(getattr(strict, a), getattr(strict, b))
        except TypeError:  # mixed kinds: the standard leaves these to the library
            continue
        defined += 1
        assert gxp.result_type(getattr(gxp, a), getattr(gxp, b)).name == str(want).split(".")[1]
        assert gxp.can_cast(getattr(gxp, a), getattr(gxp, b)) == strict.can_cast(
            getattr(strict, a), getattr(strict, b)), (a, b)
    assert defined >= 20


def test_zero_d_arrays_promote_as_arrays_unlike_tensor_operators() -> None:
    small, big = gt.tensor([1, 2], dtype=gt.int8), gt.tensor(300)
    assert gxp.result_type(small, big) is gt.int64
    assert gxp.add(small, big).tolist() == [301, 302]
    assert (small + big).dtype is gt.int8  # gtensor's own rule (PyTorch's) is kept
    assert gxp.result_type(gxp.float32, 1.5) is gt.float32
    assert gxp.result_type(gxp.int16, 7) is gt.int16
    assert gxp.result_type(gxp.int8, 1.0) is gt.get_default_dtype()
    with pytest.raises(ValueError, match="result_type"):
        gxp.result_type(1, 2.0)
