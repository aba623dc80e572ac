"""Tests for the Philox4x32-10 random kernels on cpu and on the simulated cuda device."""

import importlib
import math

import numba
import numpy as np
import pytest
from kernel_inputs import lookup
from numba import cuda

try:
    import gtensor.kernels as kernel_package
except ImportError:
    import kernels as kernel_package

PACKAGE = kernel_package.__name__
philox = importlib.import_module(f"{PACKAGE}.common.philox")
random_args = importlib.import_module(f"{PACKAGE}.common.random_args")
cpu_random = importlib.import_module(f"{PACKAGE}.cpu.random")

KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]
N_CPU = 100_000
N_SIM = 256
SEED = 0x1234_5678_9ABC_DEF0
OFFSET = 2**32 - 100  # element 100 carries into the counter's second word
FLOATS = ("float16", "float32", "float64")
# Asymptotic critical values at a significance level of 0.001.
KS_CRITICAL = 1.95
CHI2_CRITICAL_DF9 = 27.88


def reference_blocks(seed, offset, n):
    """Philox4x32-10 outputs for counters offset..offset+n-1, vectorized in NumPy."""
    counter = (np.arange(n, dtype=object) + offset) % 2**64
    c0 = np.array([int(c) & 0xFFFFFFFF for c in counter], dtype=np.uint64)
    c1 = np.array([int(c) >> 32 for c in counter], dtype=np.uint64)
    c2 = np.zeros(n, np.uint64)
    c3 = np.zeros(n, np.uint64)
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    mask = np.uint64(0xFFFFFFFF)
    for _ in range(10):
        p0 = c0 * np.uint64(0xD2511F53)
        p1 = c2 * np.uint64(0xCD9E8D57)
        c0, c1, c2, c3 = (
            (p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0),
            p1 & mask,
            (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1),
            p0 & mask,
        )
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return c0, c1, c2, c3


def reference_layout(seed, offset, n, per):
    """Each of ``n`` values' Philox block (``(n, 4)`` words) and slot, at ``per`` per counter.

    Follows the layout of ``common/philox.py``: value ``i`` is slot
    ``i % (32 * per) // 32`` of counter ``i // (32 * per) * 32 + i % 32``.
    """
    i = np.arange(n)
    group, rem = divmod(i, 32 * per)
    slot, lane = divmod(rem, 32)
    counter = group * 32 + lane
    blocks = np.stack(reference_blocks(seed, offset, int(counter.max()) + 1), axis=1)
    return blocks[counter], slot


def unit53(hi, lo):
    return ((hi >> np.uint64(5)) * np.uint64(2**26) + (lo >> np.uint64(6))) * 2.0**-53


def draw(op, backend, dtype, n, *args, seed=SEED, offset=OFFSET, **kwargs):
    """Run a kernel through the dispatch table on a poisoned output."""
    out = np.empty(n, dtype=dtype)
    out.view(np.uint8)[...] = 0xA5
    lookup(op, backend, (np.dtype(dtype).name,))(out, seed, offset, *args, **kwargs)
    return out


def ks_statistic(samples, cdf):
    x = np.sort(np.asarray(samples, dtype=np.float64))
    f = cdf(x)
    n = x.size
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def normal_cdf(x):
    return 0.5 * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


# ---------------------------------------------------------------- Philox itself


@pytest.mark.parametrize("counter, key, expected", KAT)
def test_philox_known_answers_python_and_njit(counter, key, expected):
    words = [np.uint64(w) for w in (*counter, *key)]
    assert tuple(int(w) for w in philox.philox4x32_10(*words)) == expected
    compiled = cpu_random._dev.philox4x32_10(*words)
    assert tuple(int(w) for w in compiled) == expected


def _kat_kernel(device_philox):
    @cuda.jit
    def kat_kernel(inp, out):
        t = cuda.grid(1)
        if t < inp.shape[0]:
            w = device_philox(inp[t, 0], inp[t, 1], inp[t, 2], inp[t, 3], inp[t, 4], inp[t, 5])
            for j in range(4):
                out[t, j] = w[j]

    return kat_kernel


def test_philox_known_answers_cuda_device_function():
    cuda_random = importlib.import_module(f"{PACKAGE}.cuda.random")
    kat_kernel = _kat_kernel(cuda_random._dev.philox4x32_10)
    inp = np.array([[*c, *k] for c, k, _ in KAT], dtype=np.uint64)
    out = np.zeros((len(KAT), 4), dtype=np.uint64)
    kat_kernel[1, 32](inp, out)
    assert [tuple(int(w) for w in row) for row in out] == [e for _, _, e in KAT]


def test_reference_matches_known_answers():
    c0, c1, c2, c3 = reference_blocks(0, 0, 1)
    assert (int(c0[0]), int(c1[0]), int(c2[0]), int(c3[0])) == KAT[0][2]


def test_split_scale_is_exact_and_narrow():
    for d in (1.0, 0.1, -3.3e-5, 1e300, 2.0**-1000, 7.0):
        parts = random_args.split_scale(d)
        assert sum(parts) == d
        for part in parts:
            if part:
                mantissa = abs(math.frexp(part)[0])
                assert (mantissa * 2**random_args.SCALE_PART_BITS).is_integer()


# ---------------------------------------------------------------- exact bit semantics


def test_uniform_bits_and_counters():
    n = 1000  # seven full groups of four-value counters and a partial one
    blocks, slot = reference_layout(SEED, OFFSET, n, 4)
    word = blocks[np.arange(n), slot]
    got32 = draw("random_uniform", "cpu", np.float32, n, 0.0, 1.0)
    np.testing.assert_array_equal(got32, (word >> np.uint64(8)).astype(np.float64) * 2.0**-24)
    blocks, slot = reference_layout(SEED, OFFSET, n, 2)
    rows = np.arange(n)
    got64 = draw("random_uniform", "cpu", np.float64, n, 0.0, 1.0)
    np.testing.assert_array_equal(got64, unit53(blocks[rows, 2 * slot], blocks[rows, 2 * slot + 1]))


def test_integers_are_multiply_shift_of_64_bits():
    low, high = -1000, 123_456_789
    blocks, slot = reference_layout(SEED, OFFSET, 500, 2)
    got = draw("random_integers", "cpu", np.int64, 500, low, high)
    bits = [(int(b[2 * s]) << 32) | int(b[2 * s + 1]) for b, s in zip(blocks, slot, strict=True)]
    assert got.tolist() == [low + ((x * (high - low)) >> 64) for x in bits]


def test_normal_is_box_muller_on_pairs_and_bernoulli_on_words():
    n = 300
    rows = np.arange(n)
    blocks, slot = reference_layout(SEED, OFFSET, n, 4)
    pair = slot // 2 * 2
    u1, u2 = 1.0 - blocks[rows, pair] * 2.0**-32, blocks[rows, pair + 1] * 2.0**-32
    angle = 2 * np.pi * u2
    z = np.sqrt(-2.0 * np.log(u1)) * np.where(slot % 2 == 0, np.cos(angle), np.sin(angle))
    got32 = draw("random_normal", "cpu", np.float32, n, 1.0, 2.0)
    np.testing.assert_allclose(got32, (1.0 + 2.0 * z).astype(np.float32), rtol=1e-6, atol=1e-6)
    mask = draw("random_bernoulli", "cpu", np.bool_, n, 0.3)
    np.testing.assert_array_equal(mask, blocks[rows, slot] * 2.0**-32 < 0.3)
    blocks, slot = reference_layout(SEED, OFFSET, n, 2)
    u1 = 1.0 - unit53(blocks[:, 0], blocks[:, 1])
    angle = 2 * np.pi * unit53(blocks[:, 2], blocks[:, 3])
    z = np.sqrt(-2.0 * np.log(u1)) * np.where(slot == 0, np.cos(angle), np.sin(angle))
    np.testing.assert_allclose(draw("random_normal", "cpu", np.float64, n, 0.0, 1.0), z,
                               rtol=1e-12, atol=1e-12)


def test_extra_kernels_follow_the_layout():
    n, rows = 150, np.arange(150)
    blocks, slot = reference_layout(SEED, OFFSET, n, 4)
    u32 = blocks[rows, slot] * 2.0**-32
    p = np.linspace(0.0, 1.0, n)
    got = np.empty(n, np.bool_)
    lookup("random_bernoulli_tensor", "cpu", ("float64",))(got, SEED, OFFSET, p)
    np.testing.assert_array_equal(got, u32 < p)
    got = draw("random_dropout_mask", "cpu", np.float32, n, 0.6, 2.5)
    np.testing.assert_array_equal(got, np.where(u32 < 0.6, 2.5, 0.0).astype(np.float32))
    blocks, slot = reference_layout(SEED, OFFSET, n, 2)
    u53 = unit53(blocks[rows, 2 * slot], blocks[rows, 2 * slot + 1])
    w = np.linspace(0.5, 2.0, n)
    got = np.empty(n)
    lookup("random_exponential_keys", "cpu", ("float64",))(got, SEED, OFFSET, w)
    np.testing.assert_allclose(got, -np.log1p(-u53) / w, rtol=1e-12)


@pytest.mark.parametrize("n, per", [(1, 4), (31, 2), (32, 4), (129, 4), (100, 2), (4096, 4)])
def test_a_draw_takes_at_most_n_counters(n, per):
    used = random_args.counters(n, per)
    lane = np.arange(n) % (32 * per) % 32
    assert used == int((np.arange(n) // (32 * per) * 32 + lane).max()) + 1 <= n


def test_offset_advances_and_parallel_matches_serial():
    n = cpu_random.PARALLEL_THRESHOLD + 1000
    start = 2**64 - 10
    for op, args, dtype, per in [
        ("random_uniform", (-1.0, 2.0), np.float32, 4),
        ("random_normal", (0.0, 1.0), np.float64, 2),
        ("random_integers", (0, 7), np.int16, 2),
        ("random_bernoulli", (0.4,), np.bool_, 4),
    ]:
        big = draw(op, "cpu", dtype, n, *args, offset=start)
        head = draw(op, "cpu", dtype, 300, *args, offset=start)
        groups = (n - 300) // (32 * per)  # a draw starting that many groups later
        tail = draw(op, "cpu", dtype, n - groups * 32 * per, *args,
                    offset=(start + groups * 32) % 2**64)
        np.testing.assert_array_equal(big[:300], head)
        np.testing.assert_array_equal(big[-300:], tail[-300:])


# Values 0, 1, 32, 33 of a 70-value draw are slots 0 and 1 of counters 0 and 1; value 69 is
# slot 2 of counter 5 at four values per counter, slot 0 of counter 37 at two.
GOLDEN_AT = [0, 1, 32, 33, 69]
GOLDEN = [
    ((42, 0), "random_uniform", "float32",
     [0.6129598617553711, 0.9877186417579651, 0.4685865044593811, 0.32706332206726074,
      0.051783859729766846]),
    ((42, 0), "random_uniform", "float64",
     [0.6129598801477738, 0.9877186516453577, 0.07323173687503892, 0.513906146990624,
      0.16882130220302694]),
    ((42, 0), "random_normal", "float32",
     [-1.3510922193527222, -1.3808555603027344, 0.2701919674873352, 2.625373363494873,
      0.31555020809173584]),
    ((42, 0), "random_normal", "float64",
     [1.2345418209781556, -2.9550533674680803, 0.6118499302684758, -0.25885655924451106,
      0.601483955187433]),
    ((42, 0), "random_integers", "int64", [612, 987, 73, 513, 168]),
    ((42, 0), "random_bernoulli", "bool", [False, False, True, True, True]),
    ((2**64 - 3, 2**64 - 5), "random_uniform", "float32",
     [0.6593340635299683, 0.4798809289932251, 0.5476388335227966, 0.3446773290634155,
      0.5339848399162292]),
    ((2**64 - 3, 2**64 - 5), "random_normal", "float64",
     [-1.0048589897311861, -0.9784133779887636, 1.0695626952631616, -0.5916945710181141,
      -0.1753458543989598]),
    ((2**64 - 3, 2**64 - 5), "random_integers", "int64", [659, 479, 370, 586, 801]),
    ((2**64 - 3, 2**64 - 5), "random_bernoulli", "bool", [False, True, False, True, False]),
]
GOLDEN_ARGS = {"random_uniform": (0.0, 1.0), "random_normal": (0.0, 1.0),
               "random_integers": (0, 1000), "random_bernoulli": (0.5,)}


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_known_values_for_fixed_seeds(backend):
    for (seed, offset), op, dtype, expected in GOLDEN:
        got = draw(op, backend, dtype, 70, *GOLDEN_ARGS[op], seed=seed, offset=offset)
        if op == "random_normal":
            np.testing.assert_allclose(got[GOLDEN_AT], expected, rtol=1e-12)
        else:
            assert got[GOLDEN_AT].tolist() == expected, (op, dtype, seed)


def test_seed_words_both_matter():
    a = draw("random_uniform", "cpu", np.float64, 64, 0.0, 1.0, seed=5)
    b = draw("random_uniform", "cpu", np.float64, 64, 0.0, 1.0, seed=5 + 2**32)
    c = draw("random_uniform", "cpu", np.float64, 64, 0.0, 1.0, seed=2**64 - 1)
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


# ---------------------------------------------------------------- distributions (cpu, 100k)


@pytest.fixture
def serial_cpu(monkeypatch):
    """Draw with the serial loops: no parallel compile per dtype (the parallel loops are
    checked against the serial ones in test_offset_advances_and_parallel_matches_serial)."""
    monkeypatch.setattr(cpu_random, "PARALLEL_THRESHOLD", 2**62)


@pytest.mark.parametrize("dtype", FLOATS)
def test_uniform_moments_ks_and_bounds(dtype, serial_cpu):
    low, high = -2.0, 3.0
    x = draw("random_uniform", "cpu", dtype, N_CPU, low, high)
    assert x.min() >= low and x.max() < high
    v = x.astype(np.float64)
    assert abs(v.mean() - 0.5) < 0.02 and abs(v.var() - 25.0 / 12.0) < 0.03
    d = ks_statistic(v, lambda t: (t - low) / (high - low))
    assert d < KS_CRITICAL / math.sqrt(N_CPU) + (2e-3 if dtype == "float16" else 0.0)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("low, high", [(0.0, 1.0), (0.0, 0.1), (-1e-3, 7.3), (10.0, 10.5)])
def test_uniform_stays_below_high_in_dtype(dtype, low, high, serial_cpu):
    x = draw("random_uniform", "cpu", dtype, 20_000, low, high)
    top = np.dtype(dtype).type(high)
    assert np.all(x >= np.dtype(dtype).type(low)) and np.all(x < top)


@pytest.mark.parametrize("dtype", FLOATS)
def test_normal_moments_and_ks(dtype, serial_cpu):
    x = draw("random_normal", "cpu", dtype, N_CPU, 1.5, 2.0).astype(np.float64)
    assert np.all(np.isfinite(x))
    assert abs(x.mean() - 1.5) < 0.03 and abs(x.std() - 2.0) < 0.03
    z = (x - 1.5) / 2.0
    assert abs(np.mean(z**3)) < 0.05 and abs(np.mean(z**4) - 3.0) < 0.1
    tolerance = 2e-3 if dtype == "float16" else 0.0
    assert ks_statistic(z, normal_cdf) < KS_CRITICAL / math.sqrt(N_CPU) + tolerance


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", *FLOATS])
def test_integers_chi_square_and_bounds(dtype, serial_cpu):
    low = 0 if dtype.startswith("u") else -4
    x = draw("random_integers", "cpu", dtype, N_CPU, low, low + 10)
    assert np.all(x == np.round(x))
    assert x.min() == low and x.max() == low + 9
    counts = np.bincount((x.astype(np.int64) - low), minlength=10)
    expected = N_CPU / 10
    assert np.sum((counts - expected) ** 2 / expected) < CHI2_CRITICAL_DF9


@pytest.mark.parametrize(
    "dtype, low, high",
    [
        ("int8", -128, 128),
        ("uint8", 0, 256),
        ("int64", -(2**63), 2**63 - 1),
        ("int32", 7, 8),
    ],
)
def test_integers_full_and_single_value_ranges(dtype, low, high, serial_cpu):
    x = draw("random_integers", "cpu", dtype, 20_000, low, high)
    assert int(x.min()) >= low and int(x.max()) < high
    if high - low <= 256:
        assert len(np.unique(x)) == high - low


@pytest.mark.parametrize("dtype", ["bool", "uint8", *FLOATS])
@pytest.mark.parametrize("p", [0.0, 0.03, 0.5, 1.0])
def test_bernoulli_rate(dtype, p, serial_cpu):
    x = draw("random_bernoulli", "cpu", dtype, N_CPU, p)
    assert set(np.unique(x.astype(np.float64)).tolist()) <= {0.0, 1.0}
    rate = x.astype(np.float64).mean()
    assert abs(rate - p) <= 4.5 * math.sqrt(p * (1 - p) / N_CPU)


# ---------------------------------------------------------------- cpu == simulated cuda


CROSS_CASES = [
    *[("random_uniform", (-2.0, 3.0), dt) for dt in FLOATS],
    ("random_uniform", (0.0, 1.0), "float16"),
    *[("random_normal", (0.5, 3.0), dt) for dt in FLOATS],
    *[("random_integers", (-50, 77), dt) for dt in ("int8", "int32", "int64", *FLOATS)],
    ("random_integers", (0, 255), "uint8"),
    ("random_integers", (-(2**63), 2**63 - 1), "int64"),
    *[("random_bernoulli", (0.3,), dt) for dt in ("bool", "uint8", *FLOATS)],
]


@pytest.mark.parametrize("op, args, dtype", CROSS_CASES)
def test_cpu_and_simulated_cuda_agree(op, args, dtype):
    seed, offset = 2**64 - 3, 2**32 - N_SIM // 2
    on_cpu = draw(op, "cpu", dtype, N_SIM, *args, seed=seed, offset=offset)
    on_cuda = draw(op, "cuda", dtype, N_SIM, *args, seed=seed, offset=offset)
    if op == "random_normal":
        np.testing.assert_allclose(on_cuda, on_cpu, rtol=1e-6, atol=0)
    else:
        np.testing.assert_array_equal(on_cuda.view(np.uint8), on_cpu.view(np.uint8))


def test_cuda_stream_keyword_and_launch_config():
    cuda_random = importlib.import_module(f"{PACKAGE}.cuda.random")
    threads = cuda_random.THREADS
    assert threads % philox.GROUP == 0
    assert cuda_random.launch_config(1) == (1, threads)
    assert cuda_random.launch_config(threads + 1) == (2, threads)
    blocks, _ = cuda_random.launch_config(10**8)
    assert blocks >= 2 and blocks == cuda_random.launch_config(10**9)[0]
    reference = draw("random_uniform", "cpu", np.float32, 100, 0.0, 1.0)
    on_stream = draw("random_uniform", "cuda", np.float32, 100, 0.0, 1.0, stream=cuda.stream())
    np.testing.assert_array_equal(on_stream, reference)


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_stream_ignored_on_cpu_and_empty_output(backend):
    out = np.empty(0, np.float32)
    lookup("random_uniform", backend, ("float32",))(out, 1, 0, 0.0, 1.0, stream=None)
    x = draw("random_uniform", "cpu", np.float32, 10, 0.0, 1.0, stream=object())
    assert np.all((x >= 0) & (x < 1))


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
@pytest.mark.parametrize(
    "op, args, dtype, error",
    [
        ("random_uniform", (1.0, 1.0), "float32", ValueError),
        ("random_uniform", (0.0, float("inf")), "float64", ValueError),
        ("random_normal", (0.0, -1.0), "float32", ValueError),
        ("random_integers", (0, 300), "uint8", ValueError),
        ("random_integers", (-(2**63), 2**63), "int64", ValueError),
        ("random_integers", (0.5, 3), "int32", TypeError),
        ("random_bernoulli", (1.5,), "bool", ValueError),
    ],
)
def test_argument_errors_name_the_op(backend, op, args, dtype, error):
    with pytest.raises(error, match=rf"\[{op}\]"):
        draw(op, backend, dtype, 4, *args)


@pytest.mark.parametrize("seed, offset", [(-1, 0), (2**64, 0), (0, -5), (0, 2**64)])
def test_seed_and_offset_range(seed, offset):
    with pytest.raises(ValueError, match=r"\[random_uniform\]"):
        draw("random_uniform", "cpu", np.float64, 4, 0.0, 1.0, seed=seed, offset=offset)


def test_cpu_kernels_have_stable_names():
    serial, parallel = cpu_random._UNIFORM
    assert serial.py_func.__name__ == "gtensor_random_uniform_cpu"
    assert parallel.py_func.__name__ == "gtensor_random_uniform_cpu_parallel"
    assert parallel.targetoptions.get("parallel") and not serial.targetoptions.get("parallel")
    assert isinstance(serial, numba.core.registry.CPUDispatcher)
