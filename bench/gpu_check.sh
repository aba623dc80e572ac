#!/usr/bin/env bash
# GPU check: the test suite's cuda side on the GPU and the quick CUDA benchmark, into OUTDIR.
#
# Usage: bench/gpu_check.sh OUTDIR
#
# Needs no internet: gtensor is installed from this checkout without dependencies (or, when
# pip cannot install it, put on PYTHONPATH through a small link tree). Wheels found in .whl/
# (for example numpy<2.5, which numba-cuda 0.30 needs) are unpacked first and put ahead on
# PYTHONPATH. Each step has its own time limit so that the whole script ends in under 8
# minutes on one H200; a step that runs out of time is stopped with SIGINT (pytest then still
# prints its summary, the benchmark still writes what it measured). Limits (seconds) can be
# changed through INSTALL_S, TESTS_S and BENCH_S; SKIP_INSTALL=1 skips pip. Writes:
# nvidia-smi.txt, install.log, pytest.log, tests.txt (pytest's final summary lines),
# bench-cuda.log, bench-cuda.json, bench-cuda.png, bench-launch-numba.{log,json},
# summary.txt. Exits non-zero when a step failed.
set -uo pipefail

OUT=${1:?usage: bench/gpu_check.sh OUTDIR}
PY=${PYTHON:-python3}
INSTALL_S=${INSTALL_S:-25}   # per pip attempt (two at most)
TESTS_S=${TESTS_S:-255}
BENCH_S=${BENCH_S:-85}
LAUNCH_S=${LAUNCH_S:-25}  # the per-op cases with GTENSOR_CUDA_LAUNCH=numba
SKIP_INSTALL=${SKIP_INSTALL:-0}  # 1: do not pip install, use the link tree

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
export PYTHONUNBUFFERED=1
export NUMBA_CACHE_DIR="$SCRATCH/numba-cache"
unset NUMBA_ENABLE_CUDASIM

summary() { echo "$*" | tee -a "$OUT/summary.txt"; }
: >"$OUT/summary.txt"
started=$SECONDS

nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1 || summary "nvidia-smi: failed (no driver?)"

# Wheels carried along (.whl/) go first on the path.
if compgen -G "$ROOT/.whl/*.whl" >/dev/null; then
    if timeout "$INSTALL_S" "$PY" -m pip install -q --no-index --no-deps --no-compile \
        --no-cache-dir --upgrade --target "$SCRATCH/wheels" "$ROOT"/.whl/*.whl \
        >>"$OUT/install.log" 2>&1; then
        export PYTHONPATH="$SCRATCH/wheels${PYTHONPATH:+:$PYTHONPATH}"
    else
        summary "wheels: .whl/ could not be installed (see install.log)"
    fi
fi
"$PY" -c "import numpy, numba, numba_cuda; print('numpy', numpy.__version__, 'numba',
numba.__version__, 'numba-cuda', numba_cuda.__version__)" >>"$OUT/install.log" 2>&1

# Install gtensor (and bench) from this checkout, offline.
install_ok=0
extras=("" "--break-system-packages")
[ "$SKIP_INSTALL" = 1 ] && extras=()
for extra in "${extras[@]}"; do
    # shellcheck disable=SC2086
    if timeout "$INSTALL_S" "$PY" -m pip install -e . --no-deps --no-build-isolation \
        --no-index $extra >>"$OUT/install.log" 2>&1; then
        install_ok=1
        break
    fi
done
if [ "$install_ok" = 0 ]; then
    # gtensor.kernels lives in kernels/ at the top; mirror the installed layout with links.
    mkdir -p "$SCRATCH/path/gtensor"
    for entry in "$ROOT"/gtensor/*; do ln -s "$entry" "$SCRATCH/path/gtensor/"; done
    ln -s "$ROOT/kernels" "$SCRATCH/path/gtensor/kernels"
    export PYTHONPATH="$SCRATCH/path:$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    echo "gtensor not installed by pip; using PYTHONPATH=$PYTHONPATH" >>"$OUT/install.log"
fi
if "$PY" -c "import gtensor, bench; assert gtensor.cuda.is_available()" >>"$OUT/install.log" 2>&1
then
    summary "install: ok ($([ "$install_ok" = 1 ] && echo pip || echo PYTHONPATH))"
else
    summary "install: gtensor does not import or sees no CUDA device (see install.log)"
fi
summary "libraries: $("$PY" -c "import gtensor as gt; c = gt.backends.cudnn
print('cudnn', c.version() if c.is_available() else 'absent (im2col convolutions)')" 2>&1 | tail -n 1)"

# The suite on the real device: every test but the cpu parametrizations (CI runs those), the
# gpu tier included.
timeout --signal=INT --kill-after=15 "$TESTS_S" \
    "$PY" -m pytest -n 8 -q -p no:cacheprovider -k "not cpu" >"$OUT/pytest.log" 2>&1
tests_rc=$?
grep -E "^(FAILED|ERROR) |^=+ .*(passed|failed|error).* =+$|^[0-9]+ (passed|failed)" \
    "$OUT/pytest.log" >"$OUT/tests.txt"
case $tests_rc in
    0) summary "pytest -n 8 -k 'not cpu': passed ($(tail -n 1 "$OUT/tests.txt"))" ;;
    124|130) summary "pytest -n 8: stopped after ${TESTS_S}s" ;;
    *) summary "pytest -n 8: failed (exit $tests_rc): $(tail -n 1 "$OUT/tests.txt")" ;;
esac

# The quick benchmark on the GPU.
timeout --signal=INT --kill-after=20 "$BENCH_S" \
    "$PY" -m bench --device cuda --json "$OUT/bench-cuda.json" --plot "$OUT/bench-cuda.png" \
    >"$OUT/bench-cuda.log" 2>&1
bench_rc=$?
case $bench_rc in
    0) summary "python -m bench --device cuda: ok" ;;
    124|130) summary "python -m bench --device cuda: stopped after ${BENCH_S}s" ;;
    *) summary "python -m bench --device cuda: failed (exit $bench_rc)" ;;
esac

# Planned launches go straight through cuda.core (the benchmark above); how many plans took
# that path (or why not), and the per-op cases again with Numba's own launches.
summary "launches: $("$PY" -c "import gtensor as gt
a = gt.randn(100, device='cuda', requires_grad=True)
((a * a + 1).relu().exp().sum()).backward(); gt.cuda.synchronize()
from gtensor.kernels.cuda import raw_launch; print(dict(raw_launch.OUTCOMES))" 2>&1 | tail -n 1)"
GTENSOR_CUDA_LAUNCH=numba timeout --signal=INT --kill-after=10 "$LAUNCH_S" \
    "$PY" -m bench --device cuda --only overhead.add overhead.chain_forward \
    overhead.chain_backward elementwise.exp --json "$OUT/bench-launch-numba.json" \
    >"$OUT/bench-launch-numba.log" 2>&1 || summary "bench with Numba's launches: exit $?"
for log in bench-cuda.log bench-launch-numba.log; do
    summary "$log: $(grep -E "^overhead.add " "$OUT/$log")"
done

summary "total: $((SECONDS - started)) s"
[ "$tests_rc" = 0 ] && [ "$bench_rc" = 0 ]
