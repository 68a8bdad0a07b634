"""The package installs into a virtual environment made with --system-site-packages (NumPy from
Debian's python3-numpy), with pip and Debian's setuptools, offline, and works from there."""

import os
import subprocess
import sys

import ozref


def test_pip_installs_the_built_package_into_a_venv(tmp_path):
    tree = os.path.dirname(os.path.dirname(ozref.__file__))  # build/python
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "--no-deps", "-q", tree],
                         capture_output=True, text=True, cwd=tmp_path)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the venv's own copy, not the build tree
    probe = ("import ozref, numpy as np; print(ozref.__file__); "
             "print(ozref.exact(np.array([[1.0, 2.0**-60, -1.0]]), np.ones((3, 1)))[0, 0] == 2.0**-60)")
    out = subprocess.run([str(venv / "bin" / "python"), "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    where, works = out.stdout.split()
    assert where.startswith(str(venv)) and works == "True"
