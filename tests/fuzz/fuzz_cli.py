#!/usr/bin/env python3
"""ozref fuzz through the executable (docs/fuzz.md): one scenario per call.

usage: fuzz_cli.py OZREF WORKDIR SCENARIO

Each scenario runs `ozref fuzz` with a fixed seed and checks the exit code, the reproducer folder
(A.npy, B.npy, C.npy, report.json, replay.sh) and that the reproducer replays: `sh replay.sh` exits
1 while the failure persists. Prints `fuzz-cli SCENARIO: N cases (seed S), 0 failed` when it passes.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = int(os.environ.get("OZREF_SEED", "1"), 0)


def fuzz(ozref, out, *words):
    argv = [ozref, "fuzz", *words, "--seed", str(SEED), "--out", out]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    print("$", " ".join(argv), f"-> exit {run.returncode}\n{run.stdout}{run.stderr}", flush=True)
    return run


def cases_of(run):
    for line in run.stdout.splitlines():
        if " cases (seed " in line:
            return int(line.split("ozref fuzz: ")[1].split(" cases")[0])
    raise AssertionError("no case count in the output")


def expect_finding(run, out, prop, max_mnk):
    assert run.returncode == 1, f"exit {run.returncode}, expected 1 (a finding)"
    report = json.load(open(os.path.join(out, "report.json")))
    assert report["property"] == prop, report["property"]
    shrunk = report["shrunk"]
    a, b = np.load(os.path.join(out, "A.npy")), np.load(os.path.join(out, "B.npy"))
    assert a.shape == (shrunk["m"], shrunk["k"]) and b.shape == (shrunk["k"], shrunk["n"]), (a.shape, b.shape, shrunk)
    mnk = shrunk["m"] * shrunk["n"] * shrunk["k"]
    assert mnk <= max_mnk, f"shrunk to m*n*k = {mnk} > {max_mnk}"
    original = report["original"]
    assert original["m"] * original["n"] * original["k"] >= mnk
    assert os.path.exists(os.path.join(out, "original", "A.npy"))
    if shrunk["kind"] in ("", "bad C"):
        c = np.load(os.path.join(out, "C.npy"))
        assert c.shape == (shrunk["m"], shrunk["n"])
    # The reproducer replays, from the folder moved elsewhere too.
    moved = out + "-moved"
    shutil.rmtree(moved, ignore_errors=True)
    shutil.copytree(out, moved)
    for folder in (out, moved):
        replay = subprocess.run(["sh", os.path.join(folder, "replay.sh")], capture_output=True, text=True, timeout=120)
        assert replay.returncode == 1, f"replay of {folder}: exit {replay.returncode}\n{replay.stdout}{replay.stderr}"
        assert "FAILED " + prop in replay.stdout, replay.stdout
    replay = subprocess.run(report["replay"], capture_output=True, text=True, timeout=120)
    assert replay.returncode == 1, f"report.json's replay: exit {replay.returncode}"
    return report


def main():
    ozref, work, scenario = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, scenario)
    shutil.rmtree(out, ignore_errors=True)
    if scenario == "gemmul8-fast-20":
        run = fuzz(ozref, out, "--subject", "gemmul8@2.0.14", "--mode", "fast", "--moduli", "20", "--at-least", "40", "--seconds", "60")
        expect_finding(run, out, "accuracy", 300)
    elif scenario == "gemmul8-fast":
        run = fuzz(ozref, out, "--subject", "gemmul8@2.0.14", "--mode", "fast", "--at-least", "40", "--seconds", "60")
        expect_finding(run, out, "accuracy", 300)
    elif scenario == "cublas-cap":
        run = fuzz(ozref, out, "--subject", "cublas-fixedpoint@13.1", "--mantissa-bits", "79", "--at-least", "52", "--seconds", "60")
        report = expect_finding(run, out, "accuracy", 300)
        bits = report["original"]["figures"]["correct_bits_maxnorm"]
        assert 40 <= bits < 52, f"the cap found at {bits} bits"
    elif scenario == "exact-finds-nothing":
        run = fuzz(ozref, out, "--subject", "exact", "--at-least", "52", "--property", "accuracy,exactness,determinism,specials",
                   "--seconds", "10")
        assert run.returncode == 0, f"exit {run.returncode}: a false alarm"
        assert not os.path.exists(os.path.join(out, "report.json"))
    elif scenario == "exec-crash":
        run = fuzz(ozref, out, "--subject", "exec:" + os.path.join(HERE, "gemm_crashes_past_k8.py"), "--property", "no-crash",
                   "--seconds", "60", "--shrink-seconds", "60")
        report = expect_finding(run, out, "no-crash", 9)
        assert report["shrunk"]["kind"] == "crash" and report["shrunk"]["k"] == 9, report["shrunk"]
    elif scenario == "exec-hang":
        run = fuzz(ozref, out, "--subject", "exec:" + os.path.join(HERE, "gemm_hangs_on_three_rows.py"), "--property", "no-crash",
                   "--timeout", "3", "--max-n", "2", "--max-k", "2", "--seconds", "60", "--shrink-seconds", "120")
        report = expect_finding(run, out, "no-crash", 3 * 1 * 1)
        assert report["shrunk"]["kind"] == "timeout" and report["shrunk"]["m"] == 3, report["shrunk"]
    elif scenario == "bad-input":
        for words in (["--subject", "nosuch@1"], ["--subject", "exact", "--moduli", "20"], ["--subject", "exec:"],
                      ["--subject", "exact", "--property", "accuracy"], ["--subject", "exact", "--generators", "gauss"]):
            run = fuzz(ozref, out, *words)
            assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("ozref fuzz: error: "), run.stderr
        print(f"fuzz-cli {scenario}: 5 cases (seed {SEED}), 0 failed")
        return
    else:
        raise SystemExit(f"unknown scenario {scenario}")
    print(f"fuzz-cli {scenario}: {cases_of(run)} cases (seed {SEED}), 0 failed")


if __name__ == "__main__":
    main()
