#!/usr/bin/env bash
# The whole test suite built with clang, AddressSanitizer and UndefinedBehaviorSanitizer, plus
# the libFuzzer targets; then a short fuzzing run of every target (docs/fuzzing.md).
# Usage: bash scripts/sanitize.sh [seconds per fuzz target, default 20]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
bash scripts/setup.sh
cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DOZREF_FUZZ=ON -DOZREF_SANITIZE=ON -DOZREF_CUDA=OFF -DOZREF_MPI=OFF >/dev/null
cmake --build build-san --parallel "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-san && ctest --output-on-failure --parallel "$(nproc)" -E 'bench')
for t in npy mma_trace formats crt mma mma_fp limbs run cli trace; do
  work=$(mktemp -d)
  cp fuzz/corpus/$t/* "$work"/
  echo "fuzz_$t: ${seconds}s"
  log=$(mktemp)
  dict=()
  if [ -f fuzz/fuzz_$t.dict ]; then dict=(-dict=fuzz/fuzz_$t.dict); fi
  if ! ./build-san/fuzz/fuzz_$t -max_total_time="$seconds" "${dict[@]}" -print_final_stats=1 \
       "$work" >"$log" 2>&1; then
    cat "$log"
    echo "fuzz_$t FAILED (the crashing input is saved by libFuzzer as crash-*)"
    exit 1
  fi
  grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' "$log"
  rm -rf "$work" "$log"
done
