#!/bin/sh
# `ozref exact --device gpu`, `ozref check --device gpu` and `ozref fuzz --exact-device gpu`, never
# skipped: without a usable GPU, exit 77 and one line saying why, before any input is read (the
# inputs here do not exist); with one, the verbs go on and refuse the missing output folder or
# input by name, exit 2 (device/exact_gpu_tests.sh tests the GPU's product itself).
ozref="$1"
for verb in exact check fuzz; do
  flag=--device
  case $verb in
    exact) out=$("$ozref" exact --a /nonexistent/a.npy --b /nonexistent/b.npy --out /nonexistent/c.npy --device gpu 2>&1) ;;
    check) out=$("$ozref" check --a /nonexistent/a.npy --b /nonexistent/b.npy --c /nonexistent/c.npy --device gpu 2>&1) ;;
    fuzz) flag=--exact-device
      out=$("$ozref" fuzz --subject exact --replay /nonexistent/case --cases 1 --exact-device gpu 2>&1) ;;
  esac
  rc=$?
  if [ "$rc" -eq 2 ]; then  # a GPU is present
    printf '%s\n' "$out" | grep -q "/nonexistent/" || { echo "exit 2 without naming the missing path: $out"; exit 1; }
    echo "ozref $verb $flag gpu with a GPU: exit 2 naming the missing path: $out"
    continue
  fi
  [ "$rc" -eq 77 ] || { echo "ozref $verb $flag gpu exited $rc: $out"; exit 1; }
  lines=$(printf '%s\n' "$out" | wc -l)
  printf '%s\n' "$out" | grep -Eq "^ozref $verb: .+; $flag gpu needs an sm_90, sm_100 or sm_120 GPU \(nothing was run\)$" || { echo "unexpected: $out"; exit 1; }
  [ "$lines" -eq 1 ] || { echo "$lines lines, not one: $out"; exit 1; }
  echo "ozref $verb $flag gpu: exit 77, one line: $out"
done
