#!/bin/bash
# ozref infer on every built-in instruction, each served by `ozref serve` as a subprocess (the
# black box), with the default 10,000 validation queries: queries asked, time, validation count.
# Usage: bench/infer_bench.sh BUILD/ozref [ARCH...]   (default: every built-in spec without variants)
set -eu
OZ="$1"; shift
ARCHS="${*:-ideal sm_80 sm_89 sm_90 sm_100 sm_120 cdna3}"
echo "| spec | op | family | queries | validated | seconds | result |"
echo "|---|---|---|---|---|---|---|"
for A in $ARCHS; do
  for OP in $("$OZ" spec --arch "$A" | python3 -c 'import json,sys; print("\n".join(i["op"] for i in json.load(sys.stdin)["instructions"]))'); do
    "$OZ" infer --op "$OP" --like "$A" --oracle "$OZ serve --arch $A --op '$OP'" --json > /tmp/infer-bench.$$.json && rc=0 || rc=$?
    python3 - "$A" "$OP" $rc /tmp/infer-bench.$$.json <<'PY'
import json, sys
a, op, rc, path = sys.argv[1:5]
r = json.load(open(path))
print(f"| {a} | `{op}` | {r['family']} | {r['queries']} | {r['validated']} | {r['seconds']:.2f} | {'recovered' if rc == '0' else 'exit ' + rc} |")
PY
  done
done
rm -f /tmp/infer-bench.$$.json
