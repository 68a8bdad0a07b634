#!/usr/bin/python3
"""An exec: subject for ozref fuzz's tests: A @ B, but it never returns when A has 3 rows.

A's row count is read from its .npy header before NumPy is imported, so that the hang starts at
once and a quick run is not mistaken for one on a loaded machine."""
import ast
import sys
import time

with open(sys.argv[1], "rb") as f:
    f.read(8)
    header_length = int.from_bytes(f.read(2), "little")
    rows = ast.literal_eval(f.read(header_length).decode("latin1"))["shape"][0]
while rows == 3:
    time.sleep(1)

import numpy as np  # noqa: E402

np.save(sys.argv[3], np.load(sys.argv[1]) @ np.load(sys.argv[2]))
