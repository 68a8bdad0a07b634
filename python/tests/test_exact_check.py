"""ozref.exact and ozref.check against the command on the same inputs, byte for byte, and against
independent answers (integer products, hand-made errors)."""

import numpy as np
import pytest

import ozref
from conftest import checked_both_ways, cli_json


def phi_like(rng, m, k):
    """Values spread over many binades, as the command's phi distribution."""
    return (rng.standard_normal((m, k)) * np.exp2(rng.integers(-30, 30, (m, k)))).astype(np.float64)


def test_exact_is_the_bytes_the_command_writes(tmp_path, rng, ozref_cli):
    A, B = phi_like(rng, 33, 200), phi_like(rng, 200, 21)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    code, _, err = ozref_cli("exact", "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy", "--out", tmp_path / "c.npy")
    assert code == 0, err
    C = ozref.exact(A, B)
    assert C.dtype == np.float64 and C.shape == (33, 21)
    assert C.tobytes() == np.load(tmp_path / "c.npy").tobytes()


def test_exact_of_integers_is_the_integer_product(rng):
    A = rng.integers(-1000, 1000, (17, 64))
    B = rng.integers(-1000, 1000, (64, 9))
    expected = A @ B  # int64: exact
    assert np.array_equal(ozref.exact(A.astype(np.float64), B.astype(np.float64)), expected.astype(np.float64))
    assert np.array_equal(ozref.exact(A.astype(np.float32), B.astype(np.float32), dtype=np.float32), expected.astype(np.float32))


def test_exact_rounds_once_where_float64_arithmetic_does_not():
    # 1 + 2^-60 - 1: float64 sums in this order give 0, the exact product is 2^-60
    A = np.array([[1.0, 2.0**-60, -1.0]])
    B = np.ones((3, 1))
    assert (1.0 + 2.0**-60) - 1.0 == 0.0
    assert ozref.exact(A, B)[0, 0] == 2.0**-60


@pytest.mark.parametrize("c_dtype", [np.float64, np.float32])
def test_check_is_the_report_the_command_prints(tmp_path, rng, ozref_cli, c_dtype):
    A, B = phi_like(rng, 20, 150), phi_like(rng, 150, 30)
    C = (A @ B).astype(c_dtype)  # NumPy's own product: not exact
    report = checked_both_ways(tmp_path, ozref_cli, ozref.check, A, B, C)
    assert report["c_precision"] == ("fp64" if c_dtype == np.float64 else "fp32")
    assert report["elements"] == 600


def test_check_counts_a_planted_error():
    A = np.arange(12, dtype=np.float64).reshape(3, 4)
    B = np.ones((4, 2))
    C = ozref.exact(A, B)
    assert ozref.check(A, B, C)["bit_identical"] == 6
    C[2, 1] = np.nextafter(C[2, 1], np.inf)
    report = ozref.check(A, B, C)
    assert (report["bit_identical"], report["erring_elements"], report["max_ulp_error"]) == (5, 1, 1.0)


def test_layouts_do_not_change_the_answer(rng):
    A, B = phi_like(rng, 12, 40), phi_like(rng, 40, 8)
    reference = ozref.exact(A, B)
    At = np.asfortranarray(A)                       # Fortran order
    Bs = np.repeat(B, 2, axis=1)[:, ::2]            # a strided view
    Abig = A.astype(A.dtype.newbyteorder(">"))      # big-endian
    for a, b in ((At, B), (A, Bs), (Abig, B)):
        assert ozref.exact(a, b).tobytes() == reference.tobytes()


def test_bad_input_raises_the_commands_message(tmp_path, ozref_cli):
    A, B, C = np.ones((2, 3)), np.ones((4, 2)), np.ones((2, 2))
    # Files named as the module names its arguments, so that the messages are the same bytes.
    for name, x in (("argument A", A), ("argument B", B), ("argument C", C)):
        with open(tmp_path / name, "wb") as f:
            np.save(f, x)
    code, _, err = ozref_cli("check", "--a", "argument A", "--b", "argument B", "--c", "argument C", cwd=tmp_path)
    assert code == 2
    with pytest.raises(ozref.InputError) as e:
        ozref.check(A, B, C)
    assert err == f"ozref check: error: {e.value}\n"
    assert str(e.value) == "shapes do not agree: A (argument A) is 2x3 but B (argument B) is 4x2"
    assert isinstance(e.value, ValueError)
    with pytest.raises(ozref.InputError, match=r"^argument A: expected dtype f8, f4 or c16, got i8$"):
        ozref.exact(np.ones((2, 2), dtype=np.int64), np.ones((2, 2)))
    with pytest.raises(ozref.InputError, match=r"^argument B: dtype float16 is not one ozref reads"):
        ozref.exact(np.ones((2, 2)), np.ones((2, 2), dtype=np.float16))
    with pytest.raises(ozref.InputError, match=r"^argument A: expected a 2-D matrix, got 1 dimensions$"):
        ozref.exact(np.ones(3), np.ones((3, 1)))
    with pytest.raises(ozref.InputError, match=r"^argument C: C must be 2x2 to match A and B$"):
        ozref.check(A, np.ones((3, 2)), np.ones((3, 3)))
