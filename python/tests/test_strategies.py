"""ozref.generate and ozref.strategies (docs/fuzz.md, "In a Hypothesis test"): the fuzzer's
generators under Hypothesis, which finds a planted bug and shrinks it to the smallest case."""

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings

import ozref
import ozref.strategies as ozst

QUIET = settings(derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))


def test_generate_is_a_function_of_its_seed():
    cases = 0
    for name in ozref.generators():
        a1, b1, label = ozref.generate(name, 5, 3, 7, seed=11)
        a2, b2, _ = ozref.generate(name, 5, 3, 7, seed=11)
        assert a1.shape == (5, 7) and b1.shape == (7, 3) and label.split(":")[0] == name
        assert a1.tobytes() == a2.tobytes() and b1.tobytes() == b2.tobytes()
        cases += 1
    print(f"  generate: {cases} cases (seed 11)")


def test_generators_make_what_the_catalogue_says():
    a, b, _ = ozref.generate("integers", 6, 4, 9, seed=3)
    assert np.all(a == np.round(a)) and np.all(b == np.round(b))
    a, b, _ = ozref.generate("subnormal", 6, 4, 9, seed=3)
    products = np.abs(a[:, :, None] * b[None, :, :])  # every a_ip b_pj, in FP64 (they underflow toward 0)
    assert np.all(products <= 2.0**-1022)
    a, b, _ = ozref.generate("specials", 16, 16, 64, seed=3)
    assert np.isnan(a).any() or np.isnan(b).any() or np.isinf(a).any() or np.isinf(b).any()


def test_bad_arguments_name_what_is_wrong():
    with pytest.raises(ozref.InputError, match=r"generate: unknown generator 'gauss' \(known: randn, "):
        ozref.generate("gauss", 2, 2, 2)
    with pytest.raises(ozref.InputError, match=r"m: 0 is not a positive integer"):
        ozref.generate("randn", 0, 2, 2)
    with pytest.raises(ozref.InputError, match=r"seed: -1 is not an integer in \[0, 2\^64\)"):
        ozref.generate("randn", 2, 2, 2, seed=-1)
    with pytest.raises(ozref.InputError, match=r"generators: unknown generator 'gauss'"):
        ozst.operands(["gauss"])
    with pytest.raises(ozref.InputError, match=r"max_k: 0 is not a positive integer"):
        ozst.operands(max_k=0)


def test_a_correct_gemm_passes():
    seen = []

    @settings(QUIET, max_examples=150)
    # (not "subnormal": there round(E) itself is off by up to half the smallest subnormal, far more
    # than 2^-53 of E, and the element-wise figure says so)
    @given(ozst.operands(["randn", "exponent-span", "cancellation", "line-scales"], max_k=32))
    def correctly_rounded(ops):
        A, B = ops
        seen.append(ops)
        ozref.testing.assert_correct_bits(ozref.exact(A, B), A, B, at_least=52, metric="elementwise")

    correctly_rounded()
    print(f"  strategies, the exact product: {len(seen)} cases (seed 0)")
    assert len(seen) >= 100


def float32_gemm(A, B):  # a planted bug: the product in FP32, about 24 bits where 40 are asked
    return (A.astype(np.float32) @ B.astype(np.float32)).astype(np.float64)


def test_a_wrong_gemm_is_found_and_shrunk():
    def fails(ops):
        A, B = ops
        return ozref.testing.correct_bits(float32_gemm(A, B), A, B) < 40

    smallest = find(ozst.operands(["integers", "randn"]), fails, settings=QUIET)
    A, B = smallest
    assert fails(smallest) and smallest.name == "randn"  # integers up to 2^26 pass FP32 exactly where they fit
    assert A.shape == (1, 1) and B.shape == (1, 1), repr(smallest)
    print(f"  strategies, an FP32 GEMM: 1 cases (seed 0): shrunk to {smallest!r}")
