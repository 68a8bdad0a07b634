#!/usr/bin/env python3
"""Strong scaling of the distributed `ozref exact` and `ozref check` (docs/scale.md).

For each problem n:R1,R2,... : A (C order) and B (Fortran order) standard normal n x n (seed n), C
NumPy's A @ B; then `exact` and `check --json` through the launcher on each R of the list, --threads 1
per rank (R = 0: one process, without the launcher). Every run is capped (--cap s) and
none starts once the whole would pass --budget s (its time guessed from the run before it at 80 %
efficiency), so one call fits a machine lent for a fixed time; ranks run from the most down, both
verbs on each, so the short runs come first and a short budget cuts both verbs alike. Every exact C is compared byte for byte with the first one, every check report
with the first one. The table (OUT/scale.md, OUT/scale.json) is rewritten after every run.

usage: scale_mpi.py OUT --problem 2048:0,1,2,4,8,16 [--problem ...] [--ozref build/ozref]
                    [--mpirun mpirun] [--bind none] [--cap 150] [--budget 480] [--work DIR]
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import signal
import subprocess
import sys
import time

import numpy as np


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="folder for scale.md and scale.json")
    p.add_argument("--problem", action="append", required=True, help="n:R1,R2,... (repeatable; R = 0: no launcher)")
    p.add_argument("--ozref", default="build/ozref")
    p.add_argument("--mpirun", default="mpirun", help="launcher command (split like a shell)")
    p.add_argument("--bind", default="none", help="mpirun --bind-to value")
    p.add_argument("--cap", type=float, default=150, help="seconds one run may take")
    p.add_argument("--budget", type=float, default=480, help="seconds all runs may take")
    p.add_argument("--work", default="/tmp/ozref-scale", help="folder for the inputs and outputs")
    a = p.parse_args()
    try:
        a.problems = [(int(n), sorted({int(r) for r in rs.split(",")}, reverse=True))
                      for n, rs in (spec.split(":") for spec in a.problem)]
    except ValueError:
        p.error("--problem must be n:R1,R2,... with whole numbers")
    if any(n < 1 or min(rs) < 0 for n, rs in a.problems):
        p.error("--problem: n must be at least 1 and every R at least 0")
    return a


def make_inputs(work, n):
    folder = os.path.join(work, f"n{n}")
    os.makedirs(folder, exist_ok=True)
    names = {x: os.path.join(folder, f"{x}.npy") for x in "abc"}
    if not all(os.path.exists(f) for f in names.values()):
        rng = np.random.default_rng(n)
        a, b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        np.save(names["a"], a)
        np.save(names["b"], np.asfortranarray(b))
        np.save(names["c"], a @ b)
    return folder, names


def timed(command, cap):
    """(seconds or None when past the cap, exit code, stdout, stderr); a capped run's ranks are killed."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", OZREF_IO_REPORT="1")
    t0 = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)  # its own group: a capped mpirun goes with its ranks
    try:
        out, err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, proc.returncode, out, err
    except BaseException:  # interrupted: no rank outlives the sweep
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    return time.monotonic() - t0, proc.returncode, out, err


def same_bytes(left, right):
    with open(left, "rb") as x, open(right, "rb") as y:
        return x.read() == y.read()


def largest_read(stderr):
    """The most bytes of A, B and C one rank read (OZREF_IO_REPORT's lines), None without them."""
    totals = [sum(int(x) for x in re.findall(r"(\d+) (?:bytes )?of [ABC]\b", line))
              for line in stderr.splitlines() if line.startswith("ozref: rank")]
    return max(totals) if totals else None


def machine():
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        lscpu = open("/proc/cpuinfo").read().replace("model name", "Model name")
    model = next((line.split(":", 1)[1].strip() for line in lscpu.splitlines() if line.startswith("Model name")), "?")
    return {"nproc": os.cpu_count(), "affinity_cpus": len(os.sched_getaffinity(0)), "cpu_model": model,
            "host": platform.node(), "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")}


class Sweep:
    def __init__(self, a):
        self.a, self.start, self.records, self.failed = a, time.monotonic(), [], 0
        self.previous = None  # the last run measured: (n, ranks, seconds)
        self.references = {}  # (n, verb): the first C file or report
        self.header = dict(machine(), command=" ".join(shlex.quote(x) for x in sys.argv),
                           threads_per_rank=1, cap_s=a.cap, budget_s=a.budget)
        os.makedirs(a.out, exist_ok=True)

    def problem(self, n, rank_counts):
        """Both verbs on each R, most ranks first (0, one process without the launcher, last)."""
        folder, names = None, None
        for ranks in rank_counts:
            for verb in ("exact", "check"):
                if time.monotonic() - self.start + self.guess(n, max(ranks, 1)) > self.a.budget:
                    self.add({"n": n, "verb": verb, "ranks": ranks, "status": "skipped (budget)"})
                    continue
                if folder is None:  # made only when some run of n fits the budget
                    folder, names = make_inputs(self.a.work, n)
                self.one(n, verb, ranks, names, folder)

    def one(self, n, verb, ranks, names, folder):
        record = {"n": n, "verb": verb, "ranks": ranks}
        out = os.path.join(folder, f"{verb}-{ranks}.npy")
        tail = ["--out", out] if verb == "exact" else ["--c", names["c"], "--json"]
        command = ([*shlex.split(self.a.mpirun), "--bind-to", self.a.bind, "-n", str(ranks)] if ranks else []) + \
                  [self.a.ozref, verb, "--a", names["a"], "--b", names["b"], "--threads", "1", *tail]
        seconds, code, stdout, stderr = timed(command, self.a.cap)
        record.update(seconds=seconds, exit=code, largest_read_bytes=largest_read(stderr))
        if seconds is None:
            return self.add(dict(record, status=f"> {self.a.cap:g} s (capped)"))
        if code != 0:
            self.failed += 1
            return self.add(dict(record, status=f"exit {code}: {stderr.strip()[-300:]}"))
        self.previous = (n, max(ranks, 1), seconds)
        result = out if verb == "exact" else stdout
        reference = self.references.setdefault((n, verb), result)  # the first output, which every other must equal
        if result is reference:
            status = "the others compared with it"
        elif same_bytes(reference, result) if verb == "exact" else reference == result:
            status = "C byte-identical" if verb == "exact" else "report identical"
        else:
            self.failed += 1
            status = "DIFFERS from the first output"
        if verb == "exact" and result is not reference:
            os.remove(result)  # 8 n^2 bytes each; the first one stays for the others
        self.add(dict(record, status=status))

    def guess(self, n, ranks):
        """A run's seconds from the last one measured: n^3 work spread at 80 % efficiency, at most the cap."""
        if self.previous is None:
            return self.a.cap
        n0, ranks0, seconds0 = self.previous
        return min(self.a.cap, seconds0 * (n / n0) ** 3 * ranks0 / ranks / 0.8)

    def add(self, record):
        self.records.append(record)
        print(json.dumps(record), flush=True)
        self.write()

    def efficiencies(self, record):
        """T(one process) / (R T(R)), R0 T(R0) / (R T(R)) and R0, the fewest ranks measured (None: not measured)."""
        same = [r for r in self.records if (r["n"], r["verb"]) == (record["n"], record["verb"]) and r.get("seconds")
                and r["exit"] == 0]
        one = next((r["seconds"] for r in same if r["ranks"] == 0), None)
        launched = [r for r in same if r["ranks"] > 0]
        if record.get("seconds") is None or record["exit"] != 0 or record["ranks"] == 0:
            return None, None, None
        base = min(launched, key=lambda r: r["ranks"])
        work = record["ranks"] * record["seconds"]
        return (one / work if one else None), base["ranks"] * base["seconds"] / work, base["ranks"]

    def write(self):
        rows = []
        for r in sorted(self.records, key=lambda r: (-r["n"], r["verb"] != "exact", r["ranks"])):
            vs_one, vs_fewest, fewest = self.efficiencies(r)
            rows.append(dict(r, efficiency_vs_one_process=vs_one, efficiency_vs_fewest_ranks=vs_fewest,
                             fewest_ranks=fewest))
        with open(os.path.join(self.a.out, "scale.json"), "w") as f:
            json.dump({"machine": self.header, "runs": rows}, f, indent=1)
        h = self.header
        lines = [f"Machine: {h['cpu_model']}, nproc {h['nproc']} ({h['affinity_cpus']} in this process's affinity), "
                 f"host {h['host']}, {h['date_utc']} UTC; --threads 1 per rank, each run capped at {h['cap_s']:g} s.",
                 "", f"    {h['command']}", "",
                 "| n | verb | processes | seconds | T(1 process) / (R T(R)) | R0 T(R0) / (R T(R)) | largest read per rank | output |",
                 "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in rows:
            who = "1, no MPI" if r["ranks"] == 0 else f"{r['ranks']} rank{'s' if r['ranks'] > 1 else ''}"
            seconds = f"{r['seconds']:.1f}" if r.get("seconds") is not None and r["exit"] == 0 else ""
            e1 = f"{r['efficiency_vs_one_process']:.2f}" if r["efficiency_vs_one_process"] else ""
            e0 = f"{r['efficiency_vs_fewest_ranks']:.2f} (R0 = {r['fewest_ranks']})" if r["efficiency_vs_fewest_ranks"] else ""
            read = f"{r['largest_read_bytes'] / 2**20:.1f} MiB" if r.get("largest_read_bytes") else ""
            lines.append(f"| {r['n']} | {r['verb']} | {who} | {seconds} | {e1} | {e0} | {read} | {r['status']} |")
        with open(os.path.join(self.a.out, "scale.md"), "w") as f:
            f.write("\n".join(lines) + "\n")


def main():
    a = arguments()
    sweep = Sweep(a)
    print(json.dumps(sweep.header), flush=True)
    for n, rank_counts in a.problems:
        sweep.problem(n, rank_counts)
    print(f"scale_mpi: {len(sweep.records)} runs, {sweep.failed} failed or differing; table in {a.out}/scale.md")
    return 1 if sweep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
