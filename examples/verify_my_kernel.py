"""The whole harness a kernel author writes (examples/README.md): the kernel's stages verified in
memory and, written as a trace, by `ozref verify-trace`. Run: python3 examples/verify_my_kernel.py"""

import sys
import tempfile

import numpy as np

import ozref
from ozaki2_int8_numpy import MODULI, kernel

rng = np.random.default_rng(2026)
print("seed 2026")
A, B = rng.standard_normal((32, 64)), rng.standard_normal((64, 24))
C, stages = kernel(A, B)
options = {"mode": "fast", "moduli_list": list(MODULI)}  # its own scaling (scale is a free choice), its own moduli

in_memory = ozref.verify_stages("ozaki2-int8", A, B, stages, **options)
with tempfile.TemporaryDirectory() as folder:
    ozref.write_trace(folder, "ozaki2-int8", A, B, stages, **options)
    from_files = ozref.verify_trace(folder)

for result in (in_memory, from_files):
    for s in result.stages:
        print(f"  {s.name:9} verified {s.verified}  identical {s.identical}  {s.first_violation or s.first_difference or ''}")
    print(f"exit code {result.exit_code}; correct bits {result.accuracy['correct_bits_maxnorm']}")
sys.exit(max(in_memory.exit_code, from_files.exit_code))
