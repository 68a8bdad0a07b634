#!/usr/bin/env bash
# mpirun of a bundle made by scripts/mpi_bundle.sh (copied there as mpirun.sh), for ranks on this node
# only: OpenMPI and PMIx relocated into the bundle's folder, wherever it was unpacked.
# Usage: BUNDLE/mpirun.sh -n R [mpirun options] BUNDLE/bin/ozref VERB ...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# OpenMPI derives its folders from OPAL_PREFIX, but Debian's sysconfdir (/etc/openmpi) is absolute:
# every folder is named, so that none falls back to the path it was built with.
ompi_lib=$here/lib/x86_64-linux-gnu/openmpi/lib
export OPAL_PREFIX=$here OPAL_EXEC_PREFIX=$here OPAL_BINDIR=$here/bin OPAL_LIBDIR=$ompi_lib \
       OPAL_PKGLIBDIR=$ompi_lib/openmpi3 OPAL_DATAROOTDIR=$here/share OPAL_DATADIR=$here/share \
       OPAL_PKGDATADIR=$here/share/openmpi OPAL_SYSCONFDIR=$here/etc/openmpi
export PMIX_PREFIX=$here/pmix2 PMIX_EXEC_PREFIX=$here/pmix2 PMIX_LIBDIR=$here/pmix2/lib \
       PMIX_PKGLIBDIR=$here/pmix2/lib/pmix PMIX_DATAROOTDIR=$here/pmix2/share PMIX_DATADIR=$here/pmix2/share \
       PMIX_PKGDATADIR=$here/pmix2/share/pmix PMIX_SYSCONFDIR=$here/pmix2/share \
       PMIX_MCA_mca_base_component_path=$here/pmix2/lib/pmix
# The libraries before the system's (and before libmpi's RUNPATH); hwloc's optional plugins
# (PCI, OpenGL, ...) are not carried, so its plugin search looks only inside the bundle.
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} HWLOC_PLUGINS_PATH=$here/lib/hwloc
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# plm isolated: start ranks here, never through ssh/rsh. Shared memory between the ranks (vader),
# without the single-copy mechanism (CMA needs ptrace rights that containers often withhold) and with
# its segments in /tmp (a container's /dev/shm may hold only 64 MB).
exec "$here/bin/mpirun" "${root[@]}" --oversubscribe --mca plm isolated --mca pml ob1 --mca btl self,vader \
     --mca btl_vader_single_copy_mechanism none --mca btl_vader_backing_directory /tmp "$@"
