#!/usr/bin/env bash
# Strong scaling on one node without MPI of its own (the 16-core GPU host, docs/scale.md), through the
# bundle of scripts/mpi_bundle.sh: `exact` and `check` at n = 4096 on 16, 8, 4 and 2 ranks (one rank
# or one process there takes about 120 s each, more than the 10 minutes lent allow with the rest),
# then at n = 2048 on 16, 8, 4, 2 and 1 ranks and one process without MPI, the whole sweep from 1.
# Each run is capped at 140 s, and none starts that would end past 420 s (inputs included), so the
# whole fits in 8 minutes; the table is OUT/scale.md and OUT/scale.json (with nproc and the CPU model), lscpu in OUT/lscpu.txt.
# Usage: bash bench/scale_mpi_node.sh BUNDLE OUT    ($PYTHON, default python3, with NumPy)
set -euo pipefail
bundle=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
(lscpu 2>/dev/null || cat /proc/cpuinfo) >"$out/lscpu.txt"
exec "${PYTHON:-python3}" "$(dirname "$0")/scale_mpi.py" "$out" --problem 4096:16,8,4,2 --problem 2048:16,8,4,2,1,0 \
     --ozref "$bundle/bin/ozref" --mpirun "$bundle/mpirun.sh" --bind none --cap 140 --budget 420 \
     --work "${TMPDIR:-/tmp}/ozref-scale-node"
