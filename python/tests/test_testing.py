"""ozref.testing: assert_correct_bits passes on good products and fails, naming the worst element,
on bad ones; correct_bits against hand-made errors."""

import numpy as np
import pytest

import ozref
from ozref.testing import assert_correct_bits, correct_bits


def operands(rng, m=40, k=300, n=30):
    return rng.standard_normal((m, k)), rng.standard_normal((k, n))


def truncated_emulation(A, B, bits):
    """A deliberately poor emulation: operands cut to `bits` significant bits, then float64 GEMM."""
    def cut(x):
        mant, exp = np.frexp(x)
        return np.ldexp(np.trunc(mant * 2.0**bits) / 2.0**bits, exp)
    return cut(A) @ cut(B)


def test_exact_and_float64_products_pass(rng):
    A, B = operands(rng)
    assert assert_correct_bits(ozref.exact(A, B), A, B, at_least=53) >= 53  # the rounding to FP64 alone
    integers = rng.integers(-99, 99, (6, 20)).astype(np.float64)
    assert correct_bits(ozref.exact(integers, integers.T), integers, integers.T) == float("inf")  # no rounding
    bits = assert_correct_bits(A @ B, A, B, at_least=40)
    assert 40 <= bits < 60
    assert bits == ozref.check(A, B, A @ B)["correct_bits_maxnorm"]


def test_a_truncated_emulation_fails_with_a_readable_message(rng):
    A, B = operands(rng)
    C = truncated_emulation(A, B, 20)
    bits = correct_bits(C, A, B)
    assert 10 < bits < 25
    with pytest.raises(AssertionError) as e:
        assert_correct_bits(C, A, B, at_least=50)
    message = str(e.value)
    assert f"failed: {bits:.2f} correct bits (maxnorm), {50 - bits:.2f} fewer than the 50 asked for" in message
    assert "(40x30 product, k = 300;" in message
    # The element it names is the one with the largest error.
    E = ozref.exact(A, B)
    i, j = np.unravel_index(np.argmax(np.abs(C - E)), C.shape)
    assert f"worst element C[{i}, {j}] = {C[i, j]!r} where the exact product rounds to {E[i, j]!r}" in message


def test_one_planted_error_is_the_element_named(rng):
    A, B = operands(rng, 16, 64, 16)
    C = ozref.exact(A, B)
    C[11, 3] *= 1 + 2.0**-30
    with pytest.raises(AssertionError, match=r"worst element C\[11, 3\]"):
        assert_correct_bits(C, A, B, at_least=40, metric="elementwise")
    assert 29 < correct_bits(C, A, B, metric="elementwise") < 31
    C[5, 5] = np.nan
    assert correct_bits(C, A, B) == float("-inf")
    with pytest.raises(AssertionError, match=r"no correct bits .*first at C\[5, 5\] = nan .*NaN mismatch"):
        assert_correct_bits(C, A, B, at_least=1)


def test_float32_results_are_measured_against_the_fp32_rounding(rng):
    A, B = operands(rng, 8, 32, 8)
    C32 = ozref.exact(A, B, dtype=np.float32)
    assert ozref.check(A, B, C32)["bit_identical"] == 64  # against E rounded once to FP32
    assert 24 <= assert_correct_bits(C32, A, B, at_least=24) < 30  # but the bits are counted against E itself
    assert assert_correct_bits((A @ B).astype(np.float32), A, B, at_least=20) >= 20


def test_bad_arguments():
    with pytest.raises(ValueError, match="metric"):
        correct_bits(np.ones((1, 1)), np.ones((1, 1)), np.ones((1, 1)), metric="median")
    with pytest.raises(ozref.InputError, match="shapes do not agree"):
        assert_correct_bits(np.ones((2, 2)), np.ones((2, 3)), np.ones((2, 2)))


def test_products_below_fp64s_normal_range_are_measured_against_the_exact_value():
    # E = 1.43 * 2^-1074 rounds to C = 2^-1074, which is still 0.43 units of 2^-1074 from E: 1.7
    # correct bits, from the exact rationals (fractions.Fraction), not "exact".
    from fractions import Fraction
    import math
    A, B = np.array([[np.ldexp(1.1, -537)]]), np.array([[np.ldexp(1.3, -537)]])
    C = np.array([[np.ldexp(1.0, -1074)]])
    E = Fraction(A[0, 0]) * Fraction(B[0, 0])
    err = abs(Fraction(C[0, 0]) - E)
    def log2(q):  # of a Fraction, through its integers (as floats these underflow to 0)
        return math.log2(q.numerator) - math.log2(q.denominator)
    want = log2(E) - log2(err)
    assert abs(want - 1.73) < 0.01
    assert correct_bits(C, A, B) == pytest.approx(want, abs=1e-9)
    assert correct_bits(C, A, B, metric="elementwise") == pytest.approx(want, abs=1e-9)
    with pytest.raises(AssertionError, match=r"1\.73 correct bits .*worst element C\[0, 0\] = 5e-324"):
        assert_correct_bits(C, A, B, at_least=50)
    report = ozref.check(A, B, C)
    assert report["bit_identical"] == 1 and report["erring_elements"] == 1


def test_the_gate_in_the_report(rng):
    A, B = operands(rng, 6, 20, 5)
    C = ozref.exact(A, B)
    C[2, 4] = -C[2, 4]
    report = ozref.check(A, B, C, at_least=30, metric="elementwise")
    assert report["gate"]["passed"] is False and report["gate"]["metric"] == "elementwise"
    assert report["worst_elementwise"]["row"] == 2 and report["worst_elementwise"]["col"] == 4
    assert report["gate"]["bits"] == pytest.approx(-1.0, abs=1e-9)  # |(-E) - E| / |E| = 2
    assert ozref.check(A, B, ozref.exact(A, B), at_least=52)["gate"]["passed"] is True
    with pytest.raises(ozref.InputError, match="metric"):
        ozref.check(A, B, C, at_least=30, metric="median")
