"""Every bad argument of the package's functions raises ozref.InputError (docs/python.md, "Errors") with a short
message that names the argument, never TypeError, ValueError or OverflowError, and never the whole array in the
message; a dump folder given as bytes or os.PathLike is the folder its name decodes to."""

import os
import pathlib

import numpy as np
import pytest

import ozref

BIG = np.full((60, 60), 0.123456789)  # its repr is thousands of characters: it must not appear in a message
MMA_OP = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"

CASES = [  # (what, call, the argument the message must name)
    ("exact threads text", lambda: ozref.exact(BIG, BIG, threads="4"), "threads"),
    ("exact threads float", lambda: ozref.exact(BIG, BIG, threads=2.0), "threads"),
    ("exact threads 2^70", lambda: ozref.exact(BIG, BIG, threads=2**70), "threads"),
    ("exact threads None", lambda: ozref.exact(BIG, BIG, threads=None), "threads"),
    ("exact dtype object", lambda: ozref.exact(BIG, BIG, dtype=object()), "dtype"),
    ("exact dtype nonsense", lambda: ozref.exact(BIG, BIG, dtype="nonsense"), "dtype"),
    ("exact ragged A", lambda: ozref.exact([[1.0, 2.0], [3.0]], BIG), "argument A"),
    ("exact huge integer B", lambda: ozref.exact(BIG, [[2**80]]), "argument B"),
    ("check threads bool", lambda: ozref.check(BIG, BIG, BIG, threads=True), "threads"),
    ("exact device tpu", lambda: ozref.exact(BIG, BIG, device="tpu"), "device"),
    ("exact device int", lambda: ozref.exact(BIG, BIG, device=1), "device"),
    ("check device None", lambda: ozref.check(BIG, BIG, BIG, device=None), "device"),
    ("run scheme int", lambda: ozref.run(7, BIG, BIG), "scheme"),
    ("run arch int", lambda: ozref.run("ozaki2-int8", BIG, BIG, arch=5), "arch"),
    ("run mode int", lambda: ozref.run("ozaki2-int8", BIG, BIG, mode=3), "mode"),
    ("run verify list", lambda: ozref.run("ozaki2-int8", BIG, BIG, verify=["full"]), "verify"),
    ("run moduli 2^70", lambda: ozref.run("ozaki2-int8", BIG, BIG, moduli=2**70), "moduli"),
    ("run moduli float", lambda: ozref.run("ozaki2-int8", BIG, BIG, moduli=8.0), "moduli"),
    ("run threads -2^40", lambda: ozref.run("ozaki2-int8", BIG, BIG, threads=-2**40), "threads"),
    ("run dump int", lambda: ozref.run("ozaki2-int8", BIG, BIG, dump=5), "dump"),
    ("run dump with NUL", lambda: ozref.run("ozaki2-int8", BIG, BIG, dump="a\0b"), "dump"),
    ("lockstep gemm int", lambda: ozref.lockstep("ozaki2-int8", BIG, BIG, gemm=1), "gemm"),
    ("verify_trace path None", lambda: ozref.verify_trace(None), "path"),
    ("verify_trace a int", lambda: ozref.verify_trace("t", a=3), "a"),
    ("verify_trace threads text", lambda: ozref.verify_trace("t", threads="x"), "threads"),
    ("mma op None", lambda: ozref.mma(None, bytes(32), bytes(32), 0), "op"),
    ("mma c text", lambda: ozref.mma(MMA_OP, bytes(32), bytes(32), "zero"), "argument c"),
    ("mma c 2^70", lambda: ozref.mma(MMA_OP, bytes(32), bytes(32), 2**70), "argument c"),
    ("mma c 2-D", lambda: ozref.mma(MMA_OP, bytes(32), bytes(32), [[0]]), "argument c"),
    ("mma arch int", lambda: ozref.mma(MMA_OP, bytes(32), bytes(32), 0, arch=90), "arch"),
    ("instruction op int", lambda: ozref.instruction(5), "op"),
    ("instructions arch None", lambda: ozref.instructions(None), "arch"),
]


@pytest.mark.parametrize("what,call,argument", CASES, ids=[c[0] for c in CASES])
def test_bad_arguments_raise_input_error_naming_the_argument(what, call, argument):
    with pytest.raises(ozref.InputError) as raised:
        call()
    message = str(raised.value)
    assert message.startswith(argument + ":") or f"{argument}:" in message, message
    assert len(message) < 300 and "0.123456789" not in message, message


def test_the_case_count():
    print(f"bad arguments: {len(CASES)} cases (seed none: fixed values)")
    assert len(CASES) == 32


@pytest.mark.parametrize("kind", ["bytes", "PathLike", "str"])
def test_dump_takes_bytes_pathlike_and_str_names(tmp_path, kind, monkeypatch):
    """A bytes name is the folder os.fsdecode gives (not "b'...'"), as a str or pathlib name is."""
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "trace-\u00e9"
    name = {"bytes": os.fsencode(str(target)), "PathLike": pathlib.Path(target), "str": str(target)}[kind]
    A, B = np.eye(3), np.arange(9.0).reshape(3, 3)
    r = ozref.run("ozaki2-int8", A, B, dump=name)
    assert r.exit_code == 0
    assert (target / "manifest.json").is_file()
    assert not any(p.name.startswith("b'") for p in tmp_path.iterdir())
    assert ozref.verify_trace(name).exit_code == 0
