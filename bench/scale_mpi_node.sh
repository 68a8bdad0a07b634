#!/usr/bin/env bash
# Strong scaling on one node without MPI of its own (the 16-core GPU host, docs/scale.md), through the
# bundle of scripts/mpi_bundle.sh: `exact` and `check` at n = 4096 on 16, 8, 4, 2 and 1 ranks and one
# process without MPI (one thread took 19 s for `exact` here), then at n = 8192 on 16, 8 and 4 ranks
# as far as the time allows. Each run is capped at 140 s, and none starts that would end past 400 s
# (inputs included), so the whole fits the 10 minutes a lent machine allows one command; the table
# is OUT/scale.md and OUT/scale.json (with nproc and the CPU model), lscpu in OUT/lscpu.txt.
# Usage: bash bench/scale_mpi_node.sh BUNDLE OUT    ($PYTHON, default python3, with NumPy)
set -euo pipefail
bundle=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
# The one-process runs start ozref without mpirun.sh, which is what puts the bundle's libraries first.
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(lscpu 2>/dev/null || cat /proc/cpuinfo) >"$out/lscpu.txt"
exec "${PYTHON:-python3}" "$(dirname "$0")/scale_mpi.py" "$out" --problem 4096:16,8,4,2,1,0 --problem 8192:16,8,4 \
     --ozref "$bundle/bin/ozref" --mpirun "$bundle/mpirun.sh" --bind none --cap 140 --budget 400 \
     --work "${TMPDIR:-/tmp}/ozref-scale-node"
