#!/usr/bin/env bash
# Strong scaling on one node without MPI of its own (the 16-core GPU host, docs/scale.md), through the
# bundle of scripts/mpi_bundle.sh, in one 10-minute call: `exact` and `check` at n = 4096 on 16, 8,
# 4, 2 and 1 ranks and one process without MPI (the reference), then at n = 8192 on 16, 8, 4 and 1
# ranks (the 1-rank runs only if 8 times their n = 4096 time still fits), each with --timings. No
# run starts that is guessed to end past 520 s from the start, every run is stopped at 570 s at
# the latest and capped at 200 s; the tables (seconds, efficiencies, phases) are OUT/scale.md and
# OUT/scale.json (with nproc and the CPU model), lscpu in OUT/lscpu.txt, the transparent huge page
# setting in OUT/thp.txt.
# Usage: bash bench/scale_mpi_node.sh BUNDLE OUT [scale_mpi.py options, e.g. --problem 256:4,2,1,0 to
#        replace the plan]    ($PYTHON, default python3, with NumPy)
set -euo pipefail
bundle=$(cd "$1" && pwd) out=$2
shift 2
mkdir -p "$out"
# The one-process runs start ozref without mpirun.sh, which is what puts the bundle's libraries first.
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(lscpu 2>/dev/null || cat /proc/cpuinfo) >"$out/lscpu.txt"
cat /sys/kernel/mm/transparent_hugepage/enabled >"$out/thp.txt" 2>/dev/null || echo "(no THP setting)" >"$out/thp.txt"
plan=(--problem 4096:16,8,4,2,1,0 --problem 8192:16,8,4,1)
[[ " $* " == *" --problem "* ]] && plan=()
exec "${PYTHON:-python3}" "$(dirname "$0")/scale_mpi.py" "$out" "${plan[@]}" \
     --ozref "$bundle/bin/ozref" --mpirun "$bundle/mpirun.sh" --bind none --cap 200 --budget 520 --deadline 570 \
     --work "${TMPDIR:-/tmp}/ozref-scale-node" "$@"
