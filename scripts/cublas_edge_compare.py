#!/usr/bin/env python3
"""Compares what device/probes/cublas_edge_probe.cu recorded on the H200 (cuBLAS 13.1's FP64 emulation
on issue 38's three classes: products below the normal range, DYNAMIC on heavy tails, spans whose
DYNAMIC count exceeds 127) with ozref's model of it, `ozref run --scheme cublas-fixedpoint@13.1`.

Usage: cublas_edge_compare.py RECORDS OZREF [CASE_PREFIX]
  RECORDS  the probe's OUT_DIR (cases.txt and the .npy files)
  OZREF    the ozref executable (build/ozref)
  CASE_PREFIX  only the cases whose name starts with it (e.g. sub_, phi, span, gap)

One line per recorded output:
  CASE SETTING count=C model=SAME/TOTAL [rule=R] [native=SAME] [fixed=BEST:SAME union=U]
  count   the bit count cuBLAS reported; model: elements bit-identical to ozref at that count
  (FIXED: --mantissa-bits C; DYNAMIC: --mantissa-bits dynamic:C, dynamic:C:<max> for [dyn<o>]cap<max>;
  "refused" where ozref refuses it);
  rule    ozref's DYNAMIC count for the inputs plus the setting's offset, at least 0 (DYNAMIC settings
          only: dynamic, dyn<offset>, dyncap<max bit count>); "rule=R!" where it is not the count;
  native  elements bit-identical to cuBLAS's native DGEMM on the same inputs (DYNAMIC only);
  fixed   the recorded fixed setting with the most elements bit-identical to this DYNAMIC output,
          and union: elements equal to at least one recorded fixed setting (DYNAMIC only).
then per class: "SUMMARY CLASS: I of N outputs bit-identical to the model, R refused by it", and
"ALL: I of N outputs bit-identical, R counts unlike the rule" (the line ctest's replay:cublas-edge reads)
and "  cublas-edge: N cases (seed S)", S the probe's seed from the listing's header.
Exit 0 when every output was compared (mismatches are the findings, not failures); 2 on bad input.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

SCHEME = "cublas-fixedpoint@13.1"
CLASSES = {"sub_": "class 1 (below the normal range)", "phi": "class 2 (heavy tails)", "span": "class 3 (wide spans)",
           "gap": "class 3 (wide spans)", "fb": "the fallback's order", "cap": "the max's threshold"}  # by case-name prefix
DYNAMIC_SETTING = re.compile(r"dyn(?:amic)?(-?\d+)?(?:cap(\d+))?")  # dynamic, dyn<offset>, dyncap<max>, dyn<offset>cap<max>


def bits_of(path):
    """C's bit patterns (uint64, m x n)."""
    return np.ascontiguousarray(np.load(path)).view(np.uint64)


def ozref(exe, a, b, bits, out):
    """ozref's C at `bits` (an int or "dynamic"); (bit patterns, its count) or (None, error) when it refuses."""
    done = subprocess.run([exe, "run", "--scheme", SCHEME, "--mantissa-bits", str(bits), "--a", a, "--b", b, "--out", out,
                           "--verify", "none", "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    count = json.loads(done.stdout)["options"]["mantissa-bits"]
    return bits_of(out), count


class Case:
    def __init__(self, line, records, exe, scratch):
        fields = line.split()
        self.name, self.group = fields[0], fields[4]
        self.settings = dict(f.split("=", 1) for f in fields[5:])
        self.records, self.exe, self.scratch = records, exe, scratch
        self.a, self.b = (os.path.join(records, f"{self.name}_{x}.npy") for x in "AB")
        self.models = {}

    def recorded(self, setting):
        return bits_of(os.path.join(self.records, f"{self.name}_{setting}_C.npy"))

    def model(self, bits):
        """ozref's output at `bits` (an int, "dynamic" or "dynamic:..."), a FIXED count computed once per
        slice count (the scheme quantizes B to 8n - 1)."""
        key = bits if isinstance(bits, str) else 8 * -(-(bits + 1) // 8) - 1
        if key not in self.models:
            self.models[key] = ozref(self.exe, self.a, self.b, bits, os.path.join(self.scratch, "c.npy"))
        return self.models[key]

    def rule_count(self):
        """ozref's DYNAMIC count (None where it refuses: no finite estimate)."""
        _, count = self.model("dynamic")
        found = re.fullmatch(r"dynamic:(\d+)", count)
        return int(found.group(1)) if found else None

    def fixed_names(self):
        return [s for s, v in self.settings.items() if s.startswith("fixed") and not v.startswith("rejected")]


def count_of(value):
    return int(value.split("+")[0])


def model_argument(setting, count):
    """--mantissa-bits for a setting's recorded output: the FIXED count, or the DYNAMIC count under its max."""
    if not setting.startswith("dyn"):
        return count
    cap = DYNAMIC_SETTING.fullmatch(setting).group(2)
    return f"dynamic:{count}:{cap}" if cap else f"dynamic:{count}"


def model_field(case, setting, bits, recorded):
    """The model field and the elements bit-identical (None: ozref refuses)."""
    if not setting.startswith("dyn") and (bits < 23 or bits > 127):
        return "model=refused(count)", None
    c, why = case.model(model_argument(setting, bits))
    if c is None:
        return f"model=refused({why})", None
    same = int(np.sum(c == recorded))
    return f"model={same}/{recorded.size}", same


def dynamic_fields(case, setting, count, recorded, tally):
    offset = int(DYNAMIC_SETTING.fullmatch(setting).group(1) or 0)
    rule = case.rule_count()
    if rule is not None:
        rule = max(0, rule + offset)  # cuBLAS reports 0 where the offset goes below
    tally[3] += rule != count
    fields = [f"rule={rule}{'' if rule == count else '!'}" if rule is not None else "rule=refused"]
    fields.append(f"native={int(np.sum(case.recorded('native') == recorded))}")
    fixed = {s: case.recorded(s) == recorded for s in case.fixed_names()}
    if fixed:
        best = max(fixed, key=lambda s: int(np.sum(fixed[s])))
        union = np.logical_or.reduce(list(fixed.values()))
        fields.append(f"fixed={best}:{int(np.sum(fixed[best]))} union={int(np.sum(union))}")
    return fields


def compare(case, tally):
    """Prints one line per recorded output; adds (outputs, identical outputs, refused, counts unlike the
    rule) to tally."""
    for setting, value in case.settings.items():
        if setting == "native":
            continue
        if value.startswith("rejected"):
            print(case.name, setting, value)
            continue
        recorded, count = case.recorded(setting), count_of(value)
        field, same = model_field(case, setting, count, recorded)
        fields = [f"count={value}", field]
        tally[0] += 1
        tally[1] += same == recorded.size
        tally[2] += same is None
        if setting.startswith("dyn"):
            fields += dynamic_fields(case, setting, count, recorded, tally)
        print(case.name, setting, " ".join(fields), flush=True)


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    records, exe = argv[1], argv[2]
    prefix = argv[3] if len(argv) == 4 else ""
    listing = os.path.join(records, "cases.txt")
    if not os.path.isfile(listing) or not os.access(exe, os.X_OK):
        print(f"cublas_edge_compare: need {listing} and an executable ozref (got {exe})", file=sys.stderr)
        return 2
    with open(listing) as f, tempfile.TemporaryDirectory() as scratch:
        tallies, seed = {}, "unknown"
        for line in f:
            if line.startswith("#"):
                print(line.strip())
                seed = line.split("seed ")[1].split(",")[0] if "seed " in line else seed
            elif line.startswith(prefix):
                group = CLASSES[next(p for p in CLASSES if line.startswith(p))]
                compare(Case(line, records, exe, scratch), tallies.setdefault(group, [0, 0, 0, 0]))
    for group, (outputs, identical, refused, _) in tallies.items():
        print(f"SUMMARY {group}: {identical} of {outputs} outputs bit-identical to the model, {refused} refused by it")
    total = [sum(t[i] for t in tallies.values()) for i in range(4)]
    print(f"ALL: {total[1]} of {total[0]} outputs bit-identical, {total[3]} counts unlike the rule")
    print(f"  cublas-edge: {total[0]} cases (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
