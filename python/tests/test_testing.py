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
    assert f"{bits:.2f} correct bits (maxnorm), fewer than the 50 asked for (40x30 product, k = 300)" in message
    # The element it names is the one with the largest error.
    E = ozref.exact(A, B)
    i, j = np.unravel_index(np.argmax(np.abs(C - E)), C.shape)
    assert f"worst element C[{i}, {j}] = {C[i, j]!r} where the exact product is {E[i, j]!r}" in message


def test_one_planted_error_is_the_element_named(rng):
    A, B = operands(rng, 16, 64, 16)
    C = ozref.exact(A, B)
    C[11, 3] *= 1 + 2.0**-30
    with pytest.raises(AssertionError, match=r"worst element C\[11, 3\]"):
        assert_correct_bits(C, A, B, at_least=40, metric="elementwise")
    assert 29 < correct_bits(C, A, B, metric="elementwise") < 31
    C[5, 5] = np.nan
    assert correct_bits(C, A, B) == float("-inf")
    with pytest.raises(AssertionError, match=r"worst element C\[5, 5\] = nan .*non-finite mismatch"):
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
