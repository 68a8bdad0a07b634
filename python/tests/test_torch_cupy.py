"""PyTorch and CuPy through ozref: their tensors by DLPack, and the worked example of docs/python.md
on PyTorch's CPU tensors. Each test needs its library and skips, with the reason, without it; ctest
then reports this file as skipped, not passed (python/CMakeLists.txt)."""

import importlib.util

import pytest

import ozref
import test_example_matmul as example
from test_example_matmul import operands  # noqa: F401 (the example's fixture)

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed on this machine")
needs_cupy = pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy is not installed on this machine")


@needs_torch
def test_torch_tensors(rng):
    import torch
    A, B = torch.randn(16, 64, dtype=torch.float64), torch.randn(64, 8, dtype=torch.float64, requires_grad=True)
    C = A @ B
    assert ozref.check(A, B, C) == ozref.check(A.numpy(), B.detach().numpy(), C.detach().numpy())
    if torch.cuda.is_available():
        Ad = A.cuda()
        assert ozref.exact(Ad, B).tobytes() == ozref.exact(A.numpy(), B.detach().numpy()).tobytes()


@needs_cupy
def test_cupy_arrays(rng):
    import cupy
    A, B = rng.standard_normal((16, 64)), rng.standard_normal((64, 8))
    assert ozref.exact(cupy.asarray(A), cupy.asarray(B)).tobytes() == ozref.exact(A, B).tobytes()


@needs_torch
@pytest.mark.parametrize("case", [example.test_fp32_matmul_has_fp32_accuracy, example.test_fp64_emulation_from_fp32_pieces,
                                  example.test_a_truncated_emulation_is_caught], ids=lambda f: f.__name__)
def test_the_worked_example_on_torch_tensors(case, operands):  # noqa: F811 (the fixture)
    case("torch", operands)
