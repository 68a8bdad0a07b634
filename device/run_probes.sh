#!/usr/bin/env bash
# Runs on the GPU machine: the MMA probes, the SASS of the probe kernels, and a tarball of traces.
# Usage: bash device/run_probes.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=$1 out=$2
mkdir -p "$out/traces"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
"$build/device/mma_probe" "$out/traces" | tee "$out/probe.log"
cuobjdump -sass "$build/device/mma_probe" > "$out/probe.sass" 2>&1 || true
grep -o -E '(QGMMA|HGMMA|HMMA|IMMA|F2FP)[.A-Z0-9_]*' "$out/probe.sass" | sort | uniq -c > "$out/sass_summary.txt" || true
cat "$out/sass_summary.txt"
tar -C "$out" -czf "$out/traces.tar.gz" traces && rm -rf "$out/traces"
ls -la "$out"
