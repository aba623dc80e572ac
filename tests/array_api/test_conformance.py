"""gtensor.array_api walks the standard's function list: names, call signatures, promotion table,
and the special cases of the complex functions.

``array_api_strict`` (the standard's reference namespace, in the test extra)
supplies the 2024.12 list and signatures: every function it has must exist
here and accept the same positional arguments and keywords, and ``result_type``
must agree with its table wherever the standard defines one.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import gtensor as gt
import gtensor.array_api as gxp

strict = pytest.importorskip("array_api_strict")

# Added by the standard after 2024.12.
ABSENT = {"broadcast_shapes", "isin"}
HELPERS = {"ArrayAPIStrictFlags", "Device", "get_array_api_strict_flags", "__version__",
           "set_array_api_strict_flags", "reset_array_api_strict_flags"}


@pytest.fixture(scope="module", autouse=True)
def _version_2024() -> Iterator[None]:
    strict.set_array_api_strict_flags(api_version="2024.12")
    yield
    strict.reset_array_api_strict_flags()


def _standard_names() -> list[tuple[str, str]]:
    names = [("", n) for n in strict.__all__ if n not in HELPERS]
    for ext in ("linalg", "fft"):
        module = getattr(strict, ext)
        names += [(ext + ".", n) for n in dir(module)
                  if inspect.isfunction(getattr(module, n)) and not n.startswith("_")
                  and getattr(module, n).__module__ == f"array_api_strict._{ext}"]
    return names


_MISSING = object()


def _lookup(namespace: object, path: str, name: str) -> object:
    return getattr(getattr(namespace, path[:-1]) if path else namespace, name, _MISSING)


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


_PARTS = (math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -0.5)
COMPLEX_SPECIAL = np.array([complex(a, b) for a in _PARTS for b in _PARTS])
"""Every pairing of IEEE edge values (and two ordinary ones) as real and imaginary parts."""


def _standard_sign(z: np.ndarray) -> np.ndarray:
    """The standard's complex ``sign``: ``z / |z|``, 0 at 0, ``nan+nanj`` with a NaN part."""
    with np.errstate(all="ignore"):
        out = np.where(z == 0, 0j, z / np.abs(z))
    return np.where(np.isnan(z.real) | np.isnan(z.imag), complex(math.nan, math.nan), out)


def _same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where two results agree: NaN with NaN, zeros by sign, finite values to rounding."""
    if want.dtype.kind == "c":
        return _same(got.real, want.real) & _same(got.imag, want.imag)
    if want.dtype.kind == "b":
        return got == want
    close = np.isclose(got, want, rtol=1e-12, atol=0) & (np.signbit(got) == np.signbit(want))
    return (np.isnan(got) & np.isnan(want)) | close | (np.isinf(want) & (got == want))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_special_cases_follow_the_standard(device: str, dtype: str) -> None:
    z = COMPLEX_SPECIAL.astype(dtype)
    x = gxp.asarray(z, device=device)
    refs = {"abs": np.abs, "sign": _standard_sign, "isnan": np.isnan, "isinf": np.isinf,
            "isfinite": np.isfinite, "conj": np.conj, "real": np.real, "imag": np.imag,
            "negative": np.negative, "square": np.square, "exp": np.exp, "log": np.log,
            "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
            "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asin": np.arcsin,
            "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
            "atanh": np.arctanh}
    with np.errstate(all="ignore"):
        for name, ref in refs.items():
            got, want = getattr(gxp, name)(x).cpu().numpy(), ref(z)
            assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
            if dtype == "complex64" and want.dtype.kind in "fc":
                got, want = got.astype(np.complex128), want.astype(np.complex128)
                ok = _same(got, want) | np.isclose(got, want, rtol=1e-6)
            else:
                ok = _same(got, want)
            assert ok.all(), (name, z[~ok], got[~ok], want[~ok])
    assert gxp.equal(x, x).cpu().numpy().tolist() == (z == z).tolist()
    assert gxp.isdtype(x.dtype, "complex floating") and not gxp.isdtype(x.dtype, "real floating")
