#!/usr/bin/python3
"""`mpirun -n R ozref verify-trace` against one process (docs/scale.md): the same report (--json
with the times left out, and the text table with its seconds column masked), the same exit code
and the same reproducer folders, on traces that `ozref run --dump` writes in one process: every
ozaki2 variant the distributed verify-trace takes, each CRT and scaling mode, shapes no grid
divides, planted faults (the first in element order on another rank than the first rank's), partial
traces, arrays in Fortran order and big-endian, inputs from --a and --b; bad input (one process's
message, printed once, exit 2, no reproducer written; an input or stage array that is a symbolic
link, refused by name); the schemes it does not take refused on
more than one rank and verified as one process verifies them on one.

usage: mpi_verify_trace.py OZREF RANKS WORKDIR [SEED]
"""
import json
import os
import re
import shutil
import sys

import numpy as np

from mpi_harness import Harness, untimed_json

H = Harness("mpi_verify_trace", sys.argv, timeout=300)
OZREF, RANKS, WORK, SEED, LAUNCHER = H.ozref, H.ranks, H.work, H.seed, H.launcher
run, expect, path = H.run, H.expect, H.path


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def entry(folder, stage, array):
    manifest = json.load(open(path(folder, "manifest.json")))
    return manifest, next(a for s in manifest["stages"] if s["name"] == stage for a in s["arrays"] if a["name"] == array)


def rewrite(folder, stage, array, change, fortran=False, big_endian=False, rehash=True):
    """Replaces one array of a trace by change(array) (in the given file order) and, unless told
    not to, rewrites its hash in the manifest (the hash of its C-order little-endian bytes)."""
    manifest, e = entry(folder, stage, array)
    file = path(folder, e["file"])
    x = change(np.load(file))
    stored = x.astype(x.dtype.newbyteorder(">")) if big_endian else x
    np.save(file, np.asfortranarray(stored) if fortran else np.ascontiguousarray(stored))
    if rehash:
        e["fnv1a64"] = fnv1a64(np.ascontiguousarray(x).astype(x.dtype.newbyteorder("<")).tobytes())
        json.dump(manifest, open(path(folder, "manifest.json"), "w"), indent=2)


def add_one(*index):
    def change(x):
        x = x.copy()
        x[index] += 1
        return x
    return change


def untimed_text(report):  # the stage table's seconds column masked
    return re.sub(r"^(  \S+\s+(?:yes|no)\s+\S+\s+[0-9]+)\s+[0-9.]+", r"\1 -", report, flags=re.M)


def without_pattern(report):  # the pattern of a stage's differing elements is one process's alone (docs/scale.md)
    return re.sub(r"; pattern: [^\"\n]*", "", report)


def folder_files(folder):
    if not os.path.isdir(folder):
        return None
    return {os.path.relpath(os.path.join(d, f), folder): open(os.path.join(d, f), "rb").read()
            for d, _, files in os.walk(folder) for f in files}


def compare(name, folder, extra=(), expect_rc=None):
    """verify-trace --json and text, one process against R ranks, with the reproducers of each."""
    out = {}
    for who, ranks in (("serial", False), ("ranks", True)):
        shutil.rmtree(path(name + "-repro"), ignore_errors=True)
        rc, js, err = run(["verify-trace", path(folder), "--json", "--reproducers", path(name + "-repro")] + list(extra), ranks)
        text = run(["verify-trace", path(folder), "--reproducers", path(name + "-repro-text")] + list(extra), ranks)
        out[who] = (rc, js, err, text, folder_files(path(name + "-repro")))
    s, r = out["serial"], out["ranks"]
    expect(s[0] in (0, 1) and (expect_rc is None or s[0] == expect_rc), f"{name}: one process exits {expect_rc} ({s[0]}: {s[2].strip()})")
    expect(r[0] == s[0], f"{name}: {RANKS} ranks exit {s[0]} ({r[0]}: {r[2].strip()})")
    if s[0] not in (0, 1) or r[0] != s[0]:
        return None
    sj, rj = untimed_json(without_pattern(s[1])), untimed_json(r[1])
    expect(rj == sj, f"{name}: --json on {RANKS} ranks equals one process's:\n{json.dumps(rj)}\nvs\n{json.dumps(sj)}")
    expect(r[3][0] == s[3][0] and untimed_text(r[3][1]) == untimed_text(without_pattern(s[3][1])),
           f"{name}: the text report on {RANKS} ranks:\n{r[3][1]}\nvs\n{s[3][1]}")
    expect(r[4] == s[4], f"{name}: the reproducers on {RANKS} ranks equal one process's ({sorted(r[4] or {})} vs {sorted(s[4] or {})})")
    return sj


def stage_of(report, name):
    return next(s for s in report["stages"] if s["name"] == name)


def dump(name, shape, options, seed=7):
    m, n, k = shape
    rc, _, err = run(["run", "--m", str(m), "--n", str(n), "--k", str(k), "--dist", "phi:1", "--seed", str(seed), "--dump", path(name)]
                     + options, ranks=False)
    expect(rc == 0, f"{name}: ozref run --dump exits 0 ({rc}: {err.strip()})")
    return name


def copy(folder, to):
    shutil.rmtree(path(to), ignore_errors=True)
    shutil.copytree(path(folder), path(to))
    return to


def clean_traces():
    """Every variant and mode the distributed verify-trace takes verifies as one process verifies it."""
    configurations = [
        ("int8-accurate", (37, 23, 29), []),
        ("int8-fast-garner", (37, 23, 29), ["--mode", "fast", "--crt", "garner", "--moduli", "9"]),
        ("int8-gemmul8fast-dd", (11, 30, 40), ["--mode", "gemmul8-fast", "--crt", "dd", "--moduli", "12"]),
        ("int8-wide", (2, 31, 17), ["--moduli", "17"]),
        ("fp8", (13, 10, 33), ["--scheme", "ozaki2-fp8", "--arch", "sm_90"]),
        ("fp4", (9, 14, 20), ["--scheme", "ozaki2-fp4", "--arch", "sm_120", "--mode", "fast"]),
    ]
    for name, shape, options in configurations:
        dump(name, shape, options)
        report = compare(name, name, expect_rc=0)
        if report:
            expect(all(s["violations"] == 0 for s in report["stages"]) and report["identical"], f"{name}: the clean trace verifies")


def planted_faults():
    """Faults planted where the first in element order is not on the first rank that holds one."""
    dump("base", (37, 23, 29), [])
    f = copy("base", "faulty-gemm")
    for index in ((0, 0, 20), (0, 5, 1), (1, 36, 22), (3, 30, 0)):  # (0, 0, 20): first, on grid column 1 when there is one
        rewrite(f, "gemm", "c", add_one(*index))
    report = compare("faulty-gemm", f, expect_rc=1)
    if report:
        gemm = stage_of(report, "gemm")
        expect(gemm["differing_elements"] == 4 and gemm["first_difference"].startswith("gemm.c[modulus 256, i 0, j 20]:"), f"faulty-gemm: 4 differ, first gemm.c[modulus 256, i 0, j 20]: {gemm}")
        expect(gemm.get("reproducer"), f"faulty-gemm: a reproducer is named: {gemm}")
    # An array of A's rows (held by every rank of a grid row), one of B's columns, and C's last element.
    f = copy("base", "faulty-lines")
    rewrite(f, "residues", "a", add_one(2, 30, 3))
    rewrite(f, "truncate", "b", lambda x: np.where(np.arange(x.size).reshape(x.shape) == 28 * 23 + 22, np.nextafter(x, np.inf), x))
    rewrite(f, "unscale", "c", lambda x: np.where(np.arange(x.size).reshape(x.shape) == x.size - 1, np.nextafter(x, np.inf), x))
    report = compare("faulty-lines", f, expect_rc=1)
    if report:
        counts = [stage_of(report, s).get("differing_elements") for s in ("residues", "truncate", "unscale")]
        # residues: the planted A' residue, and the changed B' element's residue for each of the 16 moduli
        expect(counts == [17, 1, 1], f"faulty-lines: each planted element counted once: {counts}")
    # Shifts two larger than valid: the CRT bound fails at truncate, everything later computed from them.
    f = copy("base", "shifted")
    rewrite(f, "scale", "row_shift", lambda x: x + 2)
    rewrite(f, "scale", "col_shift", lambda x: x + 2)
    compare("shifted", f, expect_rc=1)


def layouts_and_partial():
    """Arrays in Fortran order and big-endian, a partial trace, and inputs from --a and --b."""
    f = copy("base", "orders")
    rewrite(f, "gemm", "c", lambda x: x, fortran=True)
    rewrite(f, "residues", "b", lambda x: x, big_endian=True)
    rewrite(f, "input", "a", lambda x: x, fortran=True, big_endian=True)
    rewrite(f, "crt", "c", add_one(36, 0, 0), fortran=True)
    compare("orders", f, expect_rc=1)
    f = copy("base", "partial")
    manifest = json.load(open(path(f, "manifest.json")))
    manifest["stages"] = [s for s in manifest["stages"] if s["name"] in ("residues", "gemm", "unscale")]
    json.dump(manifest, open(path(f, "manifest.json"), "w"))
    _, a = entry("base", "input", "a")
    _, b = entry("base", "input", "b")
    compare("partial", f, ["--a", path("base", a["file"]), "--b", path("base", b["file"])], expect_rc=0)


def bad_input():
    """One process's message, printed once by rank 0, exit 2, and no reproducer folder."""
    cases_ = []
    f = copy("base", "bad-missing")
    os.remove(path(f, entry(f, "reduce", "c")[1]["file"]))
    cases_.append(("a missing array", f, []))
    f = copy("base", "bad-garbled")
    file = path(f, entry(f, "gemm", "c")[1]["file"])
    data = open(file, "rb").read()
    open(file, "wb").write(data[:-5])
    cases_.append(("a truncated array", f, []))
    f = copy("base", "bad-shape")
    rewrite(f, "crt", "c", lambda x: x[:, :-1])
    cases_.append(("an array of the wrong shape", f, []))
    f = copy("base", "bad-hash")
    rewrite(f, "residues", "a", add_one(0, 36, 28), rehash=False)
    cases_.append(("a stale hash", f, []))
    f = copy("base", "bad-two")  # two faults: one process meets the earlier stage's first
    rewrite(f, "unscale", "c", lambda x: x[:-1])
    rewrite(f, "bound", "c", add_one(36, 22), rehash=False)
    cases_.append(("two bad arrays", f, []))
    f = copy("base", "bad-nan")
    rewrite(f, "input", "b", lambda x: np.where(np.arange(x.size).reshape(x.shape) == x.size - 2, np.nan, x))
    rewrite(f, "gemm", "c", add_one(0, 0, 0), rehash=False)
    cases_.append(("NaN in B and a later stale hash", f, []))
    for stage, array in (("input", "a"), ("gemm", "c")):  # a link to the identical file outside: never followed
        f = copy("base", f"bad-link-{stage}")
        file = path(f, entry(f, stage, array)[1]["file"])
        os.replace(file, path(f"outside-{stage}.npy"))
        os.symlink(path(f"outside-{stage}.npy"), file)
        cases_.append((f"{stage}.{array} a symbolic link", f, []))
    dump("fp8-bad", (13, 10, 33), ["--scheme", "ozaki2-fp8", "--arch", "sm_90"])
    rewrite("fp8-bad", "split", "a", lambda x: np.where(np.arange(x.size).reshape(x.shape) == x.size - 3, 127, x).astype(x.dtype))
    cases_.append(("an fp8 limb without an e4m3 encoding", "fp8-bad", []))
    cases_.append(("only --a", "base", ["--a", path("base", entry("base", "input", "a")[1]["file"])]))
    cases_.append(("--a and --b of another shape", "partial", ["--a", path("base", entry("base", "input", "b")[1]["file"]),
                                                              "--b", path("base", entry("base", "input", "a")[1]["file"])]))
    for what, folder, extra in cases_:
        args = ["verify-trace", path(folder), "--reproducers", path("bad-repro")] + extra
        shutil.rmtree(path("bad-repro"), ignore_errors=True)
        serial = run(args, ranks=False)
        ranked = run(args)
        message = serial[2].strip()
        expect(serial[0] == 2 and message.count("\n") == 0 and message.startswith("ozref verify-trace: error: "), f"{what}: one process: exit 2, one line ({serial})")
        lines = [line for line in ranked[2].splitlines() if line.startswith("ozref ")]
        expect(ranked[0] == 2 and lines == [message], f"{what}: {RANKS} ranks: exit 2 and one process's message once ({ranked[0]}: {lines} vs {message!r})")
        expect(not os.path.exists(path("bad-repro")), f"{what}: no reproducer folder written")
        expect("symbolic link" not in what or "is a symbolic link" in message, f"{what}: the link is refused by name ({message})")


def not_distributed():
    """Schemes the distributed verify-trace does not take: refused on more than one rank, verified
    as in one process on one."""
    for name, options in (("rare", ["--scheme", "rare"]), ("complex", ["--complex"]), ("ozaki1", ["--scheme", "ozaki1-int8"])):
        dump("nd-" + name, (6, 5, 16), options)
        if RANKS == 1:
            compare("nd-" + name, "nd-" + name, expect_rc=0)
            continue
        rc, _, err = run(["verify-trace", path("nd-" + name)])
        lines = [line for line in err.splitlines() if line.startswith("ozref ")]
        expect(rc == 2 and len(lines) == 1 and "verified in one process" in lines[0], f"{name} on {RANKS} ranks refused: {rc}, {lines}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    print(f"mpi_verify_trace: {RANKS} ranks, seed {SEED}")
    clean_traces()
    planted_faults()
    layouts_and_partial()
    bad_input()
    not_distributed()
    return H.summary()  # the count line .ci/run collects


if __name__ == "__main__":
    sys.exit(main())
