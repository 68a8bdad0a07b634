"""Tensors on a GPU through ozref: CuPy arrays and PyTorch's CUDA tensors are copied to the host
once (python/ozref/_arrays.py) and give the answers of the same values as NumPy arrays. Each test
needs a GPU and skips, saying so, on a machine without one (or without CuPy); ctest then reports
this file as skipped, never passed (python/CMakeLists.txt). PyTorch on the CPU: test_torch.py."""

import importlib.util

import pytest

import ozref


def _cuda_devices():
    if importlib.util.find_spec("torch") is not None:
        import torch
        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    return 0


needs_cupy_gpu = pytest.mark.skipif(importlib.util.find_spec("cupy") is None,
                                    reason="no GPU here: CuPy (which needs a CUDA GPU) is not installed on this machine")
needs_torch_gpu = pytest.mark.skipif(_cuda_devices() == 0, reason="no GPU here: PyTorch sees no CUDA device")


@needs_cupy_gpu
def test_cupy_arrays(rng):
    import cupy
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("no GPU here: CuPy sees no CUDA device")
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
