#!/bin/sh
# `ozref exact --device gpu`, `ozref check --device gpu`, `ozref fuzz --exact-device gpu` and
# `ozref serve --device gpu`, never skipped: without a usable GPU, exit 77 and one line saying why,
# before any input is read (the inputs here do not exist), on standard error for serve (whose
# standard output carries answers); with one, the verbs go on and refuse the missing output
# folder or input by name, exit 2, and serve answers its empty input, exit 0
# (device/exact_gpu_tests.sh and device/infer_gpu_tests.sh test the GPU's answers themselves).
ozref="$1"
for verb in exact check fuzz serve; do
  flag=--device needs="an sm_90, sm_100 or sm_120 GPU"
  case $verb in
    exact) out=$("$ozref" exact --a /nonexistent/a.npy --b /nonexistent/b.npy --out /nonexistent/c.npy --device gpu 2>&1) ;;
    check) out=$("$ozref" check --a /nonexistent/a.npy --b /nonexistent/b.npy --c /nonexistent/c.npy --device gpu 2>&1) ;;
    fuzz) flag=--exact-device
      out=$("$ozref" fuzz --subject exact --replay /nonexistent/case --cases 1 --exact-device gpu 2>&1) ;;
    serve) needs="an sm_90 GPU"
      stdout=$("$ozref" serve --device gpu </dev/null 2>/dev/null)
      out=$("$ozref" serve --device gpu </dev/null 2>&1 >/dev/null) ;;
  esac
  rc=$?
  if [ "$verb" = serve ] && [ "$rc" -eq 0 ]; then  # a GPU is present
    echo "ozref serve --device gpu with a GPU: exit 0 on an empty input"
    continue
  fi
  if [ "$rc" -eq 2 ] && [ "$verb" != serve ]; then  # a GPU is present
    printf '%s\n' "$out" | grep -q "/nonexistent/" || { echo "exit 2 without naming the missing path: $out"; exit 1; }
    echo "ozref $verb $flag gpu with a GPU: exit 2 naming the missing path: $out"
    continue
  fi
  [ "$rc" -eq 77 ] || { echo "ozref $verb $flag gpu exited $rc: $out"; exit 1; }
  lines=$(printf '%s\n' "$out" | wc -l)
  printf '%s\n' "$out" | grep -Eq "^ozref $verb: .+; $flag gpu needs $needs \(nothing was run\)$" || { echo "unexpected: $out"; exit 1; }
  [ "$lines" -eq 1 ] || { echo "$lines lines, not one: $out"; exit 1; }
  if [ "$verb" = serve ] && [ -n "$stdout" ]; then echo "serve wrote to standard output: $stdout"; exit 1; fi
  echo "ozref $verb $flag gpu: exit 77, one line: $out"
done
