"""Fixtures of the Python tests: the ozref command beside the module (OZREF_CLI, set by ctest), a
seeded generator whose seed is printed (OZREF_SEED overrides it), and a runner of the command."""

import json
import os
import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="session")
def cli_path():
    path = os.environ.get("OZREF_CLI")
    if not path or not os.path.exists(path):
        pytest.fail("OZREF_CLI must name the ozref executable (ctest sets it)")
    return path


@pytest.fixture
def ozref_cli(cli_path):
    """Runs `ozref ARGS...`; returns (exit code, stdout, stderr)."""

    def run(*args, cwd=None):
        p = subprocess.run([cli_path, *map(str, args)], capture_output=True, text=True, cwd=cwd)
        return p.returncode, p.stdout, p.stderr

    return run


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("OZREF_SEED", "0x5eed2026"), 0) + sum(map(ord, request.node.name))
    print(f"{request.node.name}: seed {seed}")
    return np.random.default_rng(seed)


def untimed(report):
    """A report without its timings, which differ from run to run."""
    if isinstance(report, dict):
        return {k: untimed(v) for k, v in report.items() if k not in ("seconds", "pipeline_seconds", "verify_seconds")}
    if isinstance(report, list):
        return [untimed(v) for v in report]
    return report


def cli_json(out):
    return json.loads(out)


def checked_both_ways(folder, run_cli, check, A, B, C):
    """`ozref check --json` on A, B and C saved in `folder`, and `check(A, B, C)`: the report,
    asserted to be the same both ways."""
    for name, x in (("a", A), ("b", B), ("c", C)):
        np.save(folder / f"{name}.npy", x)
    code, out, err = run_cli("check", "--json", "--a", folder / "a.npy", "--b", folder / "b.npy", "--c", folder / "c.npy")
    assert code == 0, err
    report = check(A, B, C)
    assert report == cli_json(out)
    return report
