#!/usr/bin/env bash
# The exact product on the GPU (docs/exact.md, "On the GPU"): `ozref exact --device gpu` against the
# CPU's `ozref exact`, byte for byte, on every data class (randn, phi, exponent spans of 2^+-300 and
# of the whole FP64 range, subnormals, cancellation, specials, odd and empty shapes, K past one
# depth block, complex products), and in forced panels of rows; `ozref check --device gpu --json`
# against the CPU's on a few;
# `ozref fuzz --exact-device gpu` with the CPU's exact product as its subject; then a 16384^3 randn
# `check --device gpu` timed beside one cuBLAS DGEMM of that size (CuPy, else PyTorch) in the same run.
# One line per case to OUT/summary.txt; the last line counts passed and failed.
# Needs an sm_90 GPU, python3 with NumPy (and CuPy or PyTorch for the timing) and an ozref with CUDA
# (scripts/gpu_bundle.sh). Usage: bash exact_gpu_tests.sh OZREF OUT [quick: no 16384^3 timing]
set -u
oz=$1 out=$2 quick=${3:-}
mkdir -p "$out/inputs"
"$oz" exact --device gpu --a /nonexistent/a.npy --b /nonexistent/b.npy --out "$out/never.npy" >"$out/gpu-check.txt" 2>&1
if [ $? -eq 77 ]; then
  cat "$out/gpu-check.txt"
  exit 77
fi
summary="$out/summary.txt"
: >"$summary"
passed=0 failed=0

python3 - "$out/inputs" <<'PY'
import numpy as np, sys
d = sys.argv[1]
rng = np.random.default_rng(20261205)
def save(name, a, b):
    np.save(f"{d}/{name}_a.npy", np.ascontiguousarray(a, dtype=np.float64))
    np.save(f"{d}/{name}_b.npy", np.ascontiguousarray(b, dtype=np.float64))
def phi(shape, p): return (rng.random(shape) - 0.5) * np.exp(p * rng.standard_normal(shape))
def span(shape, e): return (rng.random(shape) - 0.5) * np.exp2(rng.integers(-e, e + 1, shape).astype(float))
save("randn-1024", rng.standard_normal((1024, 1024)), rng.standard_normal((1024, 1024)))
save("randn-odd-37x53x29", rng.standard_normal((37, 53)), rng.standard_normal((53, 29)))
save("randn-k1023", rng.standard_normal((200, 1023)), rng.standard_normal((1023, 301)))
save("phi1-512", phi((512, 512), 1.0), phi((512, 512), 1.0))
save("phi4-512", phi((512, 512), 4.0), phi((512, 512), 4.0))
save("span300-256", span((256, 300), 300), span((300, 200), 300))
save("span1074-128", span((128, 150), 1074), span((150, 96), 1074))
rows = np.exp2(rng.integers(-300, 301, (256, 1)).astype(float)); cols = np.exp2(rng.integers(-300, 301, (1, 192)).astype(float))
save("rows-cols-2pm300", rng.standard_normal((256, 128)) * rows, rng.standard_normal((128, 192)) * cols)
sub = (rng.integers(0, 1 << 52, (64, 80), dtype=np.uint64) | (rng.integers(0, 2, (64, 80), dtype=np.uint64) << np.uint64(63))).view(np.float64)
save("subnormal-64", sub, span((80, 48), 1000))
save("underflow-results", np.full((16, 16), 2.0 ** -1074), np.where(rng.random((16, 16)) < 0.5, -1.0, 1.0) * 2.0 ** -30)
x = rng.standard_normal((96, 64)); y = rng.standard_normal((64, 80))
save("cancel-exact-zero", np.hstack([x, -x]), np.vstack([y, y]))
save("cancel-near", np.hstack([x * 1e300, x, -x * 1e300]), np.vstack([y, y * 2.0 ** -1000, y]))
a = rng.standard_normal((64, 70)); b = rng.standard_normal((70, 50))
for v in [np.nan, np.inf, -np.inf, 0.0, -0.0]:
    a.flat[rng.integers(0, a.size, 3)] = v; b.flat[rng.integers(0, b.size, 3)] = v
b[:, 7] = -0.0; a[5, :] = 0.0; a[9, :] = 1e308; b[:, 11] = 1e308
save("specials", a, b)
save("overflow", np.full((8, 8), 1e308), np.full((8, 8), 1e10))
save("one-1x1x1", np.array([[3.0]]), np.array([[-2.0 ** -1074]]))
save("empty-m0", np.zeros((0, 5)), rng.standard_normal((5, 4)))
save("empty-k0", np.zeros((3, 0)), np.zeros((0, 4)))
save("all-zero", np.zeros((5, 6)), -np.zeros((6, 7)))
save("k-two-blocks", rng.standard_normal((3, 131077)), rng.standard_normal((131077, 2)))
save("k1-wide", span((300, 1), 1000), span((1, 257), 1000))
# Complex products (c16; a real operand beside a complex one), computed as one real product.
def csave(name, a, b):
    np.save(f"{d}/{name}_a.npy", np.ascontiguousarray(a)); np.save(f"{d}/{name}_b.npy", np.ascontiguousarray(b))
csave("complex-randn-300", rng.standard_normal((300, 257)) + 1j * rng.standard_normal((300, 257)),
      rng.standard_normal((257, 190)) + 1j * rng.standard_normal((257, 190)))
csave("complex-span300-real-b", span((128, 100), 300) + 1j * span((128, 100), 300), span((100, 96), 300))
c = rng.standard_normal((40, 30)) + 1j * rng.standard_normal((40, 30))
c.flat[rng.integers(0, c.size, 4)] = complex(np.inf, 0.0); c[3, 4] = complex(1.0, np.nan)
csave("complex-specials", c, rng.standard_normal((30, 20)) + 1j * rng.standard_normal((30, 20)))
# FP32 inputs (widened exactly by both sides), among them FP32 subnormals.
np.save(f"{d}/fp32-300_a.npy", rng.standard_normal((300, 400)).astype(np.float32))
np.save(f"{d}/fp32-300_b.npy", (span((400, 200), 140)).astype(np.float32))
PY

for a in "$out"/inputs/*_a.npy; do
  name=$(basename "$a" _a.npy) b=${a%_a.npy}_b.npy
  "$oz" exact --a "$a" --b "$b" --out "$out/$name.cpu.npy" >"$out/$name.cpu.txt" 2>&1
  rc_cpu=$?
  "$oz" exact --device gpu --json --a "$a" --b "$b" --out "$out/$name.gpu.npy" >"$out/$name.gpu.json" 2>"$out/$name.gpu.err"
  rc_gpu=$?
  if [ $rc_cpu -eq 0 ] && [ $rc_gpu -eq 0 ] && cmp -s "$out/$name.cpu.npy" "$out/$name.gpu.npy"; then
    echo "PASS exact $name: byte-identical; $(cat "$out/$name.gpu.json")" >>"$summary"; passed=$((passed + 1))
  else
    echo "FAIL exact $name: cpu exit $rc_cpu, gpu exit $rc_gpu, $(cmp "$out/$name.cpu.npy" "$out/$name.gpu.npy" 2>&1 | head -1) $(head -c 300 "$out/$name.gpu.err")" >>"$summary"; failed=$((failed + 1))
  fi
done

# Panels of rows (a product too large for the GPU's memory runs in them): forced with
# OZREF_EXACT_GPU_PANEL_ROWS on products that fit, byte-identical to the CPU's, the count reported.
for spec in randn-1024:300 rows-cols-2pm300:100 complex-randn-300:64 k-two-blocks:1; do
  name=${spec%%:*} rows=${spec##*:}
  a="$out/inputs/${name}_a.npy" b="$out/inputs/${name}_b.npy"
  OZREF_EXACT_GPU_PANEL_ROWS=$rows "$oz" exact --device gpu --json --a "$a" --b "$b" --out "$out/$name.panels.npy" >"$out/$name.panels.json" 2>&1
  rc=$?
  panels=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['panels'])" "$out/$name.panels.json" 2>/dev/null)
  if [ $rc -eq 0 ] && [ "${panels:-0}" -ge 2 ] && cmp -s "$out/$name.cpu.npy" "$out/$name.panels.npy"; then
    echo "PASS exact $name in panels of $rows rows: $panels panels, byte-identical" >>"$summary"; passed=$((passed + 1))
  else
    echo "FAIL exact $name in panels of $rows rows: exit $rc, panels ${panels:-?}: $(head -c 300 "$out/$name.panels.json")" >>"$summary"; failed=$((failed + 1))
  fi
done
OZREF_EXACT_GPU_PANEL_ROWS=0 "$oz" exact --device gpu --a "$out/inputs/randn-1024_a.npy" --b "$out/inputs/randn-1024_b.npy" --out "$out/never.npy" >"$out/panel-rows-0.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "OZREF_EXACT_GPU_PANEL_ROWS: expected a whole number of rows" "$out/panel-rows-0.txt"; then
  echo "PASS OZREF_EXACT_GPU_PANEL_ROWS=0 refused, exit 2" >>"$summary"; passed=$((passed + 1))
else
  echo "FAIL OZREF_EXACT_GPU_PANEL_ROWS=0: exit $rc: $(head -c 300 "$out/panel-rows-0.txt")" >>"$summary"; failed=$((failed + 1))
fi

# check --device gpu: the same JSON report as the CPU's, for a C that is the product rounded by FP32
# arithmetic (NumPy's; complex64 widened to c16 for a complex product), on a few classes.
for name in randn-1024 phi4-512 span300-256 specials subnormal-64 complex-randn-300 complex-specials; do
  a="$out/inputs/${name}_a.npy" b="$out/inputs/${name}_b.npy" c="$out/$name.c32.npy"
  python3 -c "
import numpy as np, sys
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
low = np.complex64 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float32
c = a.astype(low) @ b.astype(low)
np.save(sys.argv[3], c.astype(np.complex128) if low == np.complex64 else c)" "$a" "$b" "$c" 2>/dev/null
  "$oz" check --json --a "$a" --b "$b" --c "$c" >"$out/$name.check.cpu.json" 2>&1
  rc_cpu=$?
  "$oz" check --device gpu --json --a "$a" --b "$b" --c "$c" >"$out/$name.check.gpu.json" 2>&1
  rc_gpu=$?
  if [ $rc_cpu -eq 0 ] && [ $rc_gpu -eq 0 ] && cmp -s "$out/$name.check.cpu.json" "$out/$name.check.gpu.json"; then
    echo "PASS check $name: the same report" >>"$summary"; passed=$((passed + 1))
  else
    echo "FAIL check $name: cpu exit $rc_cpu, gpu exit $rc_gpu: $(head -c 300 "$out/$name.check.gpu.json")" >>"$summary"; failed=$((failed + 1))
  fi
done

# ozref fuzz --exact-device gpu: the CPU's exact product (the subject) against the GPU's (the
# oracle), bit for bit, on every generator at shapes up to 200 x 200 x 700.
"$oz" fuzz --subject exact --exact-device gpu --property correctly-rounded,specials --seed 20261205 --seconds 40 --max-m 200 --max-n 200 --max-k 700 \
  --out "$out/fuzz-finding" >"$out/fuzz.txt" 2>"$out/fuzz.err"
rc=$?
if [ $rc -eq 0 ]; then
  echo "PASS fuzz exact --exact-device gpu: $(tail -1 "$out/fuzz.txt")" >>"$summary"; passed=$((passed + 1))
else
  echo "FAIL fuzz exact --exact-device gpu: exit $rc: $(tail -2 "$out/fuzz.txt") $(tail -c 300 "$out/fuzz.err")" >>"$summary"; failed=$((failed + 1))
fi

if [ "$quick" != quick ]; then
  # 16384^3 randn: one cuBLAS DGEMM (timed on the GPU, after a warm-up) gives C; then check --device
  # gpu on it, timed from the command's start to its end (reading 6 GiB of .npy included), and
  # exact --device gpu for the GPU's own seconds.
  python3 - "$out" <<'PY' >>"$summary" 2>"$out/dgemm.err"
import numpy as np, sys, time
d, n = sys.argv[1], 16384
rng = np.random.default_rng(1)
a = rng.standard_normal((n, n)); b = rng.standard_normal((n, n))
np.save(f"{d}/big_a.npy", a); np.save(f"{d}/big_b.npy", b)
try:
    import cupy as cp
    ga, gb = cp.asarray(a), cp.asarray(b)
    cp.matmul(ga, gb); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    s.record(); gc = cp.matmul(ga, gb); e.record(); e.synchronize()
    secs, c, via = cp.cuda.get_elapsed_time(s, e) / 1e3, cp.asnumpy(gc), "CuPy"
except ImportError:
    import torch
    ga, gb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    ga @ gb; torch.cuda.synchronize()
    t0 = time.perf_counter(); gc = ga @ gb; torch.cuda.synchronize()
    secs, c, via = time.perf_counter() - t0, gc.cpu().numpy(), "PyTorch"
np.save(f"{d}/big_c.npy", c)
print(f"TIME dgemm 16384^3 (cuBLAS via {via}): {secs:.3f} s")
open(f"{d}/dgemm_seconds.txt", "w").write(f"{secs}\n")
PY
  t0=$(date +%s.%N)
  "$oz" check --device gpu --json --timings --a "$out/big_a.npy" --b "$out/big_b.npy" --c "$out/big_c.npy" >"$out/big.check.json" 2>"$out/big.check.timings"
  rc=$? t1=$(date +%s.%N)
  dgemm=$(cat "$out/dgemm_seconds.txt" 2>/dev/null || echo 0)
  ratio() { awk "BEGIN{printf \"%.1f\", ($dgemm > 0) ? $1 / $dgemm : 0}"; }
  wall=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")
  echo "TIME check --device gpu 16384^3: $wall s wall ($(ratio "$wall") DGEMMs), exit $rc: $(head -c 400 "$out/big.check.json")" >>"$summary"
  sed 's/^/TIME   check: /' "$out/big.check.timings" >>"$summary"
  "$oz" exact --device gpu --json --a "$out/big_a.npy" --b "$out/big_b.npy" --out "$out/big_exact.npy" >"$out/big.exact.json" 2>&1
  rc=$?
  gpu=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['gpu_seconds'])" "$out/big.exact.json" 2>/dev/null || echo 0)
  echo "TIME exact --device gpu 16384^3, exit $rc: gpu_seconds $gpu ($(ratio "$gpu") DGEMMs): $(cat "$out/big.exact.json")" >>"$summary"
  rm -f "$out"/big_*.npy
fi

echo "exact on the GPU: $passed passed, $failed failed" >>"$summary"
cat "$summary"
[ $failed -eq 0 ]
