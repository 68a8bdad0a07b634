#!/usr/bin/env bash
# Installs the built ozref (the command and the package) into a fresh prefix under WORK, configures
# tests/package/fuzz_consumer against it, and runs its two ozref_add_fuzz_test cases (the exact
# subject must pass, GEMMul8's fast mode must fail with a reproducer in its OUT folder) and its
# RapidCheck property on the installed ozref/rapidcheck.hpp (must hold).
# Usage: run_fuzz_consumer.sh OZREF_BUILD_DIR WORK CXX_COMPILER [CXX_FLAGS]
# (the build's compiler and sanitizer flags, so that the property links against its libraries)
set -euo pipefail
build=$1 work=$2 cxx=$3 flags=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here/fuzz_consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cd "$work/build"
cmake --build . >/dev/null
ctest -R '^(exact-holds|rapidcheck-operands)$' --output-on-failure
if ctest -R '^gemmul8-fast-fails$' >/dev/null; then
  echo "gemmul8-fast-fails passed: the fuzz test did not fail"; exit 1
fi
test -f "$work/build/fuzz-gemmul8-fast-fails/report.json"
echo "fuzz consumer: 3 cases (seed 1), 0 failed"
