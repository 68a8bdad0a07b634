"""The example kernel (ozaki2_int8_numpy.py) with each bug of docs/verify-trace.md's list planted:
ozref must find each at its own stage, in memory and from a trace, naming the element. The
correct kernel must verify clean. Seeds are printed; ctest runs this file through pytest."""

import os
import re

import numpy as np
import pytest

import ozref
from ozaki2_int8_numpy import MODULI, kernel

OPTIONS = {"mode": "fast", "moduli_list": list(MODULI)}
SEED = int(os.environ.get("OZREF_SEED", "2026"), 0)

# bug -> (the stage where it must be found, text its report must hold)
BUGS = {
    "residue-range": ("residues", "residues.a"),
    "crt-weight": ("crt", "crt.c"),
    "row-exponent": ("unscale", "unscale.c"),
    "lost-sign": ("truncate", "truncate.a"),
    "scaling-past-bound": ("truncate", "P/2"),
}


def operands():
    rng = np.random.default_rng(SEED)
    return rng.standard_normal((8, 48)), rng.standard_normal((48, 6))


def first_failure(result):
    """The first stage that broke its contract or differs from ozref's recomputation."""
    for s in result.stages:
        if (s.checked and not s.verified) or s.identical is False:
            return s
    return None


def test_correct_kernel_verifies(tmp_path):
    A, B = operands()
    _, stages = kernel(A, B)
    memory = ozref.verify_stages("ozaki2-int8", A, B, stages, **OPTIONS)
    ozref.write_trace(tmp_path, "ozaki2-int8", A, B, stages, **OPTIONS)
    files = ozref.verify_trace(tmp_path)
    assert memory.exit_code == files.exit_code == 0 and first_failure(memory) is None
    print(f"correct kernel: {len(memory.stages)} stages verified (seed {SEED})")


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_planted_bug_found_at_its_stage(tmp_path, bug):
    A, B = operands()
    _, stages = kernel(A, B, bugs=(bug,))
    stage, text = BUGS[bug]
    memory = ozref.verify_stages("ozaki2-int8", A, B, stages, **OPTIONS)
    ozref.write_trace(tmp_path, "ozaki2-int8", A, B, stages, **OPTIONS)
    files = ozref.verify_trace(tmp_path)
    for result in (memory, files):
        assert result.exit_code == 1
        found = first_failure(result)
        assert found is not None and found.name == stage, f"{bug}: first failure at {found and found.name}, expected {stage}"
        message = found.first_violation + " " + (found.first_difference or "")
        assert text in message, message
    print(f"{bug}: found at {stage}: {first_failure(memory).first_violation or first_failure(memory).first_difference} (seed {SEED})")


def test_kblock_kernel_verifies_and_a_dropped_block_is_found_at_reduce(tmp_path):
    """The kernel splitting K = 48 into blocks of 20 (the last 8) says so with the option kblock;
    ozref follows the blocks and verifies it, and a reduce that forgets the last block is found
    at reduce, expected beside found."""
    A, B = operands()
    options = dict(OPTIONS, kblock=20)
    _, stages = kernel(A, B, kblock=20)
    assert stages["gemm"]["c"].shape == (len(MODULI), 3, 8, 6)
    memory = ozref.verify_stages("ozaki2-int8", A, B, stages, **options)
    ozref.write_trace(tmp_path / "good", "ozaki2-int8", A, B, stages, **options)
    assert memory.exit_code == ozref.verify_trace(tmp_path / "good").exit_code == 0 and first_failure(memory) is None
    stages["gemm"]["c"][3, 1, 0, 2] += 1  # one block's INT32 sum off by one: found at gemm, naming the block
    wrong = first_failure(ozref.verify_stages("ozaki2-int8", A, B, stages, **options))
    assert wrong.name == "gemm" and wrong.first_violation.startswith(f"gemm.c[modulus {MODULI[3]}, K-block 1, i 0, j 2]: found "), wrong.first_violation
    _, stages = kernel(A, B, kblock=20, bugs=("last-kblock-dropped",))
    bad = ozref.verify_stages("ozaki2-int8", A, B, stages, **options)
    found = first_failure(bad)
    assert bad.exit_code == 1 and found.name == "reduce", found and found.name
    assert re.match(r"reduce\.c\[modulus \d+, i \d+, j \d+\]: found -?\d+, expected -?\d+, the balanced residue of the sum of its K-blocks' GEMM outputs",
                    found.first_violation), found.first_violation
    print(f"K-blocks: the blocked kernel verified, a dropped block found at reduce: {found.first_violation} (seed {SEED})")
