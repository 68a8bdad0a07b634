#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root: builds device/probes/cublas_edge_probe.cu with
# that machine's nvcc, runs it (issue 38) and packs what it wrote into OUT_DIR as at most a few
# files (the device tool brings back at most 8, 16 MiB each): OUT_DIR/gpu.txt (GPU, driver, nvcc),
# OUT_DIR/cases.txt (the probe's listing, also inside the archive) and
# OUT_DIR/records.tar.xz.NN, one xz tarball split in 15 MiB pieces. Unpack them with
#   mkdir DIR && cat OUT_DIR/records.tar.xz.* | tar -xJ -C DIR
# and compare DIR with scripts/cublas_edge_compare.py (docs/third-party.md).
# Usage: bash device/run_cublas_edge_probe.sh OUT_DIR [PREFIX ...]: only the cases whose names start
# with one of the PREFIXes (default: sub_ phi span gap fb cap, every case).
set -euo pipefail
out=${1:?usage: run_cublas_edge_probe.sh OUT_DIR [PREFIX ...]}
shift
classes=${*:-sub_ phi span gap fb cap}
mkdir -p "$out"
PATH=$PATH:/usr/local/cuda/bin  # where the CUDA toolkit installs nvcc when it is not on PATH
work=$(mktemp -d)
mkdir "$work/records"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version | tail -1 | tee -a "$out/gpu.txt"
nvcc -std=c++17 -O2 -arch=sm_90a device/probes/cublas_edge_probe.cu -lcublas -o "$work/cublas_edge_probe"
start=$SECONDS
status=0
# 1,429 cuBLAS calls for sub_ phi span gap, 38 for fb and 24 for cap; one process per class (a
# failing one leaves the others' records); cases.txt is flushed case by case, so a cut run keeps the
# cases it finished.
for class in $classes; do
  left=$((200 - (SECONDS - start)))  # 200 s in all, so the whole command stays under 4 minutes
  timeout $((left > 1 ? left : 1)) "$work/cublas_edge_probe" "$work/records" 38 "$class" || status=$?
done
echo "cublas_edge_probe: exit $status after $((SECONDS - start)) s, $(du -sh "$work/records" | cut -f1) in $(ls "$work/records" | wc -l) files"
cp "$work/records/cases.txt" "$out/cases.txt"
tar -C "$work/records" -cf - . | xz -T0 -6 | split -b 15M -d - "$out/records.tar.xz."
ls -l "$out"
exit "$status"
