#!/usr/bin/env python3
"""Strong scaling of the distributed `ozref exact` and `ozref check` (docs/scale.md).

For each problem n:C1,C2,... : A (C order) and B (Fortran order) standard normal n x n (seed n), C
NumPy's A @ B; then `exact` and `check --json` on each configuration C of the list: R (R ranks
through the launcher, --threads 1 each; R = 0: one process without the launcher) or RxT (R ranks of
T threads each, --threads T; 0xT: one process of T threads), each with --timings (the phases'
seconds, the largest and least over the ranks). Every run is capped (--cap s) and none starts once
the whole would pass --budget s (its time guessed from the same verb and configuration at another n
as n^3, else from the run before it at 80 % efficiency over the cores), so one call fits a machine
lent for a fixed time; configurations run from the most cores down, both verbs on each, so the short
runs come first and a short budget cuts both verbs alike. Once a problem's runs are done, every
exact C is compared byte for byte, and every check report, with the one-process 1-thread run's
(R = 0; without it, the run on the fewest cores). The tables (OUT/scale.md, OUT/scale.json) are
rewritten after every run; efficiencies are per core (R T cores).

usage: scale_mpi.py OUT --problem 2048:0,1,2,4,8,16,4x4,0x16 [--problem ...] [--ozref build/ozref]
                    [--mpirun mpirun] [--bind none] [--cap 150] [--budget 480] [--deadline S]
                    [--work DIR] [--launch-extra ARGS]
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
    p.add_argument("--problem", action="append", required=True,
                   help="n:C1,C2,... (repeatable; C = R ranks of 1 thread or RxT, R ranks of T threads; R = 0: no launcher)")
    p.add_argument("--ozref", default="build/ozref")
    p.add_argument("--mpirun", default="mpirun", help="launcher command (split like a shell)")
    p.add_argument("--bind", default="none", help="mpirun --bind-to value")
    p.add_argument("--cap", type=float, default=150, help="seconds one run may take")
    p.add_argument("--budget", type=float, default=480, help="seconds all runs may take")
    p.add_argument("--deadline", type=float, default=None,
                   help="seconds after the start by which every run is stopped, whatever its guess (default: none)")
    p.add_argument("--work", default="/tmp/ozref-scale", help="folder for the inputs and outputs")
    p.add_argument("--launch-extra", default="", help="more launcher arguments, before -n (split like a shell)")
    a = p.parse_args()
    try:
        a.problems = [(int(n), sorted({configuration(c) for c in cs.split(",")}, key=lambda c: (-cores(c), -c[0])))
                      for n, cs in (spec.split(":") for spec in a.problem)]
    except ValueError:
        p.error("--problem must be n:C1,C2,... with C a whole number R or RxT")
    if any(n < 1 or min(min(c) for c in cs) < 0 or min(c[1] for c in cs) < 1 for n, cs in a.problems):
        p.error("--problem: n must be at least 1, every R at least 0 and every T at least 1")
    return a


def configuration(text):
    """'R' or 'RxT' as (ranks, threads per rank)."""
    ranks, _, threads = text.partition("x")
    return int(ranks), int(threads or 1)


def cores(config):
    return max(config[0], 1) * config[1]


def config_name(config):
    ranks, threads = config
    who = "1 process" if ranks == 0 else f"{ranks} rank{'s' if ranks > 1 else ''}"
    return who + (f" x {threads} threads" if threads > 1 else "") + (", no MPI" if ranks == 0 else "")


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


def timed(command, cap, threads):
    """(seconds or None when past the cap, exit code, stdout, stderr); a capped run's ranks are killed."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS="1", OZREF_IO_REPORT="1")
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


TIMING_LINE = re.compile(r"^  (\S.*?)\s+(-?\d+\.\d+)(?:\s+(-?\d+\.\d+))?$")


def timings(stderr):
    """--timings' table: {phase: [largest, least]} (one process: both the same), {} without it."""
    table, inside = {}, False
    for line in stderr.splitlines():
        if line.startswith("timings ("):
            inside = True
            continue
        match = TIMING_LINE.match(line) if inside else None
        if not match:
            inside = False
            continue
        largest = float(match.group(2))
        table[match.group(1)] = [largest, float(match.group(3)) if match.group(3) else largest]
    return table


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
        self.previous = None  # the last run measured: (n, cores, seconds)
        self.header = dict(machine(), command=" ".join(shlex.quote(x) for x in sys.argv),
                           cap_s=a.cap, budget_s=a.budget)
        os.makedirs(a.out, exist_ok=True)

    def problem(self, n, configs):
        """Both verbs on each configuration, most cores first (one process without the launcher
        last among equals); then every output compared with the reference run's."""
        folder, names, done = None, None, []
        for ranks, threads in configs:
            for verb in ("exact", "check"):
                record = {"n": n, "verb": verb, "ranks": ranks, "threads": threads}
                if time.monotonic() - self.start + self.guess(record) > self.a.budget:
                    self.add(dict(record, status="skipped (budget)"))
                    continue
                if folder is None:  # made only when some run of n fits the budget
                    folder, names = make_inputs(self.a.work, n)
                done.append(self.one(record, names, folder))
        for verb in ("exact", "check"):
            self.compare([(r, out) for r, out in done if r["verb"] == verb])

    def one(self, record, names, folder):
        n, verb, ranks, threads = record["n"], record["verb"], record["ranks"], record["threads"]
        out = os.path.join(folder, f"{verb}-{ranks}x{threads}.npy")
        tail = ["--out", out] if verb == "exact" else ["--c", names["c"], "--json"]
        launcher = [*shlex.split(self.a.mpirun), *shlex.split(self.a.launch_extra), "--bind-to", self.a.bind, "-n", str(ranks)]
        command = (launcher if ranks else []) + \
                  [self.a.ozref, verb, "--a", names["a"], "--b", names["b"], "--threads", str(threads), "--timings", *tail]
        cap = self.a.cap if self.a.deadline is None else min(self.a.cap, self.a.deadline - (time.monotonic() - self.start))
        seconds, code, stdout, stderr = timed(command, max(cap, 1), threads)
        record.update(seconds=seconds, exit=code, largest_read_bytes=largest_read(stderr), phases=timings(stderr))
        if seconds is None:
            self.add(dict(record, status=f"> {cap:.0f} s (capped)"))
            return record, None
        if code != 0:
            self.failed += 1
            self.add(dict(record, status=f"exit {code}: {stderr.strip()[-300:]}"))
            return record, None
        self.previous = (n, cores(config_of(record)), seconds)
        record["status"] = "(to be compared)"
        self.add(record)
        return record, out if verb == "exact" else stdout

    def compare(self, runs):
        """Every output against the reference run's: one process of one thread (R = 0), else the
        fewest cores."""
        finished = [(r, out) for r, out in runs if out is not None]
        if not finished:
            return
        reference_record, reference = min(finished, key=lambda x: (cores(config_of(x[0])), x[0]["ranks"]))
        for record, result in finished:
            if record is reference_record:
                record["status"] = "(the reference)"
            elif same_bytes(reference, result) if record["verb"] == "exact" else reference == result:
                record["status"] = "C byte-identical" if record["verb"] == "exact" else "report identical"
            else:
                self.failed += 1
                record["status"] = "DIFFERS from the reference"
        for record, result in finished:
            if record["verb"] == "exact":
                os.remove(result)  # 8 n^2 bytes each
        self.write()

    def guess(self, record):
        """A run's seconds, at most the cap: the same verb and configuration measured at another n,
        as n^3; else the last run measured, its n^3 work spread at 80 % efficiency over the cores;
        0 before any run."""
        n, config = record["n"], config_of(record)
        same = [r for r in self.records if r.get("seconds") and r["exit"] == 0 and r["verb"] == record["verb"]
                and config_of(r) == config]
        if same:
            return min(self.a.cap, same[-1]["seconds"] * (n / same[-1]["n"]) ** 3)
        if self.previous is None:
            return 0  # the first run always starts (the cap and the deadline bound it)
        n0, cores0, seconds0 = self.previous
        return min(self.a.cap, seconds0 * (n / n0) ** 3 * cores0 / cores(config) / 0.8)

    def add(self, record):
        self.records.append(record)
        print(json.dumps(record), flush=True)
        self.write()

    def efficiencies(self, record):
        """T(one process, 1 thread) / (P T), P0 T(P0) / (P T) and the base run, P0 its cores, the
        fewest launched (None: not measured); P = R T cores."""
        same = [r for r in self.records if (r["n"], r["verb"]) == (record["n"], record["verb"]) and r.get("seconds")
                and r["exit"] == 0]
        one = next((r["seconds"] for r in same if config_of(r) == (0, 1)), None)
        if record.get("seconds") is None or record["exit"] != 0 or config_of(record) == (0, 1):
            return None, None, None
        launched = [r for r in same if config_of(r) != (0, 1)]
        base = min(launched, key=lambda r: (cores(config_of(r)), -r["ranks"]))
        work = cores(config_of(record)) * record["seconds"]
        return (one / work if one else None), cores(config_of(base)) * base["seconds"] / work, base

    def write(self):
        rows = []
        for r in sorted(self.records, key=lambda r: (-r["n"], r["verb"] != "exact", cores(config_of(r)), r["ranks"])):
            vs_one, vs_fewest, base = self.efficiencies(r)
            rows.append(dict(r, efficiency_vs_one_process=vs_one, efficiency_vs_fewest_cores=vs_fewest,
                             fewest_cores_run=config_name(config_of(base)) if base else None))
        with open(os.path.join(self.a.out, "scale.json"), "w") as f:
            json.dump({"machine": self.header, "runs": rows}, f, indent=1)
        h = self.header
        lines = [f"Machine: {h['cpu_model']}, nproc {h['nproc']} ({h['affinity_cpus']} in this process's affinity), "
                 f"host {h['host']}, {h['date_utc']} UTC; each run capped at {h['cap_s']:g} s; P = ranks x threads cores.",
                 "", f"    {h['command']}", "",
                 "| n | verb | processes | P | seconds | T(1 process) / (P T) | P0 T(P0) / (P T) | largest read per rank | output |",
                 "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in rows:
            seconds = f"{r['seconds']:.1f}" if r.get("seconds") is not None and r["exit"] == 0 else ""
            e1 = f"{r['efficiency_vs_one_process']:.2f}" if r["efficiency_vs_one_process"] else ""
            e0 = f"{r['efficiency_vs_fewest_cores']:.2f} (P0: {r['fewest_cores_run']})" if r["efficiency_vs_fewest_cores"] else ""
            read = f"{r['largest_read_bytes'] / 2**20:.1f} MiB" if r.get("largest_read_bytes") else ""
            lines.append(f"| {r['n']} | {r['verb']} | {config_name(config_of(r))} | {cores(config_of(r))} | {seconds} | "
                         f"{e1} | {e0} | {read} | {r['status']} |")
        lines += ["", PHASES_NOTE, "", "| n | verb | processes | seconds | " + " | ".join(name for name, _ in PHASE_COLUMNS) + " |",
                  "| --- | --- | --- | --- | " + " | ".join("---" for _ in PHASE_COLUMNS) + " |"]
        for r in rows:
            if not r.get("phases"):
                continue
            cells = [phase_cell(r["phases"], parts) for _, parts in PHASE_COLUMNS]
            lines.append(f"| {r['n']} | {r['verb']} | {config_name(config_of(r))} | {r['seconds']:.2f} | " + " | ".join(cells) + " |")
        with open(os.path.join(self.a.out, "scale.md"), "w") as f:
            f.write("\n".join(lines) + "\n")


def config_of(record):
    return record["ranks"], record.get("threads", 1)


PRODUCT_SIDE = ["product: setup", "product: analysis", "product: scaling", "product: operand residues"]
# The phase table's columns: --timings' phases added up (each rank's largest, so a sum of largest).
PHASE_COLUMNS = [
    ("MPI start", ["MPI start"]), ("read", ["read inputs"]),
    ("operand side", PRODUCT_SIDE), ("residue GEMMs", ["product: residue GEMMs"]),
    ("rebuild", ["product: rebuild, round"]), ("direct", ["product: direct path"]), ("measure", ["measure C"]),
    ("agreements", ["MPI agreements, gathers"]), ("write", ["write C"]), ("outside", ["outside these phases"]),
    ("ozref wall", ["wall, from main()"])]
PHASES_NOTE = ("Phases (`--timings`): each the largest over the ranks in seconds, least in parentheses when "
               "it differs by more than 10 %; operand side = the product's setup, analysis, scaling and "
               "operand residues; agreements include waiting for the slowest rank; seconds - ozref wall "
               "is the launcher's start and MPI's finalisation.")


def phase_cell(phases, parts):
    """The sum of `parts`' largest (and least) seconds, '' when none ran."""
    present = [phases[p] for p in parts if p in phases]
    if not present:
        return ""
    largest, least = sum(x[0] for x in present), sum(x[1] for x in present)
    return f"{largest:.2f}" + (f" ({least:.2f})" if largest > 0 and least < 0.9 * largest else "")


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
