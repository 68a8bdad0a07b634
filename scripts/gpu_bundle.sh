#!/usr/bin/env bash
# Builds a relocatable ozref for a GPU machine that has only the CUDA toolkit and driver (no GMP,
# OpenBLAS, Z3, ...): every library but glibc linked statically (OZREF_STATIC_RUNTIME), the CUDA
# runtime static, cuBLASLt loaded at run time, no prove verb (it needs Z3). The result,
# gpu-bundle/ozref, runs `ozref lockstep` and every other verb there (docs/gpu.md) with
# LD_LIBRARY_PATH=gpu-bundle (for libgomp.so.1, which travels with it); bench_gpu_pipeline and
# bench_exact_gemm (the exact product against OpenBLAS on that host's cores) travel with it, and
# the GPU test scripts run_gpu_tests.sh and exact_gpu_tests.sh (the exact product on the GPU).
# Usage: bash scripts/gpu_bundle.sh [bundle folder, default gpu-bundle]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-bundle}
bash scripts/setup.sh
cmake -S . -B build-bundle -G Ninja -DCMAKE_BUILD_TYPE=Release -DOZREF_PROOFS=OFF -DOZREF_STATIC_RUNTIME=ON -DOZREF_MPI=OFF >/dev/null
cmake --build build-bundle --parallel "$(nproc)" --target ozref bench_gpu_pipeline bench_exact_gemm
mkdir -p "$out"
cp build-bundle/ozref build-bundle/bench/bench_gpu_pipeline build-bundle/bench/bench_exact_gemm "$out/"
# OpenMP's runtime stays a shared library (gcc's -fopenmp links it so): it travels with the bundle.
cp "$(g++ -print-file-name=libgomp.so.1)" "$out/"
strip "$out/ozref" "$out/bench_gpu_pipeline" "$out/bench_exact_gemm"  # symbols are not needed there; the carried tree is limited
cp device/run_gpu_tests.sh device/lockstep_case.py device/exact_gpu_tests.sh device/infer_gpu_tests.sh "$out/"
echo "gpu_bundle: $out/ozref ($(du -h "$out/ozref" | cut -f1)); it needs only:"
ldd "$out/ozref" | grep -v -E 'linux-vdso|ld-linux' | sed 's/^/  /'
