#!/usr/bin/python3
"""An exec: subject for ozref fuzz's tests: A @ B, but it never returns when A has 3 rows."""
import sys
import time

import numpy as np

a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
while a.shape[0] == 3:
    time.sleep(1)
np.save(sys.argv[3], a @ b)
