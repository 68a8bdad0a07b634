#!/usr/bin/env bash
# The GPU as a black box (docs/infer.md): `ozref serve --device gpu` answers every record of the
# H200 traces recorded by the probe program (tests/data/traces/h200) with the recorded D, byte for
# byte; then `ozref infer` rediscovers each sm_90 instruction's datapath from the GPU's answers
# alone, no spec given, and validates it on fresh random queries, counted. One line per check to
# OUT/summary.txt; the last line counts passed and failed. Needs an sm_90 GPU and python3, and an
# ozref built with CUDA (scripts/gpu_bundle.sh).
# Usage: bash infer_gpu_tests.sh OZREF OUT [TRACES, default tests/data/traces/h200 of the repository]
set -u
oz=$1 out=$2 traces=${3:-tests/data/traces/h200}
mkdir -p "$out"
"$oz" serve --device gpu </dev/null >"$out/gpu-check.txt" 2>&1
rc=$?
if [ $rc -ne 0 ]; then  # 77: no usable GPU; 2: not an sm_90 one
  cat "$out/gpu-check.txt"
  exit $rc
fi
if ! ls "$traces"/*.jsonl.gz >/dev/null 2>&1; then
  echo "infer_gpu_tests: no recorded traces (*.jsonl.gz) in $traces"
  exit 2
fi
summary="$out/summary.txt"
: >"$summary"
passed=0 failed=0
ops=()

for trace in "$traces"/*.jsonl.gz; do
  name=$(basename "$trace" .jsonl.gz)
  # The records as queries (OP A B C), and their recorded answers (D), one per line each.
  python3 - "$trace" "$out/$name.queries" "$out/$name.recorded" <<'PY'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt") as f, open(sys.argv[2], "w") as q, open(sys.argv[3], "w") as d:
    for line in f:
        r = json.loads(line)
        q.write(f"{r['op']} {r['a']} {r['b']} {r['c']}\n")
        d.write(r["d"] + "\n")
PY
  t0=$(date +%s.%N)
  "$oz" serve --device gpu <"$out/$name.queries" >"$out/$name.answers" 2>"$out/$name.err"
  rc=$? t1=$(date +%s.%N)
  records=$(wc -l <"$out/$name.recorded")
  ops+=("$(head -1 "$out/$name.queries" | cut -d' ' -f1)")
  differing=$(paste -d' ' "$out/$name.recorded" "$out/$name.answers" | awk '$1 != $2' | wc -l)
  secs=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")
  if [ $rc -eq 0 ] && [ "$records" -gt 0 ] && [ "$differing" -eq 0 ] && [ "$(wc -l <"$out/$name.answers")" -eq "$records" ]; then
    echo "PASS serve $name: $records recorded records answered as recorded ($secs s)" >>"$summary"; passed=$((passed + 1))
  else
    echo "FAIL serve $name: exit $rc, $differing of $records differ: $(head -c 300 "$out/$name.err")" >>"$summary"; failed=$((failed + 1))
  fi
done

# infer from the GPU alone: each traced instruction's datapath, no spec given; validated on 5,000
# fresh queries.
for op in "${ops[@]}"; do
  short=$(echo "$op" | tr -c 'a-z0-9\n' '_')
  "$oz" infer --op "$op" --oracle "$oz serve --device gpu --op $op" --validate 5000 --out "$out/$short.json" --json >"$out/$short.infer.json" 2>"$out/$short.infer.err"
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "PASS infer $op: $(head -c 400 "$out/$short.infer.json")" >>"$summary"; passed=$((passed + 1))
  else
    echo "FAIL infer $op: exit $rc: $(head -c 400 "$out/$short.infer.json") $(head -c 300 "$out/$short.infer.err")" >>"$summary"; failed=$((failed + 1))
  fi
done

echo "the GPU as a black box: $passed passed, $failed failed" >>"$summary"
cat "$summary"
[ $failed -eq 0 ]
