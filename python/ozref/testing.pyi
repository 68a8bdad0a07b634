# Type stubs of ozref.testing (docs/python.md).
from typing import Any

ArrayLike = Any

def correct_bits(C: ArrayLike, A: ArrayLike, B: ArrayLike, *, metric: str = "maxnorm", threads: int = 0) -> float: ...
def assert_correct_bits(C: ArrayLike, A: ArrayLike, B: ArrayLike, at_least: float = 50, *, metric: str = "maxnorm",
                        threads: int = 0) -> float: ...
