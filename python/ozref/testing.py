"""Assertions for test suites (pytest, unittest): a computed product against the exact one."""

import json

import numpy as np

from . import _ozref
from ._arrays import host_array

_METRICS = {"maxnorm": "correct_bits_maxnorm", "elementwise": "correct_bits_elementwise_min"}


def _finite_bits(report, key):
    """The figure as a number: +inf where no compared element errs (the report's null)."""
    value = report[key]
    if value is not None:
        return value
    return float("inf") if report["erring_elements"] == 0 else float("-inf")


def _worst_element(C, fp64, residual, metric):
    """Index of the element that costs the most bits: a NaN or infinity mismatch first, then the
    largest error (maxnorm) or relative error (elementwise)."""
    c = C.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        special = (np.isnan(c) != np.isnan(fp64)) | ((np.isinf(c) | np.isinf(fp64)) & (c != fp64) & ~np.isnan(c))
        if special.any():
            return np.unravel_index(np.argmax(special), C.shape), "non-finite mismatch"
        error = np.abs((c - fp64) - residual)
        if metric == "elementwise":
            error = np.where(fp64 != 0, error / np.abs(fp64), np.where(error != 0, np.inf, 0))
        error = np.where(np.isfinite(c) & np.isfinite(fp64), error, 0)
    return np.unravel_index(np.argmax(error), C.shape), None


def _describe(C, A, B, report, metric, at_least, bits):
    fp64, _, residual, k = _ozref.exact(host_array(A, "argument A"), host_array(B, "argument B"), 0)
    index, special = _worst_element(C, fp64, residual, metric)
    c, e = C[index], fp64[index]
    where = "C[" + ", ".join(str(int(i)) for i in index) + "]"
    bits_text = "no" if bits == float("-inf") else f"{bits:.2f}"
    lines = [f"{bits_text} correct bits ({metric}), fewer than the {at_least} asked for "
             f"({C.shape[0]}x{C.shape[1]} product, k = {k})",
             f"worst element {where} = {float(c)!r} where the exact product is {float(e)!r} rounded to FP64"
             + (f" ({special})" if special else "")]
    if not special:
        err = abs((float(c) - float(e)) - float(residual[index]))
        rel = err / abs(float(e)) if e != 0 else float("inf")
        lines.append(f"  |C - E| = {err:.3g}, relative {rel:.3g}")
    lines.append(f"  {report['bit_identical']} of {report['elements']} elements bit-identical to round(E); "
                 f"NaN / Inf mismatches {report['nan_mismatches']} / {report['infinity_mismatches']}")
    return "\n".join(lines)


def _measure(C, A, B, metric, threads):
    """The figure and the check's report."""
    report = json.loads(_ozref.check(A, B, C, threads))
    if report["nan_mismatches"] or report["infinity_mismatches"]:
        return float("-inf"), report
    if metric == "elementwise" and report["zero_reference_mismatches"]:
        return float("-inf"), report  # C != 0 where E == 0: an infinite relative error
    return _finite_bits(report, _METRICS[metric]), report


def _arrays(C, A, B, metric):
    if metric not in _METRICS:
        raise ValueError(f"metric: expected one of {', '.join(_METRICS)}, got {metric!r}")
    return host_array(C, "argument C"), host_array(A, "argument A"), host_array(B, "argument B")


def correct_bits(C, A, B, *, metric: str = "maxnorm", threads: int = 0) -> float:
    """Correct bits of C against the exact product A @ B, as ozref.check reports them (maxnorm:
    -log2(max|C - E| / max|E|); elementwise: the smallest -log2(|C - E| / |E|)), with +inf where C
    is exact and -inf where C has a NaN or infinity the product does not have (or, elementwise, a
    nonzero where the product is exactly zero)."""
    C, A, B = _arrays(C, A, B, metric)
    return _measure(C, A, B, metric, threads)[0]


def assert_correct_bits(C, A, B, at_least: float = 50, *, metric: str = "maxnorm", threads: int = 0) -> float:
    """Asserts that C (float64 or float32) has at least `at_least` correct bits (correct_bits())
    against the exact product of A and B, and returns the figure. The AssertionError names the
    worst element, its value and the exact one."""
    C, A, B = _arrays(C, A, B, metric)
    bits, report = _measure(C, A, B, metric, threads)
    if bits >= at_least:
        return bits
    raise AssertionError(_describe(C, A, B, report, metric, at_least, bits))
