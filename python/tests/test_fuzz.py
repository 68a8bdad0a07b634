"""ozref.fuzz with Python callables and named subjects (docs/fuzz.md, docs/python.md)."""
import json
import os

import numpy as np
import pytest

import ozref

SEED = int(os.environ.get("OZREF_SEED", "1"), 0)


def test_a_right_subject_holds():
    # float64 matmul of uniform (positive) data: a relative error below 64 * 2^-53 (46 bits).
    r = ozref.fuzz(lambda a, b: a @ b, at_least=40, generators="uniform", cases=200, seed=SEED)
    assert r["failed"] is False and r["cases"] == 200
    print(f"fuzz right callable: {r['cases']} cases (seed {SEED})")


def test_float32_matmul_is_found_and_shrunk(tmp_path):
    # A float32 product has at most 24 correct bits: the 40-bit floor fails on the first case with
    # a product that float32 does not hold exactly, shrunk to one element.
    def float32_matmul(a, b):
        return (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float64)

    r = ozref.fuzz(float32_matmul, at_least=40, generators="randn", cases=50, seed=SEED, out=tmp_path / "finding")
    assert r["failed"] is True and r["property"] == "accuracy"
    shrunk = r["shrunk"]
    assert shrunk["m"] * shrunk["n"] * shrunk["k"] == 1
    assert shrunk["figures"]["correct_bits_maxnorm"] < 40
    a, b = np.load(tmp_path / "finding" / "A.npy"), np.load(tmp_path / "finding" / "B.npy")
    assert a.shape == (1, 1) and b.shape == (1, 1)
    # The shrunk case fails on its own: float32 rounding of A or B loses bits there.
    assert float32_matmul(a, b)[0, 0] != a[0, 0] * b[0, 0]
    assert json.load(open(tmp_path / "finding" / "report.json"))["replay"] is None  # no command runs a callable
    print(f"fuzz float32 callable: {r['cases']} cases (seed {SEED})")


def test_an_exception_is_a_finding():
    def raises_past_k8(a, b):
        if a.shape[1] > 8:
            raise RuntimeError("K too large")
        return a @ b

    r = ozref.fuzz(raises_past_k8, properties="no-crash", generators="randn", cases=100, seed=SEED)
    assert r["failed"] is True and r["property"] == "no-crash"
    assert (r["shrunk"]["m"], r["shrunk"]["n"], r["shrunk"]["k"]) == (1, 1, 9)
    assert "K too large" in r["shrunk"]["detail"]


def test_named_subjects():
    r = ozref.fuzz("gemmul8@2.0.14", mode="fast", at_least=40, seconds=30, seed=SEED)
    assert r["failed"] is True and r["property"] == "accuracy"
    assert ozref.fuzz("exact", at_least=52, seconds=2, seed=SEED)["failed"] is False
    with pytest.raises(ozref.InputError):
        ozref.fuzz("exact", properties="speed")
    with pytest.raises(ozref.InputError):
        ozref.fuzz(lambda a, b: a @ b, array_type="jax")
