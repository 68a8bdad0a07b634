#!/usr/bin/env bash
# The relocatable MPI bundle (scripts/mpi_bundle.sh, docs/scale.md) is self-contained: made from OZREF,
# moved to a fresh folder and run there with an empty environment, `mpirun.sh -n 4 ozref exact`
# opens OpenMPI's and PMIx's files and every library but glibc's inside the bundle only (strace's
# successful opens), and gives C byte for byte as one process does.
# usage: mpi_bundle.sh OZREF WORKDIR     (strace required: scripts/setup.sh installs it)
set -euo pipefail
ozref=$1 work=$2
command -v strace >/dev/null || { echo "mpi_bundle: FAIL: no strace (scripts/setup.sh installs it)"; exit 1; }
rm -rf "$work"; mkdir -p "$work"
bash "$(dirname "$0")/../../scripts/mpi_bundle.sh" "$work/made" "$ozref" >/dev/null
mv "$work/made" "$work/moved"  # the folder it was made in no longer exists
bundle=$work/moved
/usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(15)  # 37 x 23 x 29: no grid of 4 ranks divides it
np.save('$work/a.npy', rng.standard_normal((37, 29)) * np.exp2(rng.integers(-30, 31, (37, 29))))
np.save('$work/b.npy', np.asfortranarray(rng.standard_normal((29, 23))))"
echo "mpi_bundle: 37x29 A, 29x23 B (seed 15), 4 ranks against one process"
"$ozref" exact --a "$work/a.npy" --b "$work/b.npy" --out "$work/c1.npy" --threads 1 >/dev/null
# Its own session folder (Open MPI's default one is shared with, and removed by, parallel tests).
session=$(mktemp -d /tmp/ozref-mpi-XXXXXX); trap 'rm -rf "$session"' EXIT
(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work" TMPDIR="$session" timeout 120 strace -f -qq -z -o "$work/opens.txt" -e trace=openat,open \
   "$bundle/mpirun.sh" -n 4 --bind-to none "$bundle/bin/ozref" exact --a a.npy --b b.npy --out c4.npy --threads 1 >/dev/null)
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
cmp -s "$work/c1.npy" "$work/c4.npy" || fail "C from 4 ranks of the bundle differs from one process's"
opened=$(grep -o 'open[a-z]*([^"]*"/[^"]*"' "$work/opens.txt" | sed 's/.*"\(.*\)"/\1/' | sort -u)
# What the relocation must have found inside the bundle (so that the check below is not vacuous).
for inside in etc/openmpi/openmpi-mca-params.conf lib/libmpi.so.40 lib/libpmix.so.2 \
              lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_vader.so pmix2/lib/pmix/pmix_mca_prm_default.so; do
  grep -q -x "$bundle/$inside" <<<"$opened" || fail "$bundle/$inside was not opened"
done
# Outside the bundle: glibc, and the shell's and coreutils' own libraries, nothing else.
allowed="^(/$|$work/|$session/|/proc/|/sys/|/dev/|/tmp/vader_segment|/etc/(ld\.so\.cache|passwd|group|nsswitch\.conf|localtime)$|/(usr/)?lib/x86_64-linux-gnu/(libc|libm|libtinfo|libselinux|libpcre2-8)\.so)"
outside=$(grep -v -E "$allowed" <<<"$opened" || true)
[ -z "$outside" ] || fail "opened outside the bundle: $(tr '\n' ' ' <<<"$outside")"
echo "mpi_bundle: $(wc -l <<<"$opened") files opened, $failed failed"
[ $failed -eq 0 ]
