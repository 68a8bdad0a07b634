"""Assertions for test suites (pytest, unittest): a computed product against the exact one."""

from . import check

def _gate(C, A, B, at_least, metric, threads):
    """The check's verdict on C at the floor `at_least` (the library judges; see docs/verbs/check.md)."""
    report = check(A, B, C, threads=threads, at_least=at_least, metric=metric)
    gate = report["gate"]
    bits = gate["bits"]
    if bits is None:
        bits = float("inf") if gate["bits_text"] == "exact" else float("-inf")
    return bits, gate, report


def correct_bits(C, A, B, *, metric: str = "maxnorm", threads: int = 0) -> float:
    """Correct bits of C against the exact product A @ B, as ozref.check reports them (maxnorm:
    -log2(max|C - E| / max|E|); elementwise: the smallest -log2(|C - E| / |E|)), with +inf where C
    is exact and -inf where C has a NaN or infinity the product does not have (or, elementwise, a
    nonzero where the product is exactly zero)."""
    return _gate(C, A, B, 0, metric, threads)[0]


def assert_correct_bits(C, A, B, at_least: float = 50, *, metric: str = "maxnorm", threads: int = 0) -> float:
    """Asserts that C (float64 or float32) has at least `at_least` correct bits (correct_bits())
    against the exact product of A and B, and returns the figure. The AssertionError says by how
    much C falls short and names the worst element, its value and the exact one."""
    bits, gate, report = _gate(C, A, B, at_least, metric, threads)
    if gate["passed"]:
        return bits
    raise AssertionError(f"{gate['message']} ({report['m']}x{report['n']} product, k = {report['k']}; "
                         f"{report['bit_identical']} of {report['elements']} elements bit-identical to round(E))")
