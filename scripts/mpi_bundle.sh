#!/usr/bin/env bash
# Builds a relocatable MPI ozref for a machine without MPI (the GPU host: a CUDA image, no OpenMPI, no
# package registry): build/ozref (OZREF_MPI=ON) and Debian's OpenMPI 4.1 runtime (orterun, orted,
# the MCA plugins, PMIx and its plugins, the help texts) with every shared library they load but
# glibc's, laid out as Debian installs them under one folder, and DIR/mpirun.sh, which points
# OpenMPI's and PMIx's relocation variables (OPAL_PREFIX, PMIX_PREFIX, ...) at that folder and
# runs mpirun for one node (docs/scale.md, "A node without MPI"). The plugins for networks (verbs,
# libfabric, UCX, PSM) are left out: one node needs only shared memory, and leaving them out keeps
# their libraries, and OpenMPI's warnings about them, away. Nothing here is built but ozref.
# Usage: bash scripts/mpi_bundle.sh [bundle folder, default mpi-bundle] [ozref, default build/ozref, built first]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-mpi-bundle}
ozref=${2:-}
multiarch=lib/x86_64-linux-gnu
ompi_plugins=/usr/$multiarch/openmpi/lib/openmpi3  # Debian's pkglibdir: ${libdir}/openmpi3
pmix_root=/usr/$multiarch/pmix2                    # Debian's external PMIx, its own prefix
[ -x /usr/bin/orterun ] && [ -d "$ompi_plugins" ] && [ -d "$pmix_root/lib/pmix" ] ||
  { echo "mpi_bundle: needs Debian's openmpi-bin, libopenmpi3 and libpmix2 (scripts/setup.sh)" >&2; exit 2; }
if [ -z "$ozref" ]; then
  ozref=build/ozref
  cmake --build build --parallel 2 --target ozref
fi
# grep without -q throughout: under pipefail, an early exit of grep -q can kill ldd with SIGPIPE
# and fail a pipe whose answer was yes.
ldd "$ozref" | grep 'libmpi\.so' >/dev/null ||
  { echo "mpi_bundle: $ozref is not built with MPI (configure with -DOZREF_MPI=ON)" >&2; exit 2; }

[ ! -e "$out" ] || [ -f "$out/mpirun.sh" ] ||
  { echo "mpi_bundle: $out exists and is not a bundle; not replacing it" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/$multiarch/openmpi/lib/openmpi3" "$out/share" "$out/etc/openmpi" \
         "$out/pmix2/lib" "$out/pmix2/share"
cp "$ozref" /usr/bin/orterun /usr/bin/orted "$out/bin/"
strip "$out/bin/ozref"  # symbols are not needed there; the carried tree is limited
ln -s orterun "$out/bin/mpirun"
for plugin in "$ompi_plugins"/*.so; do  # the ones that need a network library stay behind
  ldd "$plugin" | grep -E 'libfabric|libuc[pst]|libpsm|libibverbs|librdmacm' >/dev/null || cp "$plugin" "$out/$multiarch/openmpi/lib/openmpi3/"
done
cp -r "$pmix_root/lib/pmix" "$out/pmix2/lib/"
cp -r "$pmix_root/share/pmix" "$out/pmix2/share/"
cp -r /usr/share/openmpi "$out/share/"
# Debian's parameter files, less what names a system path (PMIx's plugin path): mpirun.sh sets it.
grep -v '^mca_base_component_path' "$pmix_root/share/pmix-mca-params.conf" >"$out/pmix2/share/pmix-mca-params.conf"
cp /etc/openmpi/openmpi-mca-params.conf "$out/etc/openmpi/"

# Every shared library that any of these loads, but glibc's: the node's own must be 2.36 or newer (Debian 12's).
glibc='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libresolv|libutil)\.so'
elves=("$out"/bin/orte* "$out/bin/ozref" "$out"/$multiarch/openmpi/lib/openmpi3/*.so "$out"/pmix2/lib/pmix/*.so)
ldd "${elves[@]}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r name path; do
    [[ $name =~ $glibc ]] || cp -L "$path" "$out/lib/$name"
  done
if ldd "${elves[@]}" 2>/dev/null | grep 'not found' >/dev/null; then
  echo "mpi_bundle: a library is missing:" >&2; ldd "${elves[@]}" | grep 'not found' | sort -u >&2; exit 1
fi
cp scripts/mpi_bundle_mpirun.sh "$out/mpirun.sh"
echo "mpi_bundle: $out ($(du -sh "$out" | cut -f1)): $out/mpirun.sh -n R $out/bin/ozref exact ..."
