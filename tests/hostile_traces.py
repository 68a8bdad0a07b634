#!/usr/bin/python3
"""Hostile values in kernel traces (docs/verify-trace.md): for every scheme `ozref run --dump`
supports, a small trace of its own, then copies of it with one stage array replaced by extreme
values, each given to `ozref verify-trace`. Shift, exponent and scale arrays take INT32_MIN,
INT32_MAX, +-1100, +-2000, 2^30 and a random mix of those; the other integer arrays their dtype's
extremes and a mix of them; floating-point arrays NaN, infinity, minus their largest finite value,
2^63 and 0.5; the accurate scaling's bound arrays also with the scale stage left out, so that ozref
computes the shifts from them. Every case must end in a report (exit 1: a violation, more than the unchanged trace has;
exit 0 only where the stage is not compared bit for bit: the scale shifts, a free choice, and the
dd CRT's hi and lo, held to their contract) or a clear error naming the file (exit 2), never a
signal, a sanitizer's report or another exit code. The sanitizer build (scripts/sanitize.sh) runs
it to find undefined behaviour on the way; the unchanged traces must verify as their runs did, so
the cases are judged on traces that are right.

Two more classes: each trace with one of its files (every array and the manifest) replaced by a
symbolic link to the identical file outside the folder, which must be refused (exit 2, "is a
symbolic link", naming the file): a reader that followed the link would find a valid trace; and
`ozref run --dump` over an existing trace killed part-way (SIGKILL, SIGINT, SIGTERM at several
moments), after which the folder must hold the old trace or the new one, whole, and verify.

usage: hostile_traces.py OZREF WORKDIR   (OZREF_SEED overrides the seed of the mixes)
"""
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

OZREF, WORK = sys.argv[1], sys.argv[2]
SEED = int(os.environ.get("OZREF_SEED", "0x5eed2026"), 0)
SHAPE = ["--m", "4", "--n", "3", "--k", "40"]
CONFIGS = {  # label: the options of `ozref run`
    "ozaki2-int8": ["--scheme", "ozaki2-int8"],
    "ozaki2-int8-fast": ["--scheme", "ozaki2-int8", "--mode", "fast"],
    "ozaki2-int8-dd": ["--scheme", "ozaki2-int8", "--crt", "dd"],
    "ozaki2-int8-complex-3m": ["--scheme", "ozaki2-int8", "--complex"],
    "ozaki2-int8-complex-gaussian": ["--scheme", "ozaki2-int8", "--complex", "--complex-product", "gaussian"],
    "ozaki2-fp8": ["--scheme", "ozaki2-fp8"],
    "ozaki2-fp4": ["--scheme", "ozaki2-fp4", "--arch", "sm_120"],
    "rare": ["--scheme", "rare"],
    "ozaki1-int8": ["--scheme", "ozaki1-int8"],
    "ozaki1-int8-cublas-fp64": ["--scheme", "ozaki1-int8", "--slicing", "cublas", "--accumulate", "fp64"],
    "ozaki1-fp4-complex": ["--scheme", "ozaki1-fp4", "--arch", "sm_100", "--slices", "6", "--complex"],
    "ozaki1-fp4": ["--scheme", "ozaki1-fp4", "--arch", "sm_100", "--slices", "6"],
    "int8-on-fp4": ["--scheme", "int8-on-fp4", "--dist", "integers:127"],
    "gemmul8": ["--scheme", "gemmul8@2.0.14"],
    "cublas-fixedpoint": ["--scheme", "cublas-fixedpoint@13.1", "--mantissa-bits", "55", "--kblock", "16"],
}
DTYPES = {"i1": "<i1", "u1": "<u1", "i2": "<i2", "u2": "<u2", "i4": "<i4", "u4": "<u4", "i8": "<i8", "u8": "<u8", "f4": "<f4", "f8": "<f8"}
I32 = np.iinfo(np.int32)
SHIFTS = [I32.min, I32.max, 1100, -1100, 2000, -2000, 1 << 30]
SANITIZER_MARKS = ("runtime error:", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehaviorSanitizer")


def is_shift(stage, array):
    """A shift, exponent or scale: the arrays a kernel chooses or that feed ldexp and shifts."""
    return stage == "scale" or any(word in array for word in ("shift", "exp", "scale", "bits"))


def mutations(stage, array, dtype, shape, rng):
    """(name, values) for one array: each fills the whole array."""
    dt = np.dtype(DTYPES[dtype])
    if dt.kind == "f":
        big = float(np.finfo(dt).max)
        picks = [("nan", np.nan), ("inf", np.inf), ("-max", -big), ("2^63", 2.0**63), ("0.5", 0.5)]
        return [(name, np.full(shape, v, dtype=dt)) for name, v in picks]
    info = np.iinfo(dt)
    picks = [v for v in SHIFTS if info.min <= v <= info.max] if is_shift(stage, array) else []
    picks += [v for v in (info.min, info.max) if v not in picks]
    out = [(str(v), np.full(shape, v, dtype=dt)) for v in picks]
    mix = picks + [0, 1, -1 if info.min < 0 else 2]
    out.append(("mixed", rng.choice(np.array(mix, dtype=object), size=shape).astype(dt)))
    return out


def run(args, timeout=120):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run([OZREF, *args], capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def make_trace(label, options):
    """The trace of `ozref run --dump` and its stages' violation counts (gemmul8@2.0.14's dd CRT is
    not exact by design: its own trace has violations at crt, which the copies are held against)."""
    folder = os.path.join(WORK, label)
    shutil.rmtree(folder, ignore_errors=True)
    code, out, err = run(["run", *options, *SHAPE, "--seed", "7", "--threads", "1", "--json", "--dump", folder])
    if not os.path.exists(os.path.join(folder, "manifest.json")):
        sys.exit(f"{label}: ozref run --dump wrote no trace (exit {code}): {err.strip()}")
    return folder, {st["name"]: st["violations"] for st in json.loads(out)["stages"]}


def mutated_copy(base, folder, manifest, entry, values, drop=None):
    """`base` copied to `folder` (links) with entry's file replaced by `values`, its hash dropped,
    and the stage `drop` left out of the manifest (the CPU then computes it from `values`)."""
    os.makedirs(folder)
    for name in os.listdir(base):
        if name.endswith(".npy") and name != entry["file"]:
            os.link(os.path.join(base, name), os.path.join(folder, name))
    np.save(os.path.join(folder, entry["file"]), values)
    edited = json.loads(json.dumps(manifest))
    edited["stages"] = [st for st in edited["stages"] if st["name"] != drop]
    for st in edited["stages"]:
        for a in st["arrays"]:
            if a["file"] == entry["file"]:
                a.pop("fnv1a64", None)
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(edited, f)


def judge(stage, entry, code, out, err, baseline):
    """None when the outcome is one the rules allow, else why not. `baseline`: the violations of
    each stage on the unchanged trace."""
    if code < 0:
        return f"killed by signal {-code}: {err.strip()[-2000:]}"
    if any(mark in err for mark in SANITIZER_MARKS):
        return f"a sanitizer's report (exit {code}): {err.strip()[-3000:]}"
    if code == 2:
        first = err.strip().splitlines()[0] if err.strip() else ""
        if entry is None or entry["file"] not in first:
            return f"exit 2 without naming the file: {err.strip()[:500]}"
        return None if out == "" else "exit 2 with a report printed"
    if code not in (0, 1):
        return f"exit {code}: {err.strip()[-2000:]}"
    try:
        report = json.loads(out)
    except ValueError:
        return f"exit {code} without a JSON report: {out[:300]} {err[:300]}"
    stages = report["stages"]
    if entry is None:  # the unchanged trace: every stage matches, with the run's own verdicts
        if not all(s["present"] and s["identical"] and s["violations"] == baseline[s["name"]] for s in stages):
            return f"the unchanged trace does not verify as its run did: {out[:1000]}"
        return None
    mine = next((s for s in stages if s["name"] == stage), None)
    if mine is None:
        return f"the report has no stage {stage}"
    if code == 0 and mine["compared"]:
        return "exit 0: the change went unnoticed (a stage compared bit for bit; only free choices and the dd CRT's rounding may change)"
    if code == 1 and all(s["identical"] and s["violations"] <= baseline[s["name"]] for s in stages):
        return "exit 1 but every stage matched and verified as on the unchanged trace"
    return None


def linked_copy(base, folder, name):
    """`base` copied to `folder` with file `name` a symbolic link to base's own (identical) file."""
    shutil.copytree(base, folder)
    os.remove(os.path.join(folder, name))
    os.symlink(os.path.join(base, name), os.path.join(folder, name))


def judge_link(name, code, err):
    first = err.strip().splitlines()[0] if err.strip() else ""
    if code == 2 and f"/{name}: is a symbolic link" in first:
        return None
    return f"a planted link was not refused (exit {code}): {err.strip()[:500]}"


def contents(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                out[os.path.relpath(os.path.join(root, name), folder)] = f.read()
    return out


def interrupted_dumps(rng):
    """(cases, failures): `ozref run --dump` over an existing trace, killed part-way."""
    big = ["--scheme", "ozaki2-int8", "--m", "64", "--n", "64", "--k", "256", "--threads", "1"]
    folder = os.path.join(WORK, "interrupted")
    code, _, err = run(["run", *big, "--seed", "1", "--dump", folder])
    if code != 0:
        sys.exit(f"interrupted dumps: the first dump failed: {err.strip()}")
    start = time.monotonic()
    run(["run", *big, "--seed", "2", "--dump", os.path.join(WORK, "timing")])
    seconds = time.monotonic() - start
    shutil.rmtree(os.path.join(WORK, "timing"))
    cases, failures = 0, []
    for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGTERM):
        for fraction in (0.2, 0.6, rng.uniform(0, 1)):
            before = contents(folder)
            p = subprocess.Popen([OZREF, "run", *big, "--seed", str(3 + cases), "--dump", folder],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ, OMP_NUM_THREADS="1"))
            time.sleep(seconds * fraction)
            p.send_signal(sig)
            p.wait()
            after = contents(folder)
            what = f"dump killed by {sig.name} at {fraction:.2f} of its time (exit {p.returncode})"
            with open(os.path.join(folder, "manifest.json")) as f:
                seed = json.load(f)["seed"]
            if after != before and seed != 3 + cases:  # neither the old trace nor the new one (verify-trace: whole)
                failures.append(f"{what}: the old trace changed and the new one is not in place")
            code, _, err = run(["verify-trace", folder, "--threads", "1"])
            if code != 0:
                failures.append(f"{what}: the trace left does not verify (exit {code}): {err.strip()[:300]}")
            cases += 1
    # A dump killed outright leaves its new folder beside the trace; the next dump removes it.
    code, _, err = run(["run", *big, "--seed", "99", "--dump", folder])
    stray = [n for n in os.listdir(WORK) if n.startswith(".ozref-")]
    if code != 0 or stray:
        failures.append(f"the dump after the interrupted ones: exit {code}, left {stray}: {err.strip()[:300]}")
    shutil.rmtree(folder)
    return cases + 1, failures


def main():
    shutil.rmtree(WORK, ignore_errors=True)  # a failed run keeps its traces
    os.makedirs(WORK)
    rng = np.random.default_rng(SEED)
    cases, failures = [], []
    for label, options in CONFIGS.items():
        base, baseline = make_trace(label, options)
        with open(os.path.join(base, "manifest.json")) as f:
            manifest = json.load(f)
        cases.append((f"{label} unchanged", base, None, None, baseline))
        for name in ["manifest.json"] + [a["file"] for st in manifest["stages"] for a in st["arrays"]]:
            folder = os.path.join(WORK, f"{label}-link-{len(cases)}")
            linked_copy(base, folder, name)
            cases.append((f"{label} {name} a link", folder, None, {"link": name}, baseline))
        for st in manifest["stages"]:
            if st["name"] == "input":
                continue
            for entry in st["arrays"]:
                original = np.load(os.path.join(base, entry["file"]))
                for name, values in mutations(st["name"], entry["name"], entry["dtype"], original.shape, rng):
                    if values.tobytes() == original.tobytes():
                        continue  # no change: nothing to find
                    # What the accurate scaling reads of the bound also without the scale stage:
                    # ozref's scale then computes the shifts from the extremes (a present scale is
                    # taken as it is).
                    scale_reads = st["name"] == "bound" and entry["name"] in ("row_exp", "col_exp", "c")
                    for drop in [None] + (["scale"] if scale_reads else []):
                        what = f"{label} {st['name']}.{entry['name']} = {name}" + (f", no {drop} stage" if drop else "")
                        folder = os.path.join(WORK, f"{label}-{st['name']}-{entry['name']}-{len(cases)}")
                        mutated_copy(base, folder, manifest, entry, values, drop)
                        cases.append((what, folder, st["name"], entry, baseline))

    def one(case):
        what, folder, stage, entry, baseline = case
        code, out, err = run(["verify-trace", folder, "--json", "--threads", "1"])
        if entry and "link" in entry:
            return what, code, judge_link(entry["link"], code, err)
        return what, code, judge(stage, entry, code, out, err, baseline)

    codes = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for what, code, problem in pool.map(one, cases):
            codes[code] = codes.get(code, 0) + 1
            if problem:
                failures.append(what)
                print(f"FAIL: {what}: {problem}")
    dumps, dump_failures = interrupted_dumps(rng)
    for problem in dump_failures:
        print(f"FAIL: {problem}")
    failures += dump_failures
    cases += [None] * dumps
    tally = ", ".join(f"exit {c}: {n}" for c, n in sorted(codes.items()))
    print(f"hostile traces: {len(cases)} cases over {len(CONFIGS)} configurations (seed {SEED}), {len(failures)} failed ({tally})")
    if failures:
        print(f"the failing traces are kept in {WORK}")
        return 1
    shutil.rmtree(WORK, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
