#!/usr/bin/env bash
# Strong scaling of the distributed `ozref exact` and `ozref check` here (docs/scale.md): one n x n x n
# problem, one process with 1 thread, then mpirun with R = 1, 2, ... ranks of 1 thread each; the
# wall time of each, the parallel efficiency T(1 process) / (R T(R)), every rank's read volume
# (OZREF_IO_REPORT=1) and every C and report compared byte for byte (bench/scale_mpi.py does it,
# table in $SCALE_WORK/table/scale.md; bench/scale_mpi_node.sh is the same on a node without MPI).
# --bind-to none: on a shared machine a rank pinned to one core waits for that core while the
# one-process run moves to whichever core is free (a pinned 1-rank run took twice as long here).
# Usage: bash bench/scale_mpi.sh [n, default 4096] [ranks..., default 1 2]   (needs /usr/bin/python3's numpy)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-4096}
shift || true
ranks=("$@")
[ ${#ranks[@]} -eq 0 ] && ranks=(1 2)
work=${SCALE_WORK:-/tmp/ozref-scale-$n}
launcher="mpirun --oversubscribe"; [ "$(id -u)" -eq 0 ] && launcher+=" --allow-run-as-root"
exec /usr/bin/python3 bench/scale_mpi.py "$work/table" --problem "$n:0,$(IFS=,; echo "${ranks[*]}")" --ozref build/ozref \
     --mpirun "$launcher" --bind none --cap 86400 --budget 1e9 --work "$work"
