"""The complex exact product (ozref.exact, ozref.check and the command on c16 operands) against an
independent oracle: each part's sum of products in Python's exact rationals (fractions.Fraction),
rounded to nearest-even here, not by the library."""

import math
from fractions import Fraction

import numpy as np
import pytest

import ozref
from conftest import checked_both_ways, cli_json


def round_to(q: Fraction, mantissa_bits: int, min_exponent: int, max_exponent: int) -> float:
    """q rounded once to nearest-even in a binary format with `mantissa_bits` (the leading bit
    counted), subnormals down to 2^(min_exponent - mantissa_bits + 1), +-inf past its range."""
    if q == 0:
        return 0.0
    sign, a = (-1.0 if q < 0 else 1.0), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2^e <= a < 2^(e+2)
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    quantum = max(e, min_exponent) - mantissa_bits + 1
    scaled = a / Fraction(2) ** quantum
    n, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest > scaled.denominator or (2 * rest == scaled.denominator and n % 2):
        n += 1
    if n.bit_length() + quantum - 1 > max_exponent:
        return sign * math.inf
    return sign * math.ldexp(n, quantum)


def fp64(q):
    return round_to(q, 53, -1022, 1023)


def fp32(q):
    return round_to(q, 24, -126, 127)


def exact_parts(A, B):
    """Re and Im of A @ B, each an exact rational, by the textbook formula."""
    m, k = A.shape
    n = B.shape[1]
    a = [[(Fraction(A[i, l].real), Fraction(A[i, l].imag)) for l in range(k)] for i in range(m)]
    b = [[(Fraction(B[l, j].real), Fraction(B[l, j].imag)) for j in range(n)] for l in range(k)]
    re = [[sum(a[i][l][0] * b[l][j][0] - a[i][l][1] * b[l][j][1] for l in range(k)) for j in range(n)] for i in range(m)]
    im = [[sum(a[i][l][0] * b[l][j][1] + a[i][l][1] * b[l][j][0] for l in range(k)) for j in range(n)] for i in range(m)]
    return re, im


def spread(rng, shape, low, high):
    """Complex values whose parts spread over 2^low .. 2^high, each part's exponent drawn alone."""
    part = lambda: rng.standard_normal(shape) * np.exp2(rng.integers(low, high, shape))
    return part() + 1j * part()


def assert_rounded_from(C, re, im, rounding):
    m, n = C.shape
    expected = np.array([[complex(rounding(re[i][j]), rounding(im[i][j])) for j in range(n)] for i in range(m)], dtype=C.dtype)
    bits = np.uint64 if C.dtype == np.complex128 else np.uint32
    differ = np.flatnonzero(C.view(bits) != expected.view(bits))
    assert differ.size == 0, f"{differ.size} parts differ, first at part {differ[0]}: {C.flat[differ[0] // 2]} vs {expected.flat[differ[0] // 2]}"


# Both of the exact product's paths are taken (the command's --json says which ran): the modular one
# for spans of up to a few hundred bits, the direct one for the widest.
@pytest.mark.parametrize("shape, low, high, direct", [((7, 23, 5), -30, 30, False), ((7, 23, 5), -1070, -1000, False),
                                                      ((7, 23, 5), 900, 1000, True), ((7, 23, 5), -520, 500, True),
                                                      ((12, 257, 9), -2, 2, False)])
def test_each_part_is_the_exact_sum_rounded_once(tmp_path, rng, ozref_cli, shape, low, high, direct):
    m, k, n = shape
    A, B = spread(rng, (m, k), low, high), spread(rng, (k, n), low, high)
    re, im = exact_parts(A, B)
    assert_rounded_from(ozref.exact(A, B), re, im, fp64)
    assert_rounded_from(ozref.exact(A, B, dtype=np.float32), re, im, fp32)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    code, out, err = ozref_cli("exact", "--json", "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", "--out", tmp_path / "c.npy")
    assert code == 0 and cli_json(out)["direct_path"] == direct, err


def test_cancellation_the_float_formula_loses(rng):
    # Re = 1 * 1 - (1 + 2^-52)(1 - 2^-52) = 2^-104: NumPy's product gives 0
    A = np.array([[1 + 1j * (1 + 2.0**-52)]])
    B = np.array([[1 + 1j * (1 - 2.0**-52)]])
    assert (A @ B)[0, 0].real == 0.0
    C = ozref.exact(A, B)
    assert C[0, 0].real == 2.0**-104 and C[0, 0].imag == 2.0


@pytest.mark.parametrize("real_side", ["A", "B"])
def test_a_real_operand_beside_a_complex_one_has_a_zero_imaginary_part(rng, real_side):
    A, B = spread(rng, (6, 17), -40, 40), spread(rng, (17, 4), -40, 40)
    if real_side == "A":
        A = A.real.copy()
    else:
        B = B.real.copy()
    C = ozref.exact(A, B)
    assert C.dtype == np.complex128 and C.shape == (6, 4)
    re, im = exact_parts(A.astype(np.complex128), B.astype(np.complex128))
    assert_rounded_from(C, re, im, fp64)


def test_special_values_follow_the_real_formula():
    inf, nan = math.inf, math.nan
    # (inf + 0i)(1 + 0i): Re = inf*1 - 0*0 = inf; Im = inf*0 + 0*1 = NaN (no Annex G recovery)
    C = ozref.exact(np.array([[complex(inf, 0)]]), np.array([[1 + 0j]]))
    assert C[0, 0].real == inf and math.isnan(C[0, 0].imag)
    # (1 + i inf)(1 + i): Re = 1 - inf = -inf, Im = 1 + inf = inf
    C = ozref.exact(np.array([[complex(1, inf)]]), np.array([[1 + 1j]]))
    assert C[0, 0].real == -inf and C[0, 0].imag == inf
    # a NaN imaginary part of A reaches both parts of its row only
    A = np.array([[complex(1, nan)], [1 + 1j]])
    C = ozref.exact(A, np.array([[2 + 3j]]))
    assert math.isnan(C[0, 0].real) and math.isnan(C[0, 0].imag) and C[1, 0] == -1 + 5j


def test_the_command_writes_the_same_c16_bytes(tmp_path, rng, ozref_cli):
    A, B = spread(rng, (9, 31), -60, 60), spread(rng, (31, 11), -60, 60)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    code, out, err = ozref_cli("exact", "--json", "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", "--out", tmp_path / "c.npy")
    assert code == 0, err
    report = cli_json(out)
    assert (report["m"], report["n"], report["k"], report["complex"]) == (9, 11, 31, True)
    written = np.load(tmp_path / "c.npy")
    assert written.dtype == np.complex128 and written.tobytes() == ozref.exact(A, B).tobytes()


def test_check_measures_a_complex_c_part_by_part(tmp_path, rng, ozref_cli):
    A, B = spread(rng, (5, 12), -20, 20), spread(rng, (12, 6), -20, 20)
    C = ozref.exact(A, B)
    C[3, 2] = complex(C[3, 2].real, C[3, 2].imag * (1 + 2.0**-30))  # a planted error, in an imaginary part
    report = checked_both_ways(tmp_path, ozref_cli, ozref.check, A, B, C)
    assert report["complex"] is True and (report["m"], report["n"], report["k"]) == (5, 6, 12)
    assert report["elements"] == 2 * 5 * 6 and report["bit_identical"] == 2 * 5 * 6 - 1
    worst = report["worst_elementwise"]
    assert (worst["row"], worst["col"], worst["part"]) == (3, 2, "imag")
    assert 29 < worst["correct_bits"] < 31
    code, out, _ = ozref_cli("check", "--at-least", "40", "--metric", "elementwise", "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", "--c", tmp_path / "c.npy")
    assert code == 1 and "worst element C[3, 2].imag" in out


def test_complex_inputs_refused_by_name(tmp_path, rng, ozref_cli):
    A, B = spread(rng, (2, 3), 0, 1), spread(rng, (3, 2), 0, 1)
    with pytest.raises(ozref.InputError, match=r"^argument C: expected dtype c16 \(complex128\) for the complex product of A and B, got f8$"):
        ozref.check(A, B, np.zeros((2, 2)))
    with pytest.raises(ozref.InputError, match=r"^argument C: C must be 2x2 to match A and B$"):
        ozref.check(A, B, np.zeros((2, 3), dtype=np.complex128))
    with pytest.raises(ozref.InputError, match=r"^shapes do not agree: A \(argument A\) is 2x3 but B \(argument B\) is 2x2$"):
        ozref.exact(A, B[:2])
    with pytest.raises(ozref.InputError, match=r"^argument A: expected dtype f8, f4 or c16, got i8$"):
        ozref.exact(np.ones((2, 3), dtype=np.int64), B)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    np.save(tmp_path / "c.npy", np.zeros((2, 2)))
    code, out, err = ozref_cli("check", "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", "--c", tmp_path / "c.npy")
    assert code == 2 and out == "" and "for the complex product of A and B, got f8" in err
