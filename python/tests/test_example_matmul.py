"""The worked example of docs/python.md: a matmul tested against the exact product, once in FP32
and twice as an FP64 emulation from FP32 pieces (one deliberately truncated). Each test takes its
backend: NumPy here, PyTorch's CPU tensors in test_torch.py."""

import numpy as np
import pytest

import ozref
from ozref.testing import assert_correct_bits

BACKENDS = ["numpy"]  # "torch": test_torch.py


def as_backend(backend, x):
    if backend == "torch":
        import torch
        return torch.from_numpy(x)
    return x


def split(x):
    """x = hi + lo with hi = fl32(x), lo = fl32(x - hi): 48 of x's 53 bits in two FP32 pieces."""
    hi = x.astype(np.float32)
    return hi, (x - hi.astype(np.float64)).astype(np.float32)


def emulated_fp64_matmul(backend, A, B, terms):
    """A @ B from FP32 pieces, each piece product rounded to FP32 accuracy only by its inputs
    (the products are formed in FP64): terms 3 is hi*hi + hi*lo + lo*hi, terms 1 hi*hi alone."""
    (ah, al), (bh, bl) = split(A), split(B)
    pairs = [(ah, bh), (ah, bl), (al, bh)][:terms]
    wide = [(as_backend(backend, x.astype(np.float64)), as_backend(backend, y.astype(np.float64))) for x, y in pairs]
    return sum(x @ y for x, y in wide)


@pytest.fixture
def operands(rng):
    return rng.standard_normal((64, 512)), rng.standard_normal((512, 64))


@pytest.mark.parametrize("backend", BACKENDS)
def test_fp32_matmul_has_fp32_accuracy(backend, operands):
    A, B = (x.astype(np.float32) for x in operands)
    C = as_backend(backend, A) @ as_backend(backend, B)  # float32 result, measured against E rounded to FP32
    bits = assert_correct_bits(C, as_backend(backend, A), as_backend(backend, B), at_least=16)
    assert bits < 24  # an FP32 GEMM is not exact: the check can tell
    with pytest.raises(AssertionError, match=r"fewer than the 30 asked for"):
        assert_correct_bits(C, A, B, at_least=30)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fp64_emulation_from_fp32_pieces(backend, operands):
    A, B = operands
    C = emulated_fp64_matmul(backend, A, B, terms=3)
    assert assert_correct_bits(C, A, B, at_least=40) >= 40


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_truncated_emulation_is_caught(backend, operands):
    A, B = operands
    C = emulated_fp64_matmul(backend, A, B, terms=1)  # the cross terms dropped: a deliberate bug
    with pytest.raises(AssertionError) as failure:
        assert_correct_bits(C, A, B, at_least=40)
    print(failure.value)  # docs/python.md shows this message
    assert "worst element C[" in str(failure.value)
