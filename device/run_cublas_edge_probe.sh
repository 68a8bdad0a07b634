#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root: builds device/probes/cublas_edge_probe.cu with
# that machine's nvcc and records its outputs (issue 38) into OUT_DIR, with the GPU, driver and
# nvcc it ran under. Compare them offline with scripts/cublas_edge_compare.py (docs/third-party.md).
# Usage: bash device/run_cublas_edge_probe.sh OUT_DIR
set -euo pipefail
out=${1:?usage: run_cublas_edge_probe.sh OUT_DIR}
mkdir -p "$out"
PATH=$PATH:/usr/local/cuda/bin  # where the CUDA toolkit installs nvcc when it is not on PATH
exe=$(mktemp -d)/cublas_edge_probe
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version | tail -1 | tee -a "$out/gpu.txt"
nvcc -std=c++17 -O2 -arch=sm_90a device/probes/cublas_edge_probe.cu -lcublas -o "$exe"
start=$SECONDS
timeout 200 "$exe" "$out"  # 1,361 cuBLAS calls; cases.txt is flushed case by case, so a cut run keeps them
echo "cublas_edge_probe: $((SECONDS - start)) s, $(du -sh "$out" | cut -f1) in $(ls "$out" | wc -l) files"
