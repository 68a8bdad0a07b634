#!/usr/bin/env bash
# pip install . as a user does it from a fresh clone (docs/python.md): the working tree's files
# (tracked and untracked, not ignored) copied to WORK/src, a venv made with --system-site-packages,
# pip offline without build isolation, then `import ozref` from another folder, with no PYTHONPATH.
# Usage: pip_install.sh WORK [BUILD_DIR [PYTHON]]
#   BUILD_DIR: a configured CMake build folder to reuse (OZREF_BUILD_DIR); without it the copy
#   configures and builds its own (minutes). PYTHON: the interpreter (default Debian's).
set -euo pipefail
work=$1 build=${2:-} python=${3:-/usr/bin/python3}
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "$build" ]; then build=$(cd "$build" && pwd); fi  # pip builds in the copy: no relative path
rm -rf "$work"
mkdir -p "$work/src" "$work/elsewhere"
cd "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git ls-files -co --exclude-standard -z | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$work/src"
else  # not a git checkout: everything but build folders
  tar --exclude='./build*' -cf - . | tar -xf - -C "$work/src"
fi
"$python" -m venv --system-site-packages "$work/venv"
OZREF_BUILD_DIR=$build "$work/venv/bin/pip" install --no-build-isolation --no-index -q "$work/src"
# The venv's copy, found without help: sum(1, 2^-60, -1) is 2^-60 exactly, where FP64 in order gives 0.
cd "$work/elsewhere"
env -u PYTHONPATH "$work/venv/bin/python" - "$work/venv" <<'PY'
import sys
import numpy as np
import ozref
venv = sys.argv[1]
if not ozref.__file__.startswith(venv):
    sys.exit(f"ozref imported from {ozref.__file__}, not from the venv {venv}")
c = ozref.exact(np.array([[1.0, 2.0**-60, -1.0]]), np.ones((3, 1)))[0, 0]
if c != 2.0**-60:
    sys.exit(f"ozref.exact gave {c!r}, expected 2**-60")
print(f"pip install .: ozref imported from the venv ({ozref.__file__}), exact sum 2**-60 right")
PY
