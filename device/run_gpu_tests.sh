#!/usr/bin/env bash
# The GPU tests: `ozref lockstep` of every scheme with GPU twins on the data, shapes and bounds of
# issue 17, planted faults found at their stage, a timed 4096^3 lockstep, and the MMA level (one
# GEMM through each instruction ozref's kernels issue, against the sm_90 model). Each case's JSON
# report goes to OUT/cases/<name>.json and one line per case to OUT/summary.txt; the last line
# says how many passed, failed and were skipped. Needs an sm_90 GPU (the tcgen05 cases: an sm_100 one), python3 (with NumPy, for the inputs scaled by
# 2^+-300 and the checks) and an ozref with CUDA (scripts/gpu_bundle.sh builds a relocatable one).
# Usage: bash run_gpu_tests.sh OZREF OUT [quick|tcgen05]; tcgen05: only the cases of the sm_100a
# tcgen05 kernel (on a B200; elsewhere they are refused and reported as skipped, not passed).
set -u
oz=$1 out=$2 quick=${3:-}
here=$(cd "$(dirname "$0")" && pwd)  # lockstep_case.py lies beside this script
mkdir -p "$out/cases" "$out/inputs"
"$oz" lockstep --m 1 --n 1 --k 1 >"$out/gpu-check.txt" 2>&1
if [ $? -eq 77 ]; then
  cat "$out/gpu-check.txt"
  exit 77
fi
summary="$out/summary.txt"
: >"$summary"
passed=0 failed=0 skipped=0

# case NAME EXPECT CHECK -- lockstep arguments: EXPECT the exit code; CHECK "identical" (every
# compared stage bit-identical), "fault:<stage>" (the first differing stage is that one and every
# later stage is identical), "fault-first:<stage>" (free-running: that stage differs first) or
# "presence-fails:<stage>" (run with that stage's twin disabled: the presence check must fail on
# it). Every case also holds what the device ran to what the request asks of it, and fails on an
# element never written (lockstep_case.py).
case_() {
  local name=$1 expect=$2 check=$3
  shift 4
  local t0=$(date +%s.%N) disable=
  case $check in presence-fails:*) disable=${check#presence-fails:} ;; esac
  if [ -n "$disable" ]; then
    OZREF_GPU_DISABLE_TWIN=$disable timeout 240 "$oz" lockstep --json "$@" >"$out/cases/$name.json" 2>"$out/cases/$name.err"
  else
    timeout 240 "$oz" lockstep --json "$@" >"$out/cases/$name.json" 2>"$out/cases/$name.err"
  fi
  local rc=$? t1=$(date +%s.%N)
  local verdict
  verdict=$(python3 "$here/lockstep_case.py" "$out/cases/$name.json" "$rc" "$expect" "$check" "$@")
  # a failure shows the first line ozref wrote to stderr (an error's reason)
  case $verdict in PASS*) ;; *) verdict="$verdict | $(grep -m1 . "$out/cases/$name.err" | cut -c1-200)" ;; esac
  printf '%-44s %-70s %6.1f s\n' "$name" "$verdict" "$(awk "BEGIN { print $t1 - $t0 }")" | tee -a "$summary"
  case $verdict in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
}

# skip_ NAME WHY: a case not run here, counted as skipped.
skip_() {
  printf '%-44s %-70s\n' "$1" "SKIP: $2" | tee -a "$summary"
  skipped=$((skipped + 1))
}

# mma_case NAME INEXACT -- lockstep --op arguments: one GEMM through an instruction on the GPU and
# through the sm_90 model, every output bit-identical; INEXACT "some" also requires outputs where
# the model is not exact (the data reaches the accumulator's limits), "none" requires none, "any"
# either.
mma_case() {
  local name=$1 inexact=$2
  shift 3
  local t0=$(date +%s.%N)
  timeout 240 "$oz" lockstep --json "$@" >"$out/cases/$name.json" 2>"$out/cases/$name.err"
  local rc=$? t1=$(date +%s.%N)
  local verdict
  verdict=$(python3 - "$out/cases/$name.json" "$rc" "$inexact" <<'PY'
import json, sys
path, rc, inexact = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"FAIL exit {rc}, no report ({e})"); sys.exit()
ok = rc == 0 and r["identical"] and r["outputs"] > 0
ok = ok and (inexact == "any" or (inexact == "some") == (r["inexact"] > 0))
print(("PASS" if ok else "FAIL") + f" {r['outputs'] - r['mismatched']}/{r['outputs']} identical, model not exact at {r['inexact']}")
PY
)
  printf '%-44s %-70s %6.1f s\n' "$name" "$verdict" "$(awk "BEGIN { print $t1 - $t0 }")" | tee -a "$summary"
  case $verdict in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
}

# ozref's tcgen05 kernel (sm_100a only): on an sm_100 GPU every form it issues at the MMA level
# against the sm_100 model (encodings, shapes that are not multiples of the 128 x 128 x 64 tile,
# K at the chain's edges, the INT8 limits), and the FP4 schemes with their GEMM stage on it. On
# any other GPU the kernel must be refused before launch (exit 2, naming sm_100); its cases are
# then skipped, and counted as skipped, not passed.
tcgen05_cases() {
  local tc=tcgen05.mma.cta_group::1
  if ! grep -q "(sm_100," "$out/gpu-check.txt"; then
    "$oz" lockstep --op "$tc.kind::f8f6f4.e2m1.e2m1" --arch sm_100 --m 128 --n 128 --k 32 >"$out/cases/tcgen05-here.txt" 2>&1
    local rc=$? verdict
    if [ $rc -eq 2 ] && grep -q "runs on sm_100 only" "$out/cases/tcgen05-here.txt"; then
      verdict="PASS exit 2: $(tail -1 "$out/cases/tcgen05-here.txt" | cut -c1-60)"
      passed=$((passed + 1))
    else
      verdict="FAIL exit $rc, expected 2 and 'runs on sm_100 only'"
      failed=$((failed + 1))
    fi
    printf '%-44s %-70s\n' "tcgen05-refused-off-sm_100" "$verdict" | tee -a "$summary"
    skip_ "tcgen05-sm_100-cases" "the tcgen05 kernel runs on sm_100 only; this GPU is $(grep -o '(sm_[0-9]*' "$out/gpu-check.txt" | head -1 | tr -d '(')"
    return
  fi
  for op in kind::f8f6f4.e2m1.e2m1 kind::f8f6f4.e4m3.e4m3 kind::f8f6f4.e5m2.e5m2 kind::i8.s8.s8 kind::i8.u8.u8 \
            kind::i8.satfinite.s8.s8 kind::i8.satfinite.u8.u8; do
    mma_case "tcgen05-$op-encodings" any -- --op "$tc.$op" --arch sm_100 --dist encodings --m 130 --n 260 --k 1000
  done
  for shape in "1 1 1" "7 33 17" "128 128 32" "129 127 33" "128 128 64" "127 129 65" "257 513 100" "128 128 4096"; do
    set -- $shape
    mma_case "tcgen05-e2m1-shape-$1x$2x$3" any -- --op "$tc.kind::f8f6f4.e2m1.e2m1" --arch sm_100 --dist encodings --m "$1" --n "$2" --k "$3"
    mma_case "tcgen05-s8-shape-$1x$2x$3" any -- --op "$tc.kind::i8.s8.s8" --arch sm_100 --dist integers:127 --m "$1" --n "$2" --k "$3"
  done
  mma_case "tcgen05-e2m1-finite-65536" any -- --op "$tc.kind::f8f6f4.e2m1.e2m1" --arch sm_100 --dist finite --m 64 --n 64 --k 65536
  mma_case "tcgen05-e4m3-randn-65536" any -- --op "$tc.kind::f8f6f4.e4m3.e4m3" --arch sm_100 --dist randn --m 64 --n 64 --k 65536
  mma_case "tcgen05-s8-wraps-at-131072" some -- --op "$tc.kind::i8.s8.s8" --arch sm_100 --dist extreme --m 4 --n 8 --k 131072
  mma_case "tcgen05-s8-exact-at-131071" none -- --op "$tc.kind::i8.s8.s8" --arch sm_100 --dist extreme --m 4 --n 8 --k 131071
  mma_case "tcgen05-s8-satfinite-clamps-at-131072" some -- --op "$tc.kind::i8.satfinite.s8.s8" --arch sm_100 --dist extreme --m 4 --n 8 --k 131072
  for scheme in ozaki2-fp4 ozaki1-fp4; do
    for dist in randn phi:2 integers:1000; do
      case_ "tcgen05-$scheme-$dist" 0 identical -- --scheme "$scheme" --arch sm_100 --dist "$dist" --m 130 --n 200 --k 1000
    done
    case_ "tcgen05-$scheme-complex" 0 identical -- --scheme "$scheme" --arch sm_100 --complex --dist phi:1 --m 33 --n 20 --k 700
  done
  case_ "tcgen05-ozaki2-fp4-k-bound-116509" 0 identical -- --scheme ozaki2-fp4 --arch sm_100 --dist integers:1000 --m 2 --n 3 --k 116509
  case_ "tcgen05-ozaki1-fp4-k-bound-262144" 0 identical -- --scheme ozaki1-fp4 --arch sm_100 --slices 4 --dist phi:1 --m 2 --n 3 --k 262144
  case_ "tcgen05-int8-on-fp4-64x48x1000" 0 identical -- --scheme int8-on-fp4 --arch sm_100 --dist integers:127 --m 64 --n 48 --k 1000
  case_ "tcgen05-int8-on-fp4-k-bound-262144" 0 identical -- --scheme int8-on-fp4 --arch sm_100 --dist integers:127 --m 2 --n 3 --k 262144
  case_ "tcgen05-ozaki2-int8" 0 identical -- --scheme ozaki2-int8 --arch sm_100 --dist phi:1 --m 130 --n 200 --k 1000
  case_ "tcgen05-ozaki2-fp8" 0 identical -- --scheme ozaki2-fp8 --arch sm_100 --dist phi:1 --m 130 --n 200 --k 1000
}
tcgen05_cases
if [ "$quick" = tcgen05 ]; then
  echo "gpu tests: $passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
  [ "$failed" -eq 0 ]
  exit
fi

# The MMA level: every instruction ozref's kernels issue, on every encoding (K = 1000: padded to 32
# by both, and not a multiple of 16 bytes: the wgmma kernel's padded copy), and at the limits.
sync=mma.sync.aligned.m16n8k32.row.col wg=wgmma.mma_async.sync.aligned.m64nNk32
for op in s32.s8.s8.s32 s32.s8.u8.s32 s32.u8.s8.s32 s32.u8.u8.s32 satfinite.s32.s8.s8.s32 satfinite.s32.s8.u8.s32 \
          satfinite.s32.u8.s8.s32 satfinite.s32.u8.u8.s32 f32.e4m3.e4m3.f32 f32.e5m2.e5m2.f32; do
  mma_case "mma-$op-encodings" any -- --op "$sync.$op" --dist encodings --m 130 --n 260 --k 1000
done
# The FP4 kernel (sm_120a's kind::f8f6f4): on an sm_120 GPU the MMA level like the others; on
# any other, refused with exit 2, saying where it runs.
e2m1="$sync.kind::f8f6f4.f32.e2m1.e2m1.f32"
if grep -q "(sm_120," "$out/gpu-check.txt"; then
  mma_case "mma-e2m1-encodings" any -- --op "$e2m1" --arch sm_120 --dist encodings --m 130 --n 260 --k 1000
else
  "$oz" lockstep --op "$e2m1" --arch sm_120 --m 16 --n 8 --k 32 >"$out/cases/mma-e2m1-here.txt" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && grep -q "runs on sm_120 only" "$out/cases/mma-e2m1-here.txt"; then
    verdict="PASS exit 2: $(tail -1 "$out/cases/mma-e2m1-here.txt" | cut -c1-60)"
    passed=$((passed + 1))
  else
    verdict="FAIL exit $rc, expected 2 and 'runs on sm_120 only'"
    failed=$((failed + 1))
  fi
  printf '%-44s %-70s\n' "mma-e2m1-refused-off-sm_120" "$verdict" | tee -a "$summary"
fi
for op in s32.s8.s8 s32.s8.u8 s32.u8.s8 s32.u8.u8 f32.e4m3.e4m3 f32.e5m2.e5m2; do
  mma_case "wgmma-$op-encodings" any -- --op "$wg.$op" --dist encodings --m 130 --n 260 --k 1000
done
for shape in "1 1 1" "7 33 17" "257 513 100" "64 256 4096"; do
  set -- $shape
  mma_case "wgmma-s8-shape-$1x$2x$3" any -- --op "$wg.s32.s8.s8" --dist integers:127 --m "$1" --n "$2" --k "$3"
  mma_case "wgmma-e4m3-shape-$1x$2x$3" any -- --op "$wg.f32.e4m3.e4m3" --dist finite --m "$1" --n "$2" --k "$3"
done
mma_case "mma-s8-wraps-at-131072" some -- --op "$sync.s32.s8.s8.s32" --dist extreme --m 4 --n 8 --k 131072
mma_case "mma-s8-exact-at-131071" none -- --op "$sync.s32.s8.s8.s32" --dist extreme --m 4 --n 8 --k 131071
mma_case "mma-s8-satfinite-clamps-at-131072" some -- --op "$sync.satfinite.s32.s8.s8.s32" --dist extreme --m 4 --n 8 --k 131072
mma_case "wgmma-s8-wraps-at-131072" some -- --op "$wg.s32.s8.s8" --dist extreme --m 4 --n 8 --k 131072
mma_case "wgmma-s8-exact-at-131071" none -- --op "$wg.s32.s8.s8" --dist extreme --m 4 --n 8 --k 131071
mma_case "wgmma-u8-wraps-at-40000" some -- --op "$wg.s32.u8.u8" --dist extreme --m 4 --n 8 --k 40000
mma_case "wgmma-e4m3-truncates-randn-65536" some -- --op "$wg.f32.e4m3.e4m3" --dist randn --m 64 --n 64 --k 65536
mma_case "wgmma-e4m3-truncates-finite-2048" some -- --op "$wg.f32.e4m3.e4m3" --dist finite --m 128 --n 256 --k 2048
mma_case "mma-e4m3-finite-4096" any -- --op "$sync.f32.e4m3.e4m3.f32" --dist finite --m 64 --n 64 --k 4096
# Mixed signs (s8 x u8: extreme operands -128 and 255, 32640 a product: 65793 of them fit INT32),
# u8 x u8 (65025 a product: 33025 fit) and satfinite's clamps on mma.sync; wgmma's mixed signs.
mma_case "mma-s8u8-wraps-at-65794" some -- --op "$sync.s32.s8.u8.s32" --dist extreme --m 4 --n 8 --k 65794
mma_case "mma-s8u8-exact-at-65793" none -- --op "$sync.s32.s8.u8.s32" --dist extreme --m 4 --n 8 --k 65793
mma_case "mma-s8u8-satfinite-clamps-at-65794" some -- --op "$sync.satfinite.s32.s8.u8.s32" --dist extreme --m 4 --n 8 --k 65794
mma_case "mma-u8-wraps-at-33026" some -- --op "$sync.s32.u8.u8.s32" --dist extreme --m 4 --n 8 --k 33026
mma_case "mma-u8-exact-at-33025" none -- --op "$sync.s32.u8.u8.s32" --dist extreme --m 4 --n 8 --k 33025
mma_case "mma-u8-satfinite-clamps-at-33026" some -- --op "$sync.satfinite.s32.u8.u8.s32" --dist extreme --m 4 --n 8 --k 33026
mma_case "wgmma-s8u8-wraps-at-65794" some -- --op "$wg.s32.s8.u8" --dist extreme --m 4 --n 8 --k 65794
# wgmma's persistent grid taking several tiles a block: 16 x 10 tiles of 128 x 256 (more than the
# H200's 132 multiprocessors), INT8 and FP8, K = 40 (padded copies, one partial K tile); a last K
# tile of 3 steps of 32 (K = 128 q + 96); E5M2's inexact accumulation; FP8 mma.sync over 320 tiles.
mma_case "wgmma-s8-persistent-2000x2500x40" any -- --op "$wg.s32.s8.s8" --dist integers:127 --m 2000 --n 2500 --k 40
mma_case "wgmma-e4m3-persistent-2000x2500x40" any -- --op "$wg.f32.e4m3.e4m3" --dist finite --m 2000 --n 2500 --k 40
mma_case "wgmma-e5m2-persistent-2000x2500x40" any -- --op "$wg.f32.e5m2.e5m2" --dist finite --m 2000 --n 2500 --k 40
mma_case "wgmma-s8-last-k-tile-3-steps-224" any -- --op "$wg.s32.s8.s8" --dist integers:127 --m 130 --n 260 --k 224
mma_case "wgmma-e4m3-last-k-tile-3-steps-4064" any -- --op "$wg.f32.e4m3.e4m3" --dist finite --m 64 --n 64 --k 4064
mma_case "wgmma-e5m2-truncates-finite-2048" some -- --op "$wg.f32.e5m2.e5m2" --dist finite --m 128 --n 256 --k 2048
mma_case "mma-e5m2-truncates-finite-2048" some -- --op "$sync.f32.e5m2.e5m2.f32" --dist finite --m 128 --n 256 --k 2048
mma_case "mma-e4m3-2000x2500x40" any -- --op "$sync.f32.e4m3.e4m3.f32" --dist finite --m 2000 --n 2500 --k 40
# M beyond CUDA's grid y extent (65535 row tiles of 128): refused before launch, exit 2, by name.
"$oz" lockstep --op "$sync.s32.s8.s8.s32" --dist integers:127 --m 8388481 --n 1 --k 1 >"$out/cases/mma-m-beyond-grid-y.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "grid y extent is at most 65535" "$out/cases/mma-m-beyond-grid-y.txt"; then
  verdict="PASS exit 2: $(grep -o 'M = [0-9]* needs [0-9]* row tiles' "$out/cases/mma-m-beyond-grid-y.txt" | head -1)"
  passed=$((passed + 1))
else
  verdict="FAIL exit $rc, expected 2 and 'grid y extent is at most 65535'"
  failed=$((failed + 1))
fi
printf '%-44s %-70s\n' "mma-m-beyond-grid-y-refused" "$verdict" | tee -a "$summary"

# Inputs scaled by 2^+-300 per row of A and column of B (NumPy, C order, f8).
python3 - "$out/inputs" <<'PY'
import numpy as np, sys
d = sys.argv[1]
rng = np.random.default_rng(17)
m, k, n = 33, 1000, 7
a = rng.standard_normal((m, k)) * np.ldexp(1.0, np.where(np.arange(m) % 2 == 0, 300, -300))[:, None]
b = rng.standard_normal((k, n)) * np.ldexp(1.0, np.where(np.arange(n) % 3 == 0, -300, 300))[None, :]
np.save(f"{d}/scaled_a.npy", a); np.save(f"{d}/scaled_b.npy", b)
# complex128 for the complex runs: imaginary parts of the same scales (c16)
za = a + 1j * rng.standard_normal((m, k)) * np.ldexp(1.0, np.where(np.arange(m) % 2 == 0, 300, -300))[:, None]
zb = b - 1j * rng.standard_normal((k, n)) * np.ldexp(1.0, np.where(np.arange(n) % 3 == 0, -300, 300))[None, :]
np.save(f"{d}/scaled_za.npy", za); np.save(f"{d}/scaled_zb.npy", zb)
PY

for scheme in ozaki2-int8 rare; do
  for dist in randn phi:0 phi:0.5 phi:1 phi:2 phi:4 integers:1000 uniform; do
    case_ "$scheme-$dist" 0 identical -- --scheme "$scheme" --dist "$dist" --m 64 --n 48 --k 1000
  done
  case_ "$scheme-scaled2^300" 0 identical -- --scheme "$scheme" --a "$out/inputs/scaled_a.npy" --b "$out/inputs/scaled_b.npy"
  for shape in "1 1 1" "7 7 7" "33 7 1" "1 33 4097" "1000 7 33" "7 1000 33" "33 33 4097" "1000 1000 7"; do
    set -- $shape
    case_ "$scheme-shape-$1x$2x$3" 0 identical -- --scheme "$scheme" --dist phi:1 --m "$1" --n "$2" --k "$3"
  done
  case_ "$scheme-k-bound-131071" 0 identical -- --scheme "$scheme" --dist integers:127 --m 3 --n 5 --k 131071 --moduli 16
done
for mode in fast accurate; do
  for crt in exact garner dd; do
    for moduli in 8 16 18 20; do
      case_ "ozaki2-int8-$mode-$crt-$moduli" 0 identical -- --mode "$mode" --crt "$crt" --moduli "$moduli" --dist phi:2 --m 40 --n 36 --k 512
    done
  done
done
# ozaki2-fp8 on sm_90: the GPU's FP8 mma.sync against the model of that instruction.
for dist in randn phi:0 phi:1 phi:4 integers:1000 uniform; do
  case_ "ozaki2-fp8-$dist" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --dist "$dist" --m 64 --n 48 --k 1000
done
case_ "ozaki2-fp8-scaled2^300" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --a "$out/inputs/scaled_a.npy" --b "$out/inputs/scaled_b.npy"
for shape in "1 1 1" "7 7 7" "33 7 1" "1 33 4097" "1000 7 33" "33 33 4097"; do
  set -- $shape
  case_ "ozaki2-fp8-shape-$1x$2x$3" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --dist phi:1 --m "$1" --n "$2" --k "$3"
done
for mode in fast accurate; do
  for crt in exact garner dd; do
    for moduli in 2 8 14 20; do
      case_ "ozaki2-fp8-$mode-$crt-$moduli" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --mode "$mode" --crt "$crt" --moduli "$moduli" --dist phi:2 --m 40 --n 36 --k 512
    done
  done
done
# At the K bound of ozaki2-fp8 (65536): sums of limb products reach 2^24, the FP32 accumulator's limit.
case_ "ozaki2-fp8-k-bound-65536" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --dist integers:1000 --m 3 --n 5 --k 65536 --moduli 20
case_ "ozaki2-fp8-complex" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --complex --dist phi:1 --m 33 --n 20 --k 700
case_ "ozaki2-fp8-complex-fast-dd" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --complex --mode fast --crt dd --dist randn --m 20 --n 33 --k 300
case_ "ozaki2-fp8-free-running" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --lockstep free --dist phi:1 --m 64 --n 64 --k 256
# ozaki2-fp8's GEMMs on wgmma: exact to K = 64 at worst; beyond, the GPU's truncated sums must be
# the model's, bit for bit (the gemm contract then reports them).
case_ "ozaki2-fp8-wgmma" 0,1 identical-inexact-gemms -- --scheme ozaki2-fp8 --arch sm_90 --op "$wg.f32.e4m3.e4m3" --m 64 --n 64 --k 256
case_ "ozaki2-fp8-wgmma-exact-k64" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --op "$wg.f32.e4m3.e4m3" --m 33 --n 65 --k 64
case_ "ozaki2-fp8-wgmma-k-65536" 1 identical-inexact-gemms -- --scheme ozaki2-fp8 --arch sm_90 --op "$wg.f32.e4m3.e4m3" --mode fast --m 8 --n 8 --k 65536
# ozaki2-fp4 on an H200: every stage but bound and gemm (Blackwell's FP4 instructions, run by the
# CPU model of sm_120's mma.sync and sm_100's tcgen05) on the GPU.
for dist in randn phi:0 phi:2 phi:4 integers:1000; do
  case_ "ozaki2-fp4-$dist" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --dist "$dist" --m 64 --n 48 --k 1000
done
case_ "ozaki2-fp4-scaled2^300" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --a "$out/inputs/scaled_a.npy" --b "$out/inputs/scaled_b.npy"
for shape in "1 1 1" "7 7 7" "1 33 4097" "1000 7 33"; do
  set -- $shape
  case_ "ozaki2-fp4-shape-$1x$2x$3" 0 identical -- --scheme ozaki2-fp4 --arch sm_100 --dist phi:1 --m "$1" --n "$2" --k "$3"
done
for mode in fast accurate; do
  for crt in exact garner dd; do
    case_ "ozaki2-fp4-$mode-$crt" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --mode "$mode" --crt "$crt" --dist phi:2 --m 40 --n 36 --k 512
  done
done
case_ "ozaki2-fp4-moduli-8" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --moduli 8 --dist randn --m 40 --n 36 --k 512
case_ "ozaki2-fp4-k-bound-116509" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --dist integers:1000 --m 2 --n 3 --k 116509
case_ "ozaki2-fp4-complex" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --complex --dist phi:1 --m 33 --n 20 --k 700
case_ "ozaki2-fp4-free-running" 0 identical -- --scheme ozaki2-fp4 --arch sm_120 --lockstep free --dist phi:1 --m 64 --n 64 --k 256
for fault in truncate.a residues.b split.a split.b recombine.c crt.c unscale.c; do
  case_ "ozaki2-fp4-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme ozaki2-fp4 --arch sm_120 --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
# ozaki1-fp4 and int8-on-fp4 on an H200: every stage but gemm (the FP4 instructions' CPU models).
for dist in randn phi:0 phi:2 phi:4 integers:1000; do
  case_ "ozaki1-fp4-$dist" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --dist "$dist" --m 64 --n 48 --k 1000
done
case_ "ozaki1-fp4-scaled2^300" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --a "$out/inputs/scaled_a.npy" --b "$out/inputs/scaled_b.npy"
for acc in exact fp64; do
  for p in 1 8 15 16; do
    case_ "ozaki1-fp4-$acc-p$p" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --accumulate "$acc" --slices "$p" --dist phi:2 --m 40 --n 36 --k 512
  done
done
for shape in "1 1 1" "7 7 7" "1 33 4097" "1000 7 33"; do
  set -- $shape
  case_ "ozaki1-fp4-shape-$1x$2x$3" 0 identical -- --scheme ozaki1-fp4 --arch sm_100 --dist phi:1 --m "$1" --n "$2" --k "$3"
done
case_ "ozaki1-fp4-k-bound-262144" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --slices 4 --dist phi:1 --m 2 --n 3 --k 262144
case_ "ozaki1-fp4-complex" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --complex --dist phi:1 --m 33 --n 20 --k 700
case_ "ozaki1-fp4-free-running" 0 identical -- --scheme ozaki1-fp4 --arch sm_120 --lockstep free --accumulate fp64 --dist randn --m 64 --n 64 --k 256
for fault in slices.a slices.b accumulate.c unscale.c; do
  case_ "ozaki1-fp4-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme ozaki1-fp4 --arch sm_120 --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
case_ "ozaki1-fp4-complex-fault-stack.a" 1 fault:stack -- --scheme ozaki1-fp4 --arch sm_120 --complex --plant-fault stack.a --m 16 --n 16 --k 64
for shape in "1 1 1" "64 48 1000" "1000 7 33" "33 33 4097"; do
  set -- $shape
  case_ "int8-on-fp4-$1x$2x$3" 0 identical -- --scheme int8-on-fp4 --arch sm_120 --dist integers:127 --m "$1" --n "$2" --k "$3"
done
case_ "int8-on-fp4-k-bound-262144" 0 identical -- --scheme int8-on-fp4 --arch sm_100 --dist integers:127 --m 2 --n 3 --k 262144
for fault in limbs.a limbs.b combine.c; do
  case_ "int8-on-fp4-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme int8-on-fp4 --arch sm_120 --plant-fault "$fault" --dist integers:127 --m 24 --n 20 --k 200
done
# ozaki2-int8 and rare on the INT8 wgmma kernel.
for shape in "64 48 1000" "1000 7 33" "33 33 4097" "1 1 1"; do
  set -- $shape
  case_ "ozaki2-int8-wgmma-$1x$2x$3" 0 identical -- --scheme ozaki2-int8 --arch sm_90 --op "$wg.s32.s8.s8" --dist phi:1 --m "$1" --n "$2" --k "$3"
done
case_ "ozaki2-int8-wgmma-k-bound-131071" 0 identical -- --scheme ozaki2-int8 --arch sm_90 --op "$wg.s32.s8.s8" --dist integers:127 --m 3 --n 5 --k 131071 --moduli 16
case_ "rare-wgmma" 0 identical -- --scheme rare --arch sm_90 --op "$wg.s32.s8.s8" --dist randn --m 128 --n 64 --k 512
# The fused batched kernel (wgmma_gemm_reduced: the bench's fused path) as reduce's twin, held to
# the CPU's reduce of the model's GEMMs: shapes whose last tiles straddle planes, complex 3M at 20
# moduli (60 planes in one launch), the Gaussian product, rare, and a fault planted in its output.
fused="--gemm wgmma-fused --arch sm_90 --op $wg.s32.s8.s8"  # after --scheme: --op alone is an MMA-level run
for shape in "64 48 1000" "200 300 100" "1000 7 33" "129 257 4097"; do
  set -- $shape
  case_ "ozaki2-int8-wgmma-fused-$1x$2x$3" 0 identical -- --scheme ozaki2-int8 $fused --dist phi:1 --m "$1" --n "$2" --k "$3"
done
case_ "ozaki2-int8-wgmma-fused-complex-20" 0 identical -- --scheme ozaki2-int8 $fused --complex --moduli 20 --dist randn --m 33 --n 20 --k 700
case_ "ozaki2-int8-wgmma-fused-gaussian" 0 identical -- --scheme ozaki2-int8 $fused --complex --complex-product gaussian --dist randn --m 33 --n 20 --k 700
case_ "rare-wgmma-fused" 0 identical -- --scheme rare $fused --dist randn --m 128 --n 64 --k 512
case_ "ozaki2-int8-wgmma-fused-fault-reduce.c" 1 fault:reduce -- --scheme ozaki2-int8 $fused --plant-fault reduce.c --dist phi:1 --m 24 --n 20 --k 200
for fault in bound.c truncate.a residues.a split.a split.b gemm.c recombine.c crt.c unscale.c; do
  case_ "ozaki2-fp8-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme ozaki2-fp8 --arch sm_90 --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
# ozaki1-int8: both slicings, every accumulation, slice counts, shapes, complex (4M), cuBLASLt.
for dist in randn phi:0 phi:1 phi:4 integers:1000 uniform; do
  case_ "ozaki1-int8-$dist" 0 identical -- --scheme ozaki1-int8 --dist "$dist" --m 64 --n 48 --k 1000
done
case_ "ozaki1-int8-scaled2^300" 0 identical -- --scheme ozaki1-int8 --a "$out/inputs/scaled_a.npy" --b "$out/inputs/scaled_b.npy"
for slicing in ozimmu cublas; do
  for acc in exact fp64 fused; do
    [ "$slicing-$acc" = cublas-fused ] && continue  # refused by the scheme: s8 and u8 slices in one GEMM
    for p in 1 4 7 9; do
      case_ "ozaki1-int8-$slicing-$acc-p$p" 0 identical -- --scheme ozaki1-int8 --slicing "$slicing" --accumulate "$acc" --slices "$p" --dist phi:2 --m 40 --n 36 --k 512
    done
  done
done
for shape in "1 1 1" "7 7 7" "33 7 1" "1 33 4097" "1000 7 33" "33 33 4097"; do
  set -- $shape
  case_ "ozaki1-int8-shape-$1x$2x$3" 0 identical -- --scheme ozaki1-int8 --dist phi:1 --m "$1" --n "$2" --k "$3"
done
case_ "ozaki1-int8-cublas-k-bound-33025" 0 identical -- --scheme ozaki1-int8 --slicing cublas --slices 7 --dist phi:1 --m 3 --n 5 --k 33025
case_ "ozaki1-int8-k-131072" 0 identical -- --scheme ozaki1-int8 --slices 6 --dist phi:1 --m 3 --n 5 --k 131072
case_ "ozaki1-int8-complex" 0 identical -- --scheme ozaki1-int8 --complex --dist phi:1 --m 33 --n 20 --k 700
case_ "ozaki1-int8-complex-cublas-fp64" 0 identical -- --scheme ozaki1-int8 --complex --slicing cublas --accumulate fp64 --dist randn --m 20 --n 33 --k 300
case_ "ozaki1-int8-cublaslt" 0 identical -- --scheme ozaki1-int8 --gemm cublaslt --dist randn --m 256 --n 192 --k 1024
case_ "ozaki1-int8-fused-cublaslt" 0 identical -- --scheme ozaki1-int8 --accumulate fused --gemm cublaslt --dist randn --m 128 --n 64 --k 512
case_ "ozaki1-int8-sm_90-130x260x1000" 0 identical -- --scheme ozaki1-int8 --arch sm_90 --dist randn --m 130 --n 260 --k 1000
case_ "ozaki1-int8-free-running" 0 identical -- --scheme ozaki1-int8 --lockstep free --dist phi:1 --m 64 --n 64 --k 256
for fault in slices.a slices.b gemm.c accumulate.c unscale.c; do
  case_ "ozaki1-int8-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme ozaki1-int8 --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
case_ "ozaki1-int8-complex-fault-stack.a" 1 fault:stack -- --scheme ozaki1-int8 --complex --plant-fault stack.a --m 16 --n 16 --k 64
case_ "ozaki2-int8-complex" 0 identical -- --complex --dist phi:1 --m 33 --n 20 --k 700
case_ "ozaki2-int8-complex-fast-dd" 0 identical -- --complex --mode fast --crt dd --dist randn --m 20 --n 33 --k 300
case_ "ozaki2-int8-free-running" 0 identical -- --lockstep free --dist phi:1 --m 64 --n 64 --k 256
case_ "ozaki2-int8-cublaslt" 0 identical -- --gemm cublaslt --dist randn --m 256 --n 192 --k 1024
case_ "rare-cublaslt" 0 identical -- --scheme rare --gemm cublaslt --dist randn --m 128 --n 64 --k 512
for fault in bound.c truncate.a residues.a residues.b gemm.c reduce.c crt.c unscale.c; do
  case_ "ozaki2-int8-fault-${fault}" 1 "fault:${fault%%.*}" -- --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
case_ "ozaki2-int8-complex-fault-complex.c" 1 fault:complex -- --complex --plant-fault complex.c --m 16 --n 16 --k 64
case_ "ozaki2-int8-complex-scaled2^300" 0 identical -- --complex --a "$out/inputs/scaled_za.npy" --b "$out/inputs/scaled_zb.npy"
# ozaki2-int8's Gaussian complex product: two INT8 GEMMs per Gaussian modulus.
gaussian="--complex --complex-product gaussian"
for dist in randn phi:0 phi:1 phi:4 integers:1000; do
  case_ "ozaki2-int8-gaussian-$dist" 0 identical -- $gaussian --dist "$dist" --m 33 --n 20 --k 700
done
case_ "ozaki2-int8-gaussian-scaled2^300" 0 identical -- $gaussian --a "$out/inputs/scaled_za.npy" --b "$out/inputs/scaled_zb.npy"
for shape in "1 1 1" "7 7 7" "33 7 1" "1000 7 33" "33 33 4097"; do
  set -- $shape
  case_ "ozaki2-int8-gaussian-shape-$1x$2x$3" 0 identical -- $gaussian --dist randn --m "$1" --n "$2" --k "$3"
done
case_ "ozaki2-int8-gaussian-fast-dd" 0 identical -- $gaussian --mode fast --crt dd --dist randn --m 20 --n 33 --k 300
case_ "ozaki2-int8-gaussian-22-moduli" 0 identical -- $gaussian --moduli 22 --dist phi:2 --m 40 --n 24 --k 500
case_ "ozaki2-int8-gaussian-k-bound-131071" 0 identical -- $gaussian --dist integers:127 --m 3 --n 5 --k 131071 --moduli 16
case_ "ozaki2-int8-gaussian-cublaslt" 0 identical -- $gaussian --gemm cublaslt --dist randn --m 256 --n 192 --k 1024
case_ "ozaki2-int8-gaussian-free-running" 0 identical -- $gaussian --lockstep free --dist phi:1 --m 64 --n 64 --k 256
for fault in residues.a gemm.c complex.c; do
  case_ "ozaki2-int8-gaussian-fault-${fault}" 1 "fault:${fault%%.*}" -- $gaussian --plant-fault "$fault" --dist phi:1 --m 16 --n 16 --k 64
done
case_ "rare-fault-correction.c" 1 fault:correction -- --scheme rare --plant-fault correction.c --m 16 --n 16 --k 64
# Planted faults in the twins that had none: the double-double CRT and its unscale, rare's stages,
# the Gaussian product's reduce, crt and unscale, the FP8 and FP4 complex stage; in free-running
# mode the GPU's own chain carries a fault on, so its stage must be the first to differ.
for fault in crt.hi crt.lo unscale.c; do
  case_ "ozaki2-int8-dd-fault-${fault}" 1 "fault:${fault%%.*}" -- --crt dd --plant-fault "$fault" --dist phi:1 --m 24 --n 20 --k 200
done
for fault in residues.a residues.b gemm.c reduce.c crt.c unscale.c; do
  case_ "rare-fault-${fault}" 1 "fault:${fault%%.*}" -- --scheme rare --plant-fault "$fault" --dist randn --m 16 --n 16 --k 64
done
for fault in reduce.c crt.c unscale.c; do
  case_ "ozaki2-int8-gaussian-fault-${fault}" 1 "fault:${fault%%.*}" -- $gaussian --plant-fault "$fault" --dist phi:1 --m 16 --n 16 --k 64
done
case_ "ozaki2-fp8-complex-fault-complex.c" 1 fault:complex -- --scheme ozaki2-fp8 --arch sm_90 --complex --plant-fault complex.c --m 16 --n 16 --k 64
case_ "ozaki2-fp4-complex-fault-complex.c" 1 fault:complex -- --scheme ozaki2-fp4 --arch sm_120 --complex --plant-fault complex.c --m 16 --n 16 --k 64
case_ "ozaki2-int8-free-fault-residues.a" 1 fault-first:residues -- --lockstep free --plant-fault residues.a --dist phi:1 --m 24 --n 20 --k 200
case_ "ozaki1-int8-free-fault-slices.a" 1 fault-first:slices -- --scheme ozaki1-int8 --lockstep free --plant-fault slices.a --dist phi:1 --m 24 --n 20 --k 200
case_ "ozaki2-fp8-free-fault-split.b" 1 fault-first:split -- --scheme ozaki2-fp8 --arch sm_90 --lockstep free --plant-fault split.b --dist phi:1 --m 24 --n 20 --k 200
# The presence check itself: a stage whose twin is taken away (OZREF_GPU_DISABLE_TWIN) runs on the
# CPU, the lockstep is then identical, and the case's check must fail on that stage.
case_ "ozaki2-int8-twin-disabled-residues" 0 presence-fails:residues -- --dist phi:1 --m 24 --n 20 --k 200
case_ "ozaki1-int8-twin-disabled-gemm" 0 presence-fails:gemm -- --scheme ozaki1-int8 --dist phi:1 --m 24 --n 20 --k 200
case_ "ozaki2-fp8-wgmma-twin-disabled-gemm" 0,1 presence-fails:gemm -- --scheme ozaki2-fp8 --arch sm_90 --op "$wg.f32.e4m3.e4m3" --m 64 --n 64 --k 256
if [ -z "$quick" ]; then
  case_ "ozaki2-int8-4096-cube" 0 identical -- --dist randn --m 4096 --n 4096 --k 4096 --gemm cublaslt
  case_ "ozaki2-fp8-2048-cube" 0 identical -- --scheme ozaki2-fp8 --arch sm_90 --dist randn --m 2048 --n 2048 --k 2048
else
  for name in ozaki2-int8-4096-cube ozaki2-fp8-2048-cube; do skip_ "$name" "left out by quick"; done
fi
echo "gpu tests: $passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
[ "$failed" -eq 0 ]
