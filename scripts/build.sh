#!/usr/bin/env bash
# Installs what is missing, configures and builds everything, then runs the main job on the
# built-in default problem (ozaki2-int8 on a seeded 128x128x1024 pair, every stage verified).
# Usage: bash scripts/build.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build --parallel "$(nproc)"
./build/ozref run
