#!/bin/sh
# `ozref exact --device gpu` and `ozref check --device gpu` without a usable GPU: exit 77 and one
# line saying why, before any input is read (the inputs here do not exist). Where a GPU is
# present the verbs go on to read the inputs (exit 2): this test then skips (77), and
# device/exact_gpu_tests.sh is the GPU's test.
ozref="$1"
for verb in exact check; do
  if [ "$verb" = exact ]; then
    out=$("$ozref" exact --a /nonexistent/a.npy --b /nonexistent/b.npy --out /nonexistent/c.npy --device gpu 2>&1)
  else
    out=$("$ozref" check --a /nonexistent/a.npy --b /nonexistent/b.npy --c /nonexistent/c.npy --device gpu 2>&1)
  fi
  rc=$?
  if [ "$rc" -ne 77 ]; then
    echo "ozref $verb --device gpu exited $rc: a GPU is present, this test is for machines without one"
    exit 77
  fi
  lines=$(printf '%s\n' "$out" | wc -l)
  printf '%s\n' "$out" | grep -Eq "^ozref $verb: .+; --device gpu needs an sm_90, sm_100 or sm_120 GPU \(nothing was run\)$" || { echo "unexpected: $out"; exit 1; }
  [ "$lines" -eq 1 ] || { echo "$lines lines, not one: $out"; exit 1; }
  echo "ozref $verb --device gpu: exit 77, one line: $out"
done
