"""The PyTorch port of the example kernel (ozaki2_int8_torch.py), verified with torch tensors
passed as they are: clean when correct, and a lost sign found at truncate, in memory and from a
trace. ctest runs this file through pytest."""

import os

import torch

import ozref
from ozaki2_int8_numpy import MODULI
from ozaki2_int8_torch import kernel

OPTIONS = {"mode": "fast", "moduli_list": list(MODULI)}
SEED = int(os.environ.get("OZREF_SEED", "2026"), 0)


def operands():
    g = torch.Generator().manual_seed(SEED)
    return torch.randn(8, 48, generator=g, dtype=torch.float64), torch.randn(48, 6, generator=g, dtype=torch.float64)


def test_torch_kernel_verifies_in_memory_and_from_a_trace(tmp_path):
    A, B = operands()
    C, stages = kernel(A, B)
    r = ozref.verify_stages("ozaki2-int8", A, B, stages, **OPTIONS)
    assert r.exit_code == 0 and all(s.present and s.identical is not False for s in r.stages), r.report
    ozref.write_trace(tmp_path / "t", "ozaki2-int8", A, B, stages, **OPTIONS)
    assert ozref.verify_trace(tmp_path / "t").exit_code == 0
    assert torch.equal(torch.from_numpy(r.c), C)  # the kernel's C is the one ozref recomputed from its stages
    print(f"  torch kernel: {len(r.stages)} cases (seed {SEED}), 0 failed")


def test_torch_kernel_lost_sign_is_found_at_truncate():
    A, B = operands()
    _, stages = kernel(A, B, bugs=("lost-sign",))
    r = ozref.verify_stages("ozaki2-int8", A, B, stages, **OPTIONS)
    first = next(s for s in r.stages if (s.checked and s.verified is False) or s.identical is False)
    assert r.exit_code == 1 and first.name == "truncate"
    assert "truncate.a[i 0, k 1]" in (first.first_difference or ""), first.first_difference
    print(f"  torch kernel, lost sign: 1 cases (seed {SEED}): {first.first_difference}")
