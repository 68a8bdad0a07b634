#!/usr/bin/env bash
# Accuracy of ozaki2-int8 in GEMMul8's published setting (m = n = 128, K = 16384, phi data, max
# element-wise relative error against the exact product), for each scaling mode and moduli
# count, as a Markdown table. Published GH200 figures: docs/results.md.
# Usage: bash bench/accuracy_vs_gemmul8.sh [build/ozref] [K]
set -euo pipefail
ozref=${1:-build/ozref}
k=${2:-16384}
echo "| phi | mode | moduli | max element-wise relative error | correct bits (max norm) | CRT range held |"
echo "| --- | --- | --- | --- | --- | --- |"
for phi in 0.5 4; do
  for mode in fast accurate gemmul8-fast; do
    for moduli in 14 16 18 20; do
      "$ozref" run --scheme ozaki2-int8 --m 128 --n 128 --k "$k" --dist "phi:$phi" --seed 12345 --mode "$mode" \
        --moduli "$moduli" --verify cheap --json |
        python3 -c "
import json, sys
j = json.load(sys.stdin)
a = j['accuracy']
err = 2.0 ** -a['correct_bits_elementwise_min']
print('| $phi | $mode | $moduli | %.1e | %.1f | %s |' % (err, a['correct_bits_maxnorm'], 'yes' if j['exactness_conditions'] else 'NO'))"
    done
  done
done
