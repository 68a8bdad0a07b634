"""Tensors on a GPU through ozref: CuPy arrays and PyTorch's CUDA tensors are copied to the host
once (python/ozref/_arrays.py) and give the answers of the same values as NumPy arrays. Each test
needs a GPU and skips, saying so, only on a machine without one (with a GPU and without CuPy the
CuPy test fails); ctest then reports this file as skipped, never passed (python/CMakeLists.txt). PyTorch on the CPU: test_torch.py."""

import importlib.util
import os

import numpy as np
import pytest

import ozref


def _cuda_devices():
    if importlib.util.find_spec("torch") is not None:
        import torch
        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    return 0


def _gpu_present():
    """Whether this machine has an NVIDIA GPU, seen without CuPy: the driver lists one, or PyTorch does."""
    gpus = "/proc/driver/nvidia/gpus"
    return (os.path.isdir(gpus) and len(os.listdir(gpus)) > 0) or _cuda_devices() > 0


# Skipped only where there is no GPU: on a machine with one, a missing CuPy fails the test.
needs_gpu = pytest.mark.skipif(not _gpu_present(), reason="no GPU here: the NVIDIA driver lists none and PyTorch sees none")
needs_torch_gpu = pytest.mark.skipif(_cuda_devices() == 0, reason="no GPU here: PyTorch sees no CUDA device")


@needs_gpu
def test_cupy_arrays(rng):
    if importlib.util.find_spec("cupy") is None:
        pytest.fail("a GPU is present but CuPy is not installed: install CuPy to run this test")
    import cupy
    A, B = rng.standard_normal((16, 64)), rng.standard_normal((64, 8))
    assert ozref.exact(cupy.asarray(A), cupy.asarray(B)).tobytes() == ozref.exact(A, B).tobytes()
    C = cupy.asarray(A) @ cupy.asarray(B)
    assert ozref.check(cupy.asarray(A), cupy.asarray(B), C) == ozref.check(A, B, cupy.asnumpy(C))


@needs_torch_gpu
def test_torch_cuda_tensors(rng):
    import torch
    A, B = rng.standard_normal((16, 64)), rng.standard_normal((64, 8))
    Ad, Bd = torch.from_numpy(A).cuda(), torch.from_numpy(B).cuda().requires_grad_(True)
    assert ozref.exact(Ad, Bd).tobytes() == ozref.exact(A, B).tobytes()
    assert ozref.run("ozaki2-int8", Ad, Bd).c.tobytes() == ozref.run("ozaki2-int8", A, B).c.tobytes()


@needs_gpu
def test_exact_and_check_on_the_gpu(rng):
    """device="gpu": the GPU's exact product (`--device gpu`), bit for bit the CPU's, and check's same report."""
    A = rng.standard_normal((40, 70)) * np.exp2(rng.integers(-300, 301, (40, 70)).astype(float))
    B = rng.standard_normal((70, 30))
    for dtype in ("float64", "float32"):
        assert ozref.exact(A, B, dtype=dtype, device="gpu").tobytes() == ozref.exact(A, B, dtype=dtype).tobytes()
    C = (A.astype(np.float32) @ B.astype(np.float32))
    assert ozref.check(A, B, C, device="gpu") == ozref.check(A, B, C)
