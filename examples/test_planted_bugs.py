"""The example kernel (ozaki2_int8_numpy.py) with each bug of docs/verify-trace.md's list planted:
ozref must find each at its own stage, in memory and from a trace, naming the element. The
correct kernel must verify clean. Seeds are printed; ctest runs this file through pytest."""

import os

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
