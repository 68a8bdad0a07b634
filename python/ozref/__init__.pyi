# Type stubs of the package ozref (docs/python.md).
from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Union

import numpy as np
import numpy.typing as npt

from . import testing as testing
from ._results import RunResult as RunResult
from ._results import StageReport as StageReport

# NumPy arrays, or tensors that speak DLPack (PyTorch, CuPy, JAX) or the array protocol.
ArrayLike = Any
Path = Union[str, PathLike]

class InputError(ValueError): ...
class GpuUnavailable(RuntimeError): ...

def exact(A: ArrayLike, B: ArrayLike, *, dtype: npt.DTypeLike = "float64", threads: int = 0) -> np.ndarray: ...
def check(A: ArrayLike, B: ArrayLike, C: ArrayLike, *, threads: int = 0) -> Dict[str, Any]: ...
def run(scheme: str, A: ArrayLike, B: ArrayLike, *, arch: str = "ideal", op: Optional[str] = None,
        mode: Optional[str] = None, crt: Optional[str] = None, slicing: Optional[str] = None,
        accumulate: Optional[str] = None, moduli: Optional[int] = None, slices: Optional[int] = None,
        mantissa_bits: Optional[Union[int, str]] = None, kblock: Optional[int] = None,
        complex_product: Optional[str] = None, verify: Optional[str] = None, threads: int = 0,
        dump: Optional[Path] = None) -> RunResult: ...
def verify_trace(path: Path, *, a: Optional[Path] = None, b: Optional[Path] = None, verify: Optional[str] = None,
                 reproducers: Optional[Path] = None, threads: int = 0) -> RunResult: ...
def lockstep(scheme: str, A: ArrayLike, B: ArrayLike, *, lockstep: str = "resync", gemm: str = "mma",
             fault: Optional[str] = None, arch: str = "ideal", op: Optional[str] = None, mode: Optional[str] = None,
             crt: Optional[str] = None, slicing: Optional[str] = None, accumulate: Optional[str] = None,
             moduli: Optional[int] = None, slices: Optional[int] = None,
             mantissa_bits: Optional[Union[int, str]] = None, kblock: Optional[int] = None,
             complex_product: Optional[str] = None, verify: Optional[str] = None, threads: int = 0,
             dump: Optional[Path] = None) -> RunResult: ...
def mma(op: str, a: Union[bytes, ArrayLike], b: Union[bytes, ArrayLike], c: Union[int, ArrayLike], *,
        arch: str = "sm_90", scale_a: Optional[Union[bytes, ArrayLike]] = None,
        scale_b: Optional[Union[bytes, ArrayLike]] = None) -> Union[int, npt.NDArray[np.uint32]]: ...
def fuzz(subject: Union[str, Callable[[Any, Any], Any]], *, at_least: Optional[float] = None, metric: str = "maxnorm",
         properties: str = "", generators: str = "", seconds: float = 60.0, cases: int = 0, first_case: int = 0,
         seed: Optional[int] = None, max_m: int = 16, max_n: int = 16, max_k: int = 64, timeout: float = 10.0,
         shrink_seconds: float = 30.0, out: Optional[Path] = None, replay: Optional[Path] = None, threads: int = 1,
         array_type: str = "numpy", arch: str = "ideal", op: Optional[str] = None, mode: Optional[str] = None,
         crt: Optional[str] = None, slicing: Optional[str] = None, accumulate: Optional[str] = None,
         moduli: Optional[int] = None, slices: Optional[int] = None, mantissa_bits: Optional[Union[int, str]] = None,
         kblock: Optional[int] = None) -> Dict[str, Any]: ...
def instruction(op: str, arch: str = "sm_90") -> Dict[str, Any]: ...
def instructions(arch: str = "sm_90") -> List[Dict[str, Any]]: ...
def architectures() -> List[str]: ...
def schemes() -> List[str]: ...
