#!/usr/bin/python3
"""Ranks started differently (docs/scale.md, "Ranks must agree"): MPMD launches (`mpirun -n 1 ozref ARGS : -n 1 ozref OTHER`)
whose ranks differ in verb, option, mode or input file, and ranks given the same arguments in different working folders whose
inputs differ in bytes (a value, a shape, a truncated or a missing file), must all stop with exit 2 within the timeout (no hang),
rank 0's one message naming what differs, and no C or temporary file left; ranks that agree still run. And `--out` on a file
system that refuses a rank's writes (that rank's file size limit, `ulimit -f`) exits 2, keeps the old target and leaves no
temporary file.

usage: mpi_disagreement.py OZREF RANKS WORKDIR [SEED]
"""
import os
import shutil
import subprocess
import sys

import numpy as np

from mpi_harness import Harness

H = Harness("mpi_disagreement", sys.argv, timeout=60)
OZREF, RANKS, WORK, SEED, LAUNCHER = H.ozref, H.ranks, H.work, H.seed, H.launcher
expect, path = H.expect, H.path
ENV = dict(os.environ, OMP_NUM_THREADS="1")


def mpmd(groups):
    """groups: (count, argv, working folder or None, shell prefix or None); returns (exit code, stderr)."""
    command = list(LAUNCHER)
    for i, (count, args, wdir, prefix) in enumerate(groups):
        command += ([":"] if i else []) + ["-n", str(count)] + (["--wdir", wdir] if wdir else [])
        command += ["sh", "-c", prefix + '; exec "$0" "$@"', OZREF] + args if prefix else [OZREF] + args
    try:
        r = subprocess.run(command, capture_output=True, text=True, timeout=H.timeout, env=ENV)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    return r.returncode, r.stderr


def leftovers(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith(".ozref-"))


def expect_refused(name, groups, words, out=None):
    rc, err = mpmd(groups)
    lines = [line for line in err.splitlines() if line.startswith("ozref")]
    expect(rc == 2, f"{name}: exit 2 (got {rc}: {err.strip()[-300:]})")
    expect(len(lines) == 1 and all(w in lines[0] for w in words), f"{name}: one message naming {words}: {lines}")
    if out:
        expect(not os.path.exists(out) and leftovers(os.path.dirname(out)) == [], f"{name}: no C and no temporary file left")


def save(folder, name, array):
    os.makedirs(folder, exist_ok=True)
    np.save(os.path.join(folder, name), array)
    return os.path.join(folder, name)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    rng = np.random.default_rng(SEED)
    print(f"mpi_disagreement: {RANKS} ranks, seed {SEED}")
    if RANKS < 2:
        return H.summary()
    rest = RANKS - 1
    a, b = rng.standard_normal((6, 5)), rng.standard_normal((5, 4))
    A, B, B2 = save(WORK, "a.npy", a), save(WORK, "b.npy", b), save(WORK, "b2.npy", b + 1)
    C = path("c.npy")
    np.save(C, a @ b)
    out = path("never.npy")
    exact = ["exact", "--a", A, "--b", B, "--out", out]
    # MPMD: the last rank started with other arguments
    run = ["run", "--a", A, "--b", B, "--out", out]
    for name, base, other, words in (
            ("another verb", exact, ["check", "--a", A, "--b", B, "--c", C], ["argument 1", "'exact'", "'check'", f"rank {rest}"]),
            ("a verb that is not distributed", exact, ["demo", "--m", "4"], ["argument 1", "'demo'"]),
            ("another B", exact, ["exact", "--a", A, "--b", B2, "--out", out], ["argument 5", f"rank {rest}"]),
            ("an extra option", exact, exact + ["--threads", "1"], ["argument 8", "nothing", "'--threads'"]),
            ("run in another mode", run, run + ["--mode", "fast"], ["argument 8", "nothing", "'--mode'"])):
        expect_refused(name, [(rest, base, None, None), (1, other, None, None)], words, out)
    expect_refused("run: another scheme option", [(rest, run + ["--moduli", "8"], None, None), (1, run + ["--moduli", "9"], None, None)],
                   ["'8'", "'9'"], out)
    # The same arguments in two working folders whose files differ: the input digests
    here, there = path("here"), path("there")
    for name, b_there, words in (("B's values differ", b + 2**-40, ["--b 'b.npy'", "rank 0 reads", f"rank {rest} reads"]),
                                 ("B's shape differs", b[:, :3], ["--b 'b.npy'"]),
                                 ("B missing on one rank", None, ["--b 'b.npy'", "cannot read it"])):
        save(here, "a.npy", a), save(there, "a.npy", a), save(here, "b.npy", b)
        if os.path.exists(os.path.join(there, "b.npy")):
            os.remove(os.path.join(there, "b.npy"))
        if b_there is not None:
            save(there, "b.npy", b_there)
        for verb in (["exact", "--a", "a.npy", "--b", "b.npy", "--out", out], ["check", "--a", "a.npy", "--b", "b.npy", "--c", C],
                     ["run", "--a", "a.npy", "--b", "b.npy", "--out", out]):
            expect_refused(f"{verb[0]}: {name}", [(rest, verb, here, None), (1, verb, there, None)], words, out)
    save(there, "b.npy", b)  # the same bytes in both folders: they agree
    rc, err = mpmd([(rest, ["exact", "--a", "a.npy", "--b", "b.npy", "--out", path("agreed.npy")], here, None),
                    (1, ["exact", "--a", "a.npy", "--b", "b.npy", "--out", path("agreed.npy")], there, None)])
    serial = H.run(["exact", "--a", A, "--b", B, "--out", path("serial.npy")], ranks=False)
    expect(rc == 0 and serial[0] == 0 and open(path("agreed.npy"), "rb").read() == open(path("serial.npy"), "rb").read(),
           f"equal inputs in two folders: exit 0 and one process's C ({rc}: {err.strip()})")
    # --out whose writes fail on the last rank (its file size limit below C's size; SIGXFSZ ignored, so write() fails with EFBIG)
    big_a, big_b = save(WORK, "big-a.npy", rng.standard_normal((64, 8))), save(WORK, "big-b.npy", rng.standard_normal((8, 64)))
    target = path("kept.npy")
    with open(target, "wb") as f:
        f.write(b"old contents")
    args = ["exact", "--a", big_a, "--b", big_b, "--out", target]
    rc, err = mpmd([(rest, args, None, None), (1, args, None, "trap '' XFSZ; ulimit -f 8")])  # 8 blocks: 4 KiB of a 32 KiB C
    lines = [line for line in err.splitlines() if line.startswith("ozref")]
    expect(rc == 2 and len(lines) == 1 and "kept.npy" in lines[0], f"--out refused on one rank: exit 2 and one message ({rc}: {err.strip()[-300:]})")
    with open(target, "rb") as f:
        expect(f.read() == b"old contents", "--out refused on one rank: the old target kept")
    expect(leftovers(WORK) == [], f"--out refused on one rank: no temporary file left ({leftovers(WORK)})")
    return H.summary()  # the count line .ci/run collects


if __name__ == "__main__":
    sys.exit(main())
