#!/usr/bin/python3
"""`mpirun -n R ozref exact|check|run` against one process (verify-trace: mpi_verify_trace.py) (docs/scale.md): byte-identical C files,
identical reports (run's with its timings masked), and bad input refused by every rank with one process's message and exit 2,
leaving no file behind. The one-process results are checked against exact rationals
(fractions.Fraction, whose float() rounds correctly) on the cases without special values.

usage: mpi_verbs.py OZREF RANKS WORKDIR [SEED]
"""
import fractions
import os
import re
import shutil
import subprocess
import sys

import numpy as np

from mpi_harness import Harness, untimed_json

np.seterr(all="ignore")  # the approximate products overflow and meet NaN on purpose

H = Harness("mpi_verbs", sys.argv, timeout=120)
OZREF, RANKS, WORK, SEED, LAUNCHER = H.ozref, H.ranks, H.work, H.seed, H.launcher
run, expect, path = H.run, H.expect, H.path
MPIRUN = LAUNCHER + ["-n", str(RANKS)]


def save(name, array, fortran=False, big_endian=False):
    if big_endian:
        array = array.astype(array.dtype.newbyteorder(">"))
    np.save(path(name), np.asfortranarray(array) if fortran else np.ascontiguousarray(array))
    return path(name)


def wide(rng, shape, spread):  # signs, significands and exponents spread over 2^+-spread
    return rng.standard_normal(shape) * np.exp2(rng.integers(-spread, spread + 1, shape))


def oracle_product(a, b):  # every element exact, rounded once to nearest-even FP64
    fa = [[fractions.Fraction(float(x)) for x in row] for row in a]
    fb = [[fractions.Fraction(float(x)) for x in row] for row in b.T]
    return np.array([[float(sum(x * y for x, y in zip(r, c))) for c in fb] for r in fa]).reshape(a.shape[0], b.shape[1])


def same_files(left, right):
    with open(left, "rb") as x, open(right, "rb") as y:
        return x.read() == y.read()


def leftovers():
    return sorted(n for n in os.listdir(WORK) if n.startswith(".ozref-"))


def compare_verbs(name, a, b, c_perturbed, oracle=False):
    """exact and check (text and --json, f8 and f4 C) distributed against one process."""
    rc1, out1, err1 = run(["exact", "--a", a, "--b", b, "--out", path(name + "-serial.npy")], ranks=False)
    rcR, outR, errR = run(["exact", "--a", a, "--b", b, "--out", path(name + "-ranks.npy")])
    expect(rc1 == 0 and rcR == 0, f"{name}: exact exits 0 (serial {rc1}: {err1.strip()}; {RANKS} ranks {rcR}: {errR.strip()})")
    if rc1 != 0 or rcR != 0:
        return
    expect(outR == out1.replace("-serial.npy", "-ranks.npy"), f"{name}: exact's report on {RANKS} ranks: {outR!r} vs {out1!r}")
    expect(same_files(path(name + "-serial.npy"), path(name + "-ranks.npy")), f"{name}: C from {RANKS} ranks byte-identical to one process")
    e = np.load(path(name + "-serial.npy"))
    if oracle:
        expect(np.array_equal(e, oracle_product(np.load(a), np.load(b))), f"{name}: one process's C equals the rounded exact rationals")
    for precision, cp in (("f8", c_perturbed), ("f4", c_perturbed.astype(np.float32))):
        c = save(f"{name}-c-{precision}.npy", cp, fortran=precision == "f4")
        for flags in ([], ["--json"]) if precision == "f8" else (["--json"],):
            serial = run(["check", "--a", a, "--b", b, "--c", c] + flags, ranks=False)
            ranked = run(["check", "--a", a, "--b", b, "--c", c] + flags)
            expect(serial[0] == 0 and ranked[:2] == serial[:2], f"{name}: check {precision} {flags} on {RANKS} ranks: {ranked} vs {serial}")


def compare_timings(name, a, b):
    """--timings: the same C and report, and a phase table on standard error, printed once (by rank 0)."""
    rc, out, err = run(["exact", "--a", a, "--b", b, "--out", path(name + "-timed.npy"), "--timings"])
    expect(rc == 0 and same_files(path(name + "-serial.npy"), path(name + "-timed.npy")),
           f"{name}: exact --timings on {RANKS} ranks exits 0 with the same C ({rc}: {err.strip()})")
    heading = f"timings (seconds; largest and least over {RANKS} ranks)" if RANKS > 1 else "timings (seconds)"
    lines = err.splitlines()
    expect(lines.count(heading) == 1, f"{name}: exact --timings prints its table once, headed {heading!r}: {err!r}")
    for phase in ("read inputs", "product: analysis", "write C", "wall, from main()"):
        expect(sum(1 for line in lines if re.match(rf"^  {re.escape(phase)}\s+[0-9]+\.[0-9]{{3}}", line)) == 1,
               f"{name}: exact --timings has one {phase!r} line: {err!r}")
    serial = run(["check", "--a", a, "--b", b, "--c", path(name + "-serial.npy"), "--json"], ranks=False)
    timed = run(["check", "--a", a, "--b", b, "--c", path(name + "-serial.npy"), "--json", "--timings"])
    expect(timed[0] == 0 and timed[1] == serial[1] and timed[2].splitlines().count(heading) == 1 and "measure C" in timed[2],
           f"{name}: check --json --timings on {RANKS} ranks: the same report, the table on standard error ({timed} vs {serial})")


def untimed_text(report):  # run's text without its timings: the stage table's seconds, the pipeline line
    lines = []
    for line in report.splitlines():
        if line.startswith("  pipeline:"):
            continue
        lines.append(re.sub(r"\s+[0-9.]+$", "", line) if re.match(r"^  \S+\s+(yes|no)\s", line) else line)
    return "\n".join(lines)


def compare_run(name, a, b):
    """run (text and --json, accurate and fast scaling) distributed against one process."""
    for options in ([], ["--mode", "fast", "--moduli", "3"]):
        tag = "-".join(options) or "accurate"
        serial = run(["run", "--a", a, "--b", b, "--out", path(f"{name}-run-serial.npy")] + options, ranks=False)
        ranked = run(["run", "--a", a, "--b", b, "--out", path(f"{name}-run-ranks.npy")] + options)
        expect(serial[0] == 0 and ranked[0] == 0, f"{name}: run {tag} exits 0 (serial {serial[0]}: {serial[2].strip()}; ranks {ranked[0]}: {ranked[2].strip()})")
        if serial[0] != 0 or ranked[0] != 0:
            continue
        expect(untimed_text(ranked[1]) == untimed_text(serial[1]), f"{name}: run {tag} report on {RANKS} ranks:\n{ranked[1]}\nvs\n{serial[1]}")
        expect(same_files(path(f"{name}-run-serial.npy"), path(f"{name}-run-ranks.npy")), f"{name}: run {tag}'s C from {RANKS} ranks byte-identical")
        serial = run(["run", "--a", a, "--b", b, "--json"] + options, ranks=False)
        ranked = run(["run", "--a", a, "--b", b, "--json"] + options)
        expect(serial[0] == ranked[0] == 0 and untimed_json(ranked[1]) == untimed_json(serial[1]), f"{name}: run {tag} --json on {RANKS} ranks: {ranked} vs {serial}")


def perturbed(rng, e):
    c = e.copy()
    flat = c.reshape(-1)
    if flat.size:
        picks = rng.integers(0, flat.size, max(1, flat.size // 5))
        flat[picks] = np.nextafter(flat[picks], np.inf)
        flat[rng.integers(0, flat.size)] *= 1 + 2.0**-20
    return c


def good_cases(rng):
    a, b = wide(rng, (7, 9), 20), wide(rng, (9, 5), 20)
    yield "oracle", save("o-a.npy", a), save("o-b.npy", b, fortran=True), True, a @ b
    # 37 x 23 x 29: no grid divides it; NaN, Inf and a zero row among the operands
    a, b = wide(rng, (37, 23), 40), wide(rng, (23, 29), 40)
    a[3, 4], a[10, :], b[5, 7], b[2, 11] = np.nan, 0.0, np.inf, -np.inf
    yield "specials", save("s-a.npy", a), save("s-b.npy", b), False, a @ b
    # f4 operands, Fortran and big-endian orders, K = 300 (slices), more ranks than rows
    a, b = wide(rng, (2, 300), 10).astype(np.float32), wide(rng, (300, 3), 10).astype(np.float32)
    yield "f4-orders", save("f-a.npy", a, fortran=True, big_endian=True), save("f-b.npy", b, big_endian=True), False, a.astype(float) @ b
    # exponent spread past the slice path: the direct path
    a, b = wide(rng, (6, 11), 900), wide(rng, (11, 13), 100)
    yield "direct", save("d-a.npy", a), save("d-b.npy", b, fortran=True), False, a @ b
    yield "empty-m", save("e-a.npy", np.zeros((0, 4))), save("e-b.npy", np.ones((4, 3))), False, np.zeros((0, 3))
    yield "empty-k", save("k-a.npy", np.zeros((3, 0))), save("k-b.npy", np.ones((0, 4))), False, np.zeros((3, 4))


def bad_input_cases(rng):
    a, b = save("bad-a.npy", wide(rng, (5, 6), 5)), save("bad-b.npy", wide(rng, (6, 4), 5))
    truncated = path("bad-truncated.npy")
    with open(b, "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(data[:-8])
    three_d = save("bad-3d.npy", np.ones((6, 2, 2)))
    disagree = save("bad-disagree.npy", np.ones((5, 4)))  # not 6 x 4, as B must be
    wrong_c = save("bad-c-shape.npy", np.ones((4, 5)))     # not 5 x 4, as C must be
    os.makedirs(path("a-folder"), exist_ok=True)
    yield "truncated B", ["exact", "--a", a, "--b", truncated, "--out", path("never.npy")]
    yield "3-D A", ["exact", "--a", three_d, "--b", b, "--out", path("never.npy")]
    yield "shapes disagree", ["exact", "--a", a, "--b", disagree, "--out", path("never.npy")]
    yield "out in a missing folder", ["exact", "--a", a, "--b", b, "--out", path("no/such/folder/c.npy")]
    yield "out is a folder", ["exact", "--a", a, "--b", b, "--out", path("a-folder")]
    yield "existing out kept when B is bad", ["exact", "--a", a, "--b", truncated, "--out", path("kept.npy")]
    yield "check: C of the wrong shape", ["check", "--a", a, "--b", b, "--c", wrong_c]
    yield "check: missing C", ["check", "--a", a, "--b", b, "--c", path("absent.npy")]
    yield "check: truncated C", ["check", "--a", a, "--b", b, "--c", truncated]
    yield "run: truncated B", ["run", "--a", a, "--b", truncated, "--out", path("never.npy")]
    yield "run: out in a missing folder", ["run", "--a", a, "--b", b, "--out", path("no/such/folder/c.npy")]
    yield "run: unknown option value", ["run", "--a", a, "--b", b, "--mode", "sloppy", "--out", path("never.npy")]
    # non-finite operands: A's first in C order, else B's first in C order (here in B's last column)
    a_nan, b_nan = wide(rng, (5, 6), 5), wide(rng, (6, 4), 5)
    a_nan[4, 5], b_nan[0, 3], b_nan[2, 0] = np.nan, np.inf, np.nan
    yield "run: NaN in A's last row", ["run", "--a", save("nan-a.npy", a_nan), "--b", save("nan-b.npy", b_nan), "--out", path("never.npy")]
    yield "run: B's first infinity", ["run", "--a", a, "--b", path("nan-b.npy"), "--out", path("kept.npy")]


def compare_bad_input(name, args):
    kept = path("kept.npy")
    with open(kept, "wb") as f:
        f.write(b"old contents")
    serial = run(args, ranks=False)
    ranked = run(args)
    message = serial[2].strip()
    expect(serial[0] == 2 and message.count("\n") == 0 and message.startswith("ozref "), f"{name}: one process: exit 2, one line ({serial})")
    expect(ranked[0] == 2, f"{name}: {RANKS} ranks exit 2 (got {ranked[0]})")
    lines = [line for line in ranked[2].splitlines() if line.startswith("ozref ")]
    expect(lines == [message], f"{name}: {RANKS} ranks print one process's message once: {lines} vs {message!r}")
    expect(not os.path.exists(path("never.npy")) and leftovers() == [], f"{name}: no output and no temporary file left ({leftovers()})")
    with open(kept, "rb") as f:
        expect(f.read() == b"old contents", f"{name}: an existing --out is left as it was")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    rng = np.random.default_rng(SEED)
    print(f"mpi_verbs: {RANKS} ranks, seed {SEED}")
    for name, a, b, oracle, approx in good_cases(rng):
        compare_verbs(name, a, b, perturbed(rng, np.nan_to_num(approx)), oracle)
        if name == "specials":
            compare_timings(name, a, b)
        if name != "specials":  # the schemes take finite operands (bad_input_cases has the others)
            compare_run(name, a, b)
    for name, args in bad_input_cases(rng):
        compare_bad_input(name, args)
    # What is not distributed runs on one rank and is refused on more (R copies would race).
    a, b = path("o-a.npy"), path("o-b.npy")
    for what, args in (("generated operands", ["run", "--m", "4", "--n", "4", "--k", "8", "--json"]),
                       ("--dump", ["run", "--a", a, "--b", b, "--dump", path("trace")]),
                       ("another scheme", ["run", "--scheme", "ozaki1-int8", "--a", a, "--b", b])):
        rc, _, err = run(args)
        refusal = [line for line in err.splitlines() if line.startswith("ozref ")]
        if RANKS == 1:
            expect(rc == 0, f"{what} on 1 rank runs as in one process (exit {rc}: {err.strip()})")
        else:
            expect(rc == 2 and len(refusal) == 1 and "in one process" in refusal[0], f"{what} on {RANKS} ranks refused: {rc}, {refusal}")
    # A complex product is refused under MPI at any rank count, by name, before anything is written.
    ca = save("complex-a.npy", wide(rng, (3, 4), 5) + 1j * wide(rng, (3, 4), 5))
    cc = save("complex-c.npy", np.zeros((3, 4), dtype=np.complex128))
    for what, args in (("complex exact", ["exact", "--a", ca, "--b", b, "--out", path("never.npy")]),
                       ("complex check", ["check", "--a", ca, "--b", b, "--c", cc])):
        rc, _, err = run(args)
        refusal = [line for line in err.splitlines() if line.startswith("ozref ")]
        expect(rc == 2 and len(refusal) == 1 and "complex (c16) operand runs in one process" in refusal[0],
               f"{what} on {RANKS} ranks refused: {rc}, {refusal}")
        expect(not os.path.exists(path("never.npy")), f"{what}: nothing written")
    return H.summary()  # the count line .ci/run collects


if __name__ == "__main__":
    sys.exit(main())
