#!/usr/bin/env bash
# Installs the Debian packages ozref's build, tests and benchmarks need.
# Idempotent: prints nothing and touches nothing when every package is already present.
set -euo pipefail
packages=(
  build-essential cmake ninja-build clang-14 libclang-rt-14-dev libomp-14-dev
  libgmp-dev libboost-dev catch2 librapidcheck-dev libz3-dev z3
  nlohmann-json3-dev libcli11-dev zlib1g-dev libopenblas-dev libdnnl-dev python3
  python3-dev pybind11-dev python3-numpy python3-pytest python3-venv python3-setuptools python3-wheel
  python3-torch python3-hypothesis libopenmpi-dev openmpi-bin strace
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
