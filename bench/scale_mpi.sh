#!/usr/bin/env bash
# Strong scaling of the distributed `ozref exact` and `ozref check` (docs/scale.md): one n x n x n
# problem, one process with 1 thread, then mpirun with R = 1, 2, ... ranks of 1 thread each; the
# wall time of each, the parallel efficiency T(1 process) / (R T(R)), every rank's read volume
# (OZREF_IO_REPORT=1) and C from every R compared byte for byte with one process's.
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
mkdir -p "$work"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
if [ ! -f "$work/c.npy" ]; then  # A (C order), B (Fortran order), C = OpenBLAS DGEMM's A B
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng($n)
a, b = rng.standard_normal(($n, $n)), rng.standard_normal(($n, $n))
np.save('$work/a.npy', a); np.save('$work/b.npy', np.asfortranarray(b)); np.save('$work/c.npy', a @ b)"
fi
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >"$work/last.out" 2>"$work/last.err"; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
printf '%-8s %-10s %10s %10s\n' verb processes seconds efficiency
for verb in exact check; do
  if [ $verb = exact ]; then tail_args=(--out "$work/e1.npy"); else tail_args=(--c "$work/c.npy" --json); fi
  t1=$(seconds build/ozref $verb --a "$work/a.npy" --b "$work/b.npy" --threads 1 "${tail_args[@]}")
  cp "$work/last.out" "$work/$verb-1.out"
  printf '%-8s %-10s %10.1f %10s\n' $verb "1 (no MPI)" "$t1" "-"
  for r in "${ranks[@]}"; do
    [ $verb = exact ] && tail_args=(--out "$work/e$r-ranks.npy")
    tr=$(OZREF_IO_REPORT=1 seconds mpirun "${root[@]}" --oversubscribe --bind-to none -n "$r" build/ozref $verb --a "$work/a.npy" --b "$work/b.npy" \
         --threads 1 "${tail_args[@]}")
    printf '%-8s %-10s %10.1f %10.2f\n' $verb "$r ranks" "$tr" "$(echo "$t1 / ($r * $tr)" | bc -l)"
    grep '^ozref: rank' "$work/last.err" | sed 's/^/    /'
    if [ $verb = exact ]; then
      cmp -s "$work/e1.npy" "$work/e$r-ranks.npy" && echo "    C byte-identical to one process's" || { echo "    C DIFFERS"; exit 1; }
    else
      cmp -s "$work/check-1.out" "$work/last.out" && echo "    report identical to one process's" || { echo "    report DIFFERS"; exit 1; }
    fi
  done
done
