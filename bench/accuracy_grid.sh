#!/usr/bin/env bash
# Correct bits (max norm and element-wise minimum) of every scheme at its default configuration on
# the papers' grid: m = n = 128, K in {1024, 4096, 16384}, phi in {0, 0.5, 1, 2, 4} for
# (rand - 0.5) exp(phi randn), seed 12345, against the exact product. Markdown on stdout.
# Usage: bash bench/accuracy_grid.sh [build/ozref]
set -euo pipefail
ozref=${1:-build/ozref}
echo "| scheme | K | phi 0 | phi 0.5 | phi 1 | phi 2 | phi 4 |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for scheme in ozaki2-int8 ozaki2-fp8 ozaki2-fp4 rare ozaki1-int8 ozaki1-fp4; do
  for k in 1024 4096 16384; do
    row="| $scheme | $k |"
    for phi in 0 0.5 1 2 4; do
      cell=$("$ozref" run --scheme "$scheme" --m 128 --n 128 --k "$k" --dist "phi:$phi" --seed 12345 --verify none --json |
        python3 -c "import json,sys; a=json.load(sys.stdin)['accuracy']; print('%.1f / %.1f' % (a['correct_bits_maxnorm'], a['correct_bits_elementwise_min']))")
      row="$row $cell |"
    done
    echo "$row"
  done
done
