"""PyTorch's CPU tensors through ozref by DLPack (PyTorch is Debian's python3-torch, which
scripts/setup.sh installs): exact, check, run and the testing assertions take them and give the
answers they give for the same values as NumPy arrays, and the worked example of docs/python.md
runs on them. Nothing here needs a GPU, so nothing here skips (CUDA tensors: test_cupy_gpu.py)."""

import numpy as np
import pytest
import torch
import torch.utils.dlpack

import ozref
import test_example_matmul as example
from ozref.testing import assert_correct_bits, correct_bits
from test_example_matmul import operands  # noqa: F401 (the example's fixture)


class Capsule:
    """A producer that hands over torch.utils.dlpack.to_dlpack's capsule, the older export."""

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, stream=None):
        return torch.utils.dlpack.to_dlpack(self._tensor)

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()


@pytest.fixture
def tensors(rng):
    A, B = rng.standard_normal((16, 64)), rng.standard_normal((64, 8))
    return A, B, torch.from_numpy(A.copy()), torch.from_numpy(B.copy())


def test_torch_exports_dlpack_on_the_cpu(tensors):
    _, _, At, _ = tensors
    assert hasattr(At, "__dlpack__") and int(At.__dlpack_device__()[0]) == 1  # kDLCPU: read without a copy
    assert np.from_dlpack(At).ctypes.data == At.data_ptr()


def test_exact_and_check_take_torch_tensors(tensors):
    A, B, At, Bt = tensors
    E = ozref.exact(A, B)
    assert ozref.exact(At, Bt).tobytes() == E.tobytes()
    assert ozref.exact(Capsule(At), Capsule(Bt)).tobytes() == E.tobytes()
    assert ozref.exact(At.float(), Bt.float()).tobytes() == ozref.exact(A.astype(np.float32), B.astype(np.float32)).tobytes()
    C = At @ Bt
    assert ozref.check(At, Bt, C) == ozref.check(A, B, C.numpy())
    report = ozref.check(At, Bt, torch.from_numpy(E.copy()))
    assert report["bit_identical"] == report["elements"] == 16 * 8  # E itself: every element is round(E)


def test_tensors_that_require_grad_or_are_strided(tensors):
    A, B, At, Bt = tensors
    E = ozref.exact(A, B).tobytes()
    assert ozref.exact(At.clone().requires_grad_(True), Bt).tobytes() == E
    assert ozref.exact(At.t().contiguous().t(), Bt).tobytes() == E  # Fortran-ordered strides
    wide = torch.from_numpy(np.ascontiguousarray(np.repeat(B, 2, axis=1)))
    assert ozref.exact(At, wide[:, ::2]).tobytes() == E  # every other column


def test_run_takes_torch_tensors(tensors):
    A, B, At, Bt = tensors
    r, rt = ozref.run("ozaki2-int8", A, B), ozref.run("ozaki2-int8", At, Bt)
    assert rt.passed and rt.c.tobytes() == r.c.tobytes()
    assert [s.name for s in rt.stages] == [s.name for s in r.stages]
    ct = ozref.run("ozaki2-int8", torch.complex(At, At), torch.complex(Bt, -Bt))
    c = ozref.run("ozaki2-int8", A + 1j * A, B - 1j * B)
    assert ct.c.tobytes() == c.c.tobytes() and ct.c.dtype == np.complex128


def test_testing_assertions_take_torch_tensors(tensors):
    A, B, At, Bt = tensors
    C = At.float() @ Bt.float()  # an FP32 product: fewer than 24 correct bits against round(E) in FP32
    bits = assert_correct_bits(C, At.float(), Bt.float(), at_least=16)
    assert bits == correct_bits(C.numpy(), A.astype(np.float32), B.astype(np.float32)) and bits < 24
    with pytest.raises(AssertionError, match="fewer than the 30 asked for"):
        assert_correct_bits(C, At.float(), Bt.float(), at_least=30)


def test_a_torch_integer_tensor_is_refused_by_name(tensors):
    _, _, At, Bt = tensors
    with pytest.raises(ozref.InputError, match="argument A: expected dtype f8, f4 or c16, got i8"):
        ozref.exact(At.long(), Bt)


@pytest.mark.parametrize("case", [example.test_fp32_matmul_has_fp32_accuracy, example.test_fp64_emulation_from_fp32_pieces,
                                  example.test_a_truncated_emulation_is_caught], ids=lambda f: f.__name__)
def test_the_worked_example_on_torch_tensors(case, operands):  # noqa: F811 (the fixture)
    case("torch", operands)


def test_tensors_with_the_negative_or_conjugate_bit(rng):
    """PyTorch's lazy negation and conjugation are flags DLPack cannot carry: ozref applies them, so the
    values read are the tensor's values (the oracle: the same values materialised in NumPy)."""
    Z = rng.standard_normal((5, 7)) + 1j * rng.standard_normal((5, 7))
    B = rng.standard_normal((7, 3))
    imag_of_conj = torch.from_numpy(Z.copy()).conj().imag  # a view of Z.imag with the negative bit set
    negated = torch._neg_view(torch.from_numpy(B.copy()))
    assert imag_of_conj.is_neg() and negated.is_neg()
    assert ozref.exact(imag_of_conj, B).tobytes() == ozref.exact(-Z.imag, B).tobytes()
    assert ozref.exact(Z.real, negated).tobytes() == ozref.exact(Z.real, -B).tobytes()
    conjugated = torch.from_numpy(Z.copy()).conj()  # the conjugate bit: exported as the conjugate's values
    assert conjugated.is_conj()
    ozref_input = ozref._arrays.host_array(conjugated, "argument A")
    assert ozref_input.tobytes() == np.conj(Z).tobytes()
