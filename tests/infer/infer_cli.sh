#!/bin/bash
# ozref infer through `ozref serve` as a subprocess (docs/infer.md's worked example): a made-up
# FP16 datapath (four fused groups of 4, F = 27, nearest-even) written as a spec file is recovered
# exactly; a black box that perturbs one input class is reported as outside the family (exit 1);
# bad input exits 2.
set -u
OZ="$1"; DIR="$2"
rm -rf "$DIR"; mkdir -p "$DIR"
OP=mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
fail() { echo "FAIL: $*"; exit 1; }

"$OZ" spec --arch sm_80 --op $OP --out "$DIR/mystery.json" || fail "spec export"
python3 - "$DIR/mystery.json" <<'PY' || fail "edit"
import json, sys
j = json.load(open(sys.argv[1])); s = j["instructions"][0]
s["blocks"] = [list(range(i, i + 4)) for i in range(0, 16, 4)]
s["block"].update(fraction_bits=27, rounding="nearest_even")
json.dump(j, open(sys.argv[1], "w"))
PY
"$OZ" infer --op $OP --oracle "$OZ serve --arch $DIR/mystery.json --op $OP" --out "$DIR/found.json" --validate 2000 > "$DIR/report.txt"
rc=$?; cat "$DIR/report.txt"
[ $rc = 0 ] || fail "infer exit $rc"
python3 - "$DIR/mystery.json" "$DIR/found.json" <<'PY' || fail "found.json is not the hidden datapath"
import json, sys
h = json.load(open(sys.argv[1]))["instructions"][0]; f = json.load(open(sys.argv[2]))["instructions"][0]
keys = ["blocks", "block", "c_added_after", "convert_to_fp16", "a_format", "k", "packing"]
bad = [k for k in keys if h[k] != f[k]]
print("found.json matches the hidden spec on", keys) if not bad else print("differs on", bad)
sys.exit(1 if bad else 0)
PY
"$OZ" spec --arch "$DIR/found.json" > /dev/null || fail "found.json is not usable as --arch"

# Outside the family: sm_90's answers with D's last bit flipped when C's last bit is set.
cat > "$DIR/perturbed.py" <<PY
import subprocess, sys
serve = subprocess.Popen(["$OZ", "serve", "--arch", "sm_90", "--op", "$OP"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    serve.stdin.write(line); serve.stdin.flush()
    d = int(serve.stdout.readline(), 16)
    if int(line.split()[3], 16) & 1 and d & 0x7FFFFFFF and (d & 0x7F800000) != 0x7F800000: d ^= 1
    print("%08x" % d, flush=True)
PY
"$OZ" infer --op $OP --oracle "python3 $DIR/perturbed.py" --validate 2000 > "$DIR/outside.txt"
rc=$?; cat "$DIR/outside.txt"
[ $rc = 1 ] || fail "outside the family: exit $rc, expected 1"
grep -q "no spec of the family reproduces the black box" "$DIR/outside.txt" || fail "no 'outside the family' message"

"$OZ" infer --op $OP 2> "$DIR/err.txt"; rc=$?
[ $rc = 2 ] && grep -q -- "--oracle" "$DIR/err.txt" || fail "neither --oracle nor --records: exit $rc"
"$OZ" infer --op $OP --oracle true 2> "$DIR/err.txt"; rc=$?
cat "$DIR/err.txt"
[ $rc = 2 ] && grep -qE "closed its output|stopped reading its input" "$DIR/err.txt" || fail "a silent oracle: exit $rc"
# A black box that never answers (and ignores its closed input): exit 2 within the timeout, the
# process group killed, nothing left running (the shell's child `sleep 300.17` included).
start=$(date +%s)
"$OZ" infer --op $OP --oracle "sleep 300.17; echo never" --oracle-timeout 0.5 2> "$DIR/err.txt"; rc=$?
cat "$DIR/err.txt"
[ $rc = 2 ] && grep -q "gave no answer within 0.5 s" "$DIR/err.txt" || fail "a hung oracle: exit $rc"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "a hung oracle held infer for $(( $(date +%s) - start )) s"
! pgrep -fx "sleep 300.17" > /dev/null || fail "the hung oracle's child is still running (its group was not killed)"
echo "infer_cli: 5 cases passed"
