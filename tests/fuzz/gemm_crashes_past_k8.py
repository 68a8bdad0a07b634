#!/usr/bin/python3
"""An exec: subject for ozref fuzz's tests: A @ B, but it kills itself with SIGSEGV when K > 8."""
import os
import signal
import sys

import numpy as np

a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
if a.shape[1] > 8:
    os.kill(os.getpid(), signal.SIGSEGV)
np.save(sys.argv[3], a @ b)
