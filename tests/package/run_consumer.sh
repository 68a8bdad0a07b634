#!/usr/bin/env bash
# Installs the built ozref into a fresh prefix under WORK, then configures, builds and runs the
# external project tests/package/consumer against it with find_package(ozref).
# Usage: run_consumer.sh OZREF_BUILD_DIR WORK CXX_COMPILER [CXX_FLAGS]
set -euo pipefail
build=$1 work=$2 cxx=$3 flags=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" --component development >/dev/null
# The installed tree holds the public headers only.
if find "$work/prefix/include" -type f ! -path "*/include/ozref/*" | grep -q .; then
  echo "headers outside include/ozref were installed"; exit 1
fi
cmake -S "$here/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer" "$work"
