"""Python's overhead on `check`: ozref.check from Python against the ozref command on the same
512^3 problem, timed in one run, interleaved, best and median of N calls each.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/bench_python_check.py build/ozref [N] [SIZE] [THREADS]
(THREADS 0, the default: all cores, as the command's default.)
Rows: the command (a process: start, read three .npy files, compute, print JSON); ozref.check on
arrays already in memory; ozref.check on np.load of the same files (the command's work, in
Python); a whole `python3 -c "import ozref; ..."` process (interpreter start and imports too).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import ozref


def timed(f, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return times


def main():
    cli = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rng = np.random.default_rng(2026)
    print(f"seed 2026, {size}^3, threads {threads}, {n} calls each, interleaved")
    A = rng.standard_normal((size, size)) * np.exp2(rng.integers(-8, 8, (size, size)))
    B = rng.standard_normal((size, size)) * np.exp2(rng.integers(-8, 8, (size, size)))
    C = A @ B
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, f"{x}.npy") for x in "abc"]
        for p, x in zip(paths, (A, B, C)):
            np.save(p, x)
        argv = [cli, "check", "--json", "--threads", str(threads), "--a", paths[0], "--b", paths[1], "--c", paths[2]]
        probe = ("import sys, numpy as np, ozref; "
                 f"ozref.check(np.load(sys.argv[1]), np.load(sys.argv[2]), np.load(sys.argv[3]), threads={threads})")
        rows = {
            "ozref check (command)": lambda: subprocess.run(argv, check=True, capture_output=True),
            "ozref.check(A, B, C), arrays in memory": lambda: ozref.check(A, B, C, threads=threads),
            "ozref.check(np.load(...) x 3)": lambda: ozref.check(*(np.load(p) for p in paths), threads=threads),
            "python3 -c 'import ozref; ...' (process)": lambda: subprocess.run([sys.executable, "-c", probe, *paths], check=True),
        }
        times = {name: [] for name in rows}
        for _ in range(n):
            for name, f in rows.items():
                times[name] += timed(f, 1)
    base = statistics.median(times["ozref check (command)"])
    print(f"{'':44s} {'best (s)':>9s} {'median (s)':>11s} {'median / command':>17s}")
    for name, t in times.items():
        print(f"{name:44s} {min(t):9.4f} {statistics.median(t):11.4f} {statistics.median(t) / base:17.3f}")


if __name__ == "__main__":
    main()
