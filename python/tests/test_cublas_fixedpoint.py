"""cublas-fixedpoint@13.1 through ozref.run: mantissa_bits and kblock reach the scheme (C bit for bit
the output cuBLAS 13.1 recorded on the H200, tests/data/cublas), and bad values raise the
command's refusals."""

import os

import numpy as np
import pytest

import ozref

SCHEME = "cublas-fixedpoint@13.1"


def recorded(name, bits):
    """A probe case's A, B and the C the H200 recorded at `bits` (OZREF_TEST_DATA, set by ctest)."""
    data = os.environ.get("OZREF_TEST_DATA")
    if not data:
        pytest.fail("OZREF_TEST_DATA must name tests/data (ctest sets it)")
    folder = os.path.join(data, "cublas")
    return tuple(np.load(os.path.join(folder, f"{name}_{part}.npy")) for part in ("A", "B", f"fixed{bits}_C"))


def require_bits_equal(c, want, label):
    got, h200 = np.ascontiguousarray(c).view(np.uint64), np.ascontiguousarray(want).view(np.uint64)
    assert got.shape == h200.shape, label
    differ = [tuple(i) for i in np.argwhere(got != h200)]
    assert not differ, f"{label}: C{differ[0]} differs: ozref {got[differ[0]]:#018x}, H200 {h200[differ[0]]:#018x}"
    return h200.size


def test_mantissa_bits_and_kblock_give_the_h200s_recorded_c():
    # row_scale is recorded whole: the fitted K-block rule applies (kblock None).
    A, B, want = recorded("row_scale", 55)
    r = ozref.run(SCHEME, A, B, mantissa_bits=55, verify="none", threads=1)
    whole = require_bits_equal(r.c, want, "row_scale fixed 55")
    assert r.report["resolved"]["mantissa_bits"] == 55
    # accumulate keeps rows 0..31 of 256 (tests/data/cublas/README.md): the K-block is the whole
    # 256 x 8 x 4096 shape's, which the fitted rule makes 256 (two 128-tiles, 16 K-splits:
    # 128 * round(4096 / (128 * 16)); reference/schemes/cublas_fixedpoint/kblock.cpp), given here.
    A, B, want = recorded("accumulate", 47)
    r = ozref.run(SCHEME, A, B, mantissa_bits="47", kblock=256, verify="none", threads=1)
    rows = require_bits_equal(r.c, want, "accumulate fixed 47, kblock 256")
    assert r.report["options"]["kblock"] == 256 and r.report["resolved"]["kblock"] == 256
    print(f"{SCHEME} through ozref.run: row_scale {whole} elements, accumulate {rows} elements bit-identical to the H200")
    assert (whole, rows) == (568, 256)


@pytest.mark.parametrize("options, words", [
    ({"mantissa_bits": 22}, "--mantissa-bits must be an integer 23..79"),
    ({"mantissa_bits": "dynamic:94:128"}, "--mantissa-bits must be an integer 23..79"),
    ({"kblock": 16}, "needs --mantissa-bits"),
])
def test_bad_values_raise_the_commands_message(tmp_path, ozref_cli, options, words):
    A, B = np.full((4, 8), 0.5), np.full((8, 3), 0.25)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    flags = [x for key, value in options.items() for x in (f"--{key.replace('_', '-')}", value)]
    code, _, err = ozref_cli("run", "--scheme", SCHEME, "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", *flags)
    assert code == 2
    with pytest.raises(ozref.InputError) as e:
        ozref.run(SCHEME, A, B, **options)
    assert words in str(e.value)
    assert err == f"ozref run: error: {e.value}\n"


def test_python_side_checks():
    A, B = np.full((4, 8), 0.5), np.full((8, 3), 0.25)
    with pytest.raises(ozref.InputError, match=r"^mantissa_bits: 55.0 is not an integer$"):
        ozref.run(SCHEME, A, B, mantissa_bits=55.0)
    with pytest.raises(ozref.InputError, match=r"^kblock: 0 is not a positive integer$"):
        ozref.run(SCHEME, A, B, mantissa_bits=55, kblock=0)
    with pytest.raises(ozref.InputError, match="kblock"):
        ozref.run("ozaki2-fp8", A, B, kblock=16)  # K-blocks are ozaki2-int8's and cuBLAS's
