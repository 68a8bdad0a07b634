"""Tensors through DLPack: producers that offer only __dlpack__ and __dlpack_device__ (NumPy's own
capsules stand in for PyTorch's and CuPy's; PyTorch itself: test_torch.py; CuPy and GPU tensors: test_cupy_gpu.py)."""

import numpy as np
import pytest

import ozref


class DLPackOnly:
    """A producer that is not a NumPy array and offers nothing but the DLPack protocol."""

    def __init__(self, array, device=(1, 0)):
        self._array, self._device = array, device

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__()

    def __dlpack_device__(self):
        return self._device


def test_dlpack_producers_give_the_same_answers_as_arrays(rng):
    A, B = rng.standard_normal((9, 50)), rng.standard_normal((50, 7))
    C = A @ B
    assert ozref.exact(DLPackOnly(A), DLPackOnly(B)).tobytes() == ozref.exact(A, B).tobytes()
    assert ozref.check(DLPackOnly(A), DLPackOnly(B), DLPackOnly(C)) == ozref.check(A, B, C)
    r, rd = ozref.run("ozaki2-int8", A, B), ozref.run("ozaki2-int8", DLPackOnly(A), DLPackOnly(B))
    assert r.c.tobytes() == rd.c.tobytes()
    A32 = A.astype(np.float32)
    assert ozref.exact(DLPackOnly(A32), B).tobytes() == ozref.exact(A32, B).tobytes()


def test_a_device_tensor_without_a_copy_method_is_refused():
    with pytest.raises(ozref.InputError, match=r"argument A: a device tensor \(DLPack device \(2, 0\)\) with no get\(\), cpu\(\) or __array__\(\)"):
        ozref.exact(DLPackOnly(np.ones((2, 2)), device=(2, 0)), np.ones((2, 2)))


class DeviceTensor(DLPackOnly):
    """A device tensor with a CuPy-like get(): the module copies it to the host once."""

    copies = 0

    def get(self):
        DeviceTensor.copies += 1
        return self._array


def test_a_device_tensor_is_copied_to_the_host_by_its_own_method(rng):
    A, B = rng.standard_normal((4, 8)), rng.standard_normal((8, 3))
    DeviceTensor.copies = 0
    assert ozref.exact(DeviceTensor(A, device=(2, 0)), B).tobytes() == ozref.exact(A, B).tobytes()
    assert DeviceTensor.copies == 1
