#!/usr/bin/env bash
# The accuracy of bench_gpu_pipeline's results: `ozref check` of each sampled 32 x 32 block of C
# (DGEMM's and the emulation's) against the exact product of its rows of A and columns of B.
# Usage: bash bench/gpu_accuracy.sh SAMPLES_DIR [OZREF, default build/ozref]
set -euo pipefail
dir=$1 oz=${2:-build/ozref}
for a in "$dir"/n*_a.npy; do
  prefix=${a%a.npy}
  for c in "$prefix"*.npy; do
    case $c in *_a.npy | *_b.npy) continue ;; esac
    bits=$("$oz" check --a "$a" --b "${prefix}b.npy" --c "$c" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["correct_bits_maxnorm"], 2), round(j["correct_bits_elementwise_min"], 2), j["bit_identical"], "of", j["elements"], "bit-identical")')
    echo "$(basename "$c" .npy) $bits"
  done
done
