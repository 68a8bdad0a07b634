"""Arrays as the extension takes them: NumPy arrays, and anything that speaks DLPack (PyTorch,
CuPy, JAX tensors) or the array protocol, as C-contiguous native-endian NumPy arrays.

A tensor on a device (a CUDA tensor) is copied to the host once, by its own method (CuPy's
``.get()``, PyTorch's ``.cpu()``, else the array protocol, as JAX offers it); a host tensor is
viewed through ``numpy.from_dlpack`` without a copy (unless it is not C-contiguous, when NumPy
copies it).
"""

import numpy as np

from ._ozref import InputError

_HOST_DEVICES = (1, 3)  # kDLCPU, and kDLCUDAHost: pinned memory is host memory too


def _from_device(x, name):
    for method in ("get", "cpu"):  # CuPy, PyTorch
        copy = getattr(x, method, None)
        if callable(copy):
            return copy()
    if hasattr(x, "__array__"):  # JAX
        return np.asarray(x)
    raise InputError(f"{name}: a device tensor (DLPack device {x.__dlpack_device__()}) with no "
                     "get(), cpu() or __array__() to copy it to the host")


def _resolved_torch_bits(x):
    """A PyTorch tensor with its lazy negation or conjugation applied: DLPack has no such bits, so
    a tensor that has one (`t.conj().imag`, `torch._neg_view(t)`) would be read with the wrong sign."""
    for bit, resolve in (("is_neg", "resolve_neg"), ("is_conj", "resolve_conj")):
        if callable(getattr(x, bit, None)) and getattr(x, bit)():
            x = getattr(x, resolve)()
    return x


def host_array(x, name):
    """`x` as a C-contiguous, native-endian NumPy array; `name` appears in errors."""
    if not isinstance(x, np.ndarray) and hasattr(x, "__dlpack__"):
        if hasattr(x, "detach"):  # a PyTorch tensor that requires grad exports no DLPack capsule
            x = x.detach()
        x = _resolved_torch_bits(x)
        if hasattr(x, "__dlpack_device__") and x.__dlpack_device__()[0] not in _HOST_DEVICES:
            x = _from_device(x, name)
        if not isinstance(x, np.ndarray):
            try:
                x = np.from_dlpack(x)
            except (BufferError, TypeError, RuntimeError) as e:
                raise InputError(f"{name}: cannot be read through DLPack ({e})") from None
    try:
        x = np.ascontiguousarray(x)
    except (TypeError, ValueError, OverflowError) as e:  # ragged lists, numbers out of every dtype's range
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise InputError(f"{name}: cannot be read as an array ({why[:80]})") from None
    if x.dtype.byteorder == ">":
        x = x.astype(x.dtype.newbyteorder("="))
    return x


def byte_rows(x, name):
    """`x` (bytes, a sequence of ints 0..255, or a uint8 array) as a 2-D uint8 array of rows."""
    if isinstance(x, (bytes, bytearray, memoryview)):
        x = np.frombuffer(bytes(x), dtype=np.uint8)
    else:
        x = host_array(x, name)
        if x.dtype != np.uint8:
            if x.dtype.kind not in "iu" or (x.size and (x.min() < 0 or x.max() > 255)):
                raise InputError(f"{name}: expected bytes (uint8 values 0..255), got dtype {x.dtype}")
            x = x.astype(np.uint8)
    if x.ndim == 1:
        x = x.reshape(1, -1)
    if x.ndim != 2:
        raise InputError(f"{name}: expected one operand (1-D) or one per row (2-D), got {x.ndim} dimensions")
    return np.ascontiguousarray(x)
