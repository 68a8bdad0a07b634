"""Hypothesis strategies for GEMM operands (docs/fuzz.md, "In a Hypothesis test"): the fuzzer's
generators, with the generator, the shape and the seed drawn by Hypothesis, so that it shrinks a
failing case towards the smallest shape and the earliest generator of the list that still fail.
Needs Hypothesis (Debian: python3-hypothesis)."""

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from . import InputError
from . import generate
from . import generators as _catalogue


@dataclass(frozen=True, repr=False)
class Operands:
    """A and B of one drawn case; unpacks as (A, B). Its repr, which Hypothesis prints for a
    falsifying example, names what makes it again: ozref.generate(generator, m, n, k, seed)."""

    a: np.ndarray
    b: np.ndarray
    generator: str
    name: str
    seed: int

    def __iter__(self):
        return iter((self.a, self.b))

    def __repr__(self):
        m, k = self.a.shape
        return f"Operands({self.generator} {m}x{self.b.shape[1]}x{k}: ozref.generate({self.name!r}, {m}, {self.b.shape[1]}, {k}, seed={self.seed}))"


def _limit(value, name):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name}: {value!r} is not a positive integer")
    return value


def operands(generators=None, *, max_m: int = 16, max_n: int = 16, max_k: int = 64):
    """A strategy for Operands: a generator from `generators` (names of ozref.generators(); None:
    all of them), m, n and k in 1..max_*, and a 64-bit seed."""
    names = _catalogue() if generators is None else list(generators)
    if not names:
        raise InputError("generators: the list is empty")
    for name in names:
        if name not in _catalogue():
            raise InputError(f"generators: unknown generator {name!r} (known: {', '.join(_catalogue())})")
    limits = _limit(max_m, "max_m"), _limit(max_n, "max_n"), _limit(max_k, "max_k")

    @st.composite
    def draw(draw_one):
        name = draw_one(st.sampled_from(names))
        m, n, k = (draw_one(st.integers(1, limit)) for limit in limits)
        seed = draw_one(st.integers(0, 2**64 - 1))
        a, b, label = generate(name, m, n, k, seed)
        return Operands(a, b, label, name, seed)

    return draw()
