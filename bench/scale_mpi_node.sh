#!/usr/bin/env bash
# Strong scaling on one node without MPI of its own (the 16-core GPU host, docs/scale.md), through the
# bundle of scripts/mpi_bundle.sh, in one call of about 8 minutes: `exact` and `check` at n = 4096
# on 16 cores as 16 ranks x 1 thread, 4 x 4, 2 x 8, 1 rank x 16 threads and one process of 16
# threads without MPI, then on 1 rank and one process of 1 thread (the references); then at n = 8192
# as 16 x 1, 4 x 4 and 1 x 16, and on 1 rank if 8 times its n = 4096 time still fits. Each run with
# --timings. No run starts that is guessed to end past 430 s from the start, every run is stopped at
# 470 s at the latest and capped at 200 s; the tables (seconds, efficiencies per core, phases) are
# OUT/scale.md and OUT/scale.json (with nproc and the CPU model), lscpu in OUT/lscpu.txt, the
# transparent huge page setting in OUT/thp.txt.
# Usage: bash bench/scale_mpi_node.sh BUNDLE OUT [scale_mpi.py options, e.g. --problem 256:4,2x2,1,0 to
#        replace the plan; RxT: R ranks of T threads]    ($PYTHON, default python3, with NumPy)
set -euo pipefail
bundle=$(cd "$1" && pwd) out=$2
shift 2
mkdir -p "$out"
# The one-process runs start ozref without mpirun.sh, which is what puts the bundle's libraries first.
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(lscpu 2>/dev/null || cat /proc/cpuinfo) >"$out/lscpu.txt"
cat /sys/kernel/mm/transparent_hugepage/enabled >"$out/thp.txt" 2>/dev/null || echo "(no THP setting)" >"$out/thp.txt"
plan=(--problem 4096:16,4x4,2x8,1x16,0x16,1,0 --problem 8192:16,4x4,1x16,1)
[[ " $* " == *" --problem "* ]] && plan=()
exec "${PYTHON:-python3}" "$(dirname "$0")/scale_mpi.py" "$out" "${plan[@]}" \
     --ozref "$bundle/bin/ozref" --mpirun "$bundle/mpirun.sh" --bind none --cap 200 --budget 430 --deadline 470 \
     --work "${TMPDIR:-/tmp}/ozref-scale-node" "$@"
