#!/usr/bin/env python3
"""Exploratory model of cuBLAS 13.1's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, strategy
EAGER, mantissa control FIXED), decoded from black-box records of the H200 (docs/third-party.md,
"cublas-fixedpoint@13.1"). The exploratory twin of the registered scheme, FIXED control only: the
DYNAMIC control runs this same algorithm at its count while the count is at most its max mantissa
bit count (79 unless set; BITS may then exceed 79 in emulated_gemm), native FP64 above it; the
count's rule and the fallback are in the scheme (reference/schemes/cublas_fixedpoint/dynamic_count.hpp,
fallback.cpp). The K-block size is kblock_size(m, n, k), a
rule fitted to the 210 shapes cublas_kblock_probe measured (it fits all of them; outside the shapes
measured it is an extrapolation); an explicit kb overrides it.

Stages, for B mantissa bits (quantized up to 8n - 1: n = ceil((B + 1) / 8) slices), K split into blocks of kb from k = 0
(kb from kblock_size unless given):
  scale       per row of A and per column of B in each K-block: e with max|x| in [2^(e-1), 2^e),
              plus one when max|x|'s significand exceeds 2 - 2^-6 (a threshold in (1.98296, 1.98468]),
              at least -1022 (lines below FP64's normal range: the edge probe's sub_ records)
  slice       X = trunc(x 2^(B-e)) (toward zero, |X| < 2^B), as n balanced base-256 digits
              (X = sum d_i 256^(n-1-i), lower digits in [-128, 127], the top one takes the rest)
  gemm        per block and anti-diagonal d = p + q <= n - 1 (the first n diagonals only):
              S_d = sum over the block's k and p of dA_p dB_(d-p), exact integers (INT8 GEMMs)
  accumulate  per block v = 0; v += S_d 256^(2n-2-d) 2^(-2B) for d = 0..n-1 in FP64, then v 2^(eA+eB)
              rounded once; then C = 0; C += that block after block, in FP64 (each a correctly rounded
              binary64 operation)

Usage:
  KB: a K-block size, or "auto" for kblock_size of DIR's A and B before any ROWS cut (the row-subset
      copies in tests/data/cublas are smaller than the shapes cuBLAS ran: give KB for those).
  cublas_fixedpoint_model.py trace DIR CASE BITS KB ROWS   the error of each stage (trace()) on the
      first ROWS rows of DIR/CASE_{A,B}.npy
  cublas_fixedpoint_model.py replay DIR CASE BITS KB [ROWS]   compare with DIR/CASE_{A,B}.npy and
      DIR/CASE_fixed<BITS>_C.npy (or CASE_cublasemu<BITS>_C.npy); prints "CASE BITS: matched of total"
      and exits 1 on any mismatch (2 on bad input). ROWS: use only the first ROWS rows of A and C.
"""
import math
import os
import sys
from fractions import Fraction

import numpy as np

BUMP = Fraction(2) - Fraction(1, 64)
MIN_SCALE = -1022  # cuBLAS's floor for a line's scale exponent
TILE, WORK_UNITS, SHORT_K = 128, 32, 512  # the constants of kblock_size


def kblock_size(m, n, k):
    """The K-block size cuBLAS 13.1 uses for an m x n x k product (cublas_kblock_probe, H200; the same
    at 23 and 79 bits). K is split s = 32 / tiles ways, tiles = ceil(m/128) ceil(n/128) (a split-K
    over 128 x 128 output tiles), each part rounded to the nearest multiple of 128 (at least 128);
    not split when k <= 512 and tiles < 8. Measured for tiles 1, 2, 4, 8, 16 and k 256..8192 only."""
    tiles = -(-m // TILE) * -(-n // TILE)
    if k <= SHORT_K and tiles < 8:
        return max(k, 1)
    splits = max(1, WORK_UNITS // tiles)
    return TILE * max(1, (2 * k + TILE * splits) // (2 * TILE * splits))  # round half up


def line_exponent(values):
    """The scale exponent e of one line's block (None for an all-zero block)."""
    top = float(np.max(np.abs(values)))
    if top == 0:
        return None
    frac, e = math.frexp(top)
    return max(MIN_SCALE, e + 1 if Fraction(frac) * 2 > BUMP else e)


def balanced_digits(values, e, bits, n):
    """n balanced base-256 digits (top first) of trunc(x 2^(bits-e)) for each x: int64 (n, len)."""
    out = np.zeros((n, len(values)), dtype=np.int64)
    if e is None:
        return out
    for k, x in enumerate(values):
        scaled = Fraction(float(x)) * Fraction(2) ** (bits - e)  # exact
        X = math.floor(abs(scaled))
        X = X if scaled >= 0 else -X
        for i in range(n - 1, 0, -1):
            digit = (X + 128) % 256 - 128
            out[i, k], X = digit, (X - digit) // 256
        out[0, k] = X
    return out


def block_terms(a, b, bits, n):
    """One K-block: the FP64 terms S_d 256^(2n-2-d) 2^(-2B), d = 0..n-1 (list of m x n arrays, exact),
    and the block's scale exponents eA + eB (m x n)."""
    m, cols = a.shape[0], b.shape[1]
    ea = [line_exponent(a[i]) for i in range(m)]
    eb = [line_exponent(b[:, j]) for j in range(cols)]
    da = np.stack([balanced_digits(a[i], ea[i], bits, n) for i in range(m)], axis=1)  # n, m, kb
    db = np.stack([balanced_digits(b[:, j], eb[j], bits, n) for j in range(cols)], axis=2)  # n, kb, cols
    shift = np.add.outer([e or 0 for e in ea], [e or 0 for e in eb])
    terms = []
    for d in range(n):
        s = sum(da[p] @ db[d - p] for p in range(d + 1))  # exact: |s| < 2^14 kb n
        terms.append(np.ldexp(s.astype(np.float64), 8 * (2 * n - 2 - d) - 2 * bits))  # exact
    return terms, shift


def emulated_gemm(a, b, bits, kb=None):
    """C as cuBLAS's fixed-point emulation computes it at `bits` (23..79) with K-blocks of kb
    (kblock_size of a's and b's shape when None)."""
    kb = kb or kblock_size(a.shape[0], b.shape[1], a.shape[1])
    n = -(-(bits + 1) // 8)  # cuBLAS quantizes the bit count up to 8n - 1
    bits = 8 * n - 1
    c = np.zeros((a.shape[0], b.shape[1]))
    for k0 in range(0, a.shape[1], kb):
        terms, shift = block_terms(a[:, k0:k0 + kb], b[k0:k0 + kb], bits, n)
        v = np.zeros_like(c)
        for t in terms:
            v = v + t
        c = c + np.ldexp(v, shift)  # one rounding, below the normal range too
    return c


def trace(a, b, bits, kb):
    """Which stage loses what, as max-norm correct bits against the exact product of A and B (exact
    rationals; the norm is max |C - AB| / max |AB|): `slices` the exact sum of the kept slice
    products (the INT8 GEMMs, no FP64 addition yet), `blocks_fp64_only` each block's value exact and
    rounded once, the blocks then summed in FP64, `diagonals_fp64_only` each block's diagonals summed
    in FP64 and the blocks exactly, `result` cuBLAS's output (both in FP64)."""
    n = -(-(bits + 1) // 8)
    m, cols = a.shape[0], b.shape[1]
    exact = [[sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a[i], b[:, j])) for j in range(cols)] for i in range(m)]
    kept, v_fp_exact_sum = np.full((m, cols), Fraction(0), dtype=object), np.full((m, cols), Fraction(0), dtype=object)
    blocks_fp = np.zeros((m, cols))
    for k0 in range(0, a.shape[1], kb):
        terms, shift = block_terms(a[:, k0:k0 + kb], b[k0:k0 + kb], 8 * n - 1, n)
        scale = np.vectorize(lambda e: Fraction(2) ** int(e))(shift)
        v = np.zeros((m, cols))
        for t in terms:
            v = v + t
        v = np.ldexp(v, shift)
        v_exact = sum(np.vectorize(Fraction)(t) for t in terms) * scale
        kept += v_exact
        v_fp_exact_sum += np.vectorize(Fraction)(v)
        blocks_fp = blocks_fp + np.vectorize(float)(v_exact)
    result = emulated_gemm(a, b, bits, kb)
    top = max(abs(x) for row in exact for x in row)

    def bits_of(values):
        err = max(abs(Fraction(values[i][j]) - exact[i][j]) for i in range(m) for j in range(cols))
        return round(-math.log2(err / top), 2) if err else math.inf

    return {"slices": bits_of(kept), "blocks_fp64_only": bits_of(blocks_fp), "diagonals_fp64_only": bits_of(v_fp_exact_sum),
            "result": bits_of(result), "fp64_additions_per_element": -(-a.shape[1] // kb) * (n + 1)}


def replay(directory, case, bits, kb, rows=None):
    a = np.load(os.path.join(directory, case + "_A.npy"))
    b = np.load(os.path.join(directory, case + "_B.npy"))
    for name in (f"{case}_fixed{bits}_C.npy", f"{case}_cublasemu{bits}_C.npy"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            break
    else:
        raise FileNotFoundError(f"no record of {case} at {bits} bits in {directory}")
    c = np.load(path)
    kb = kb or kblock_size(a.shape[0], b.shape[1], a.shape[1])  # the whole shape's, before the cut
    if rows:
        a, c = a[:rows], c[:rows]
    model = np.full(c.shape, np.nan)  # canary
    model[:] = emulated_gemm(a, b, bits, kb)
    same = int(np.sum(model.view(np.uint64) == np.ascontiguousarray(c).view(np.uint64)))
    print(f"{case} {bits} bits, K-block {kb}: {same} of {c.size} elements bit-identical")
    return same == c.size


def main(argv):
    if len(argv) not in (6, 7) or argv[1] not in ("replay", "trace"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        bits, kb = int(argv[4]), None if argv[5] == "auto" else int(argv[5])
        rows = int(argv[6]) if len(argv) == 7 else None
    except ValueError:
        print("cublas_fixedpoint_model: BITS and ROWS must be integers, KB an integer or auto", file=sys.stderr)
        return 2
    if not 23 <= bits <= 79 or (kb is not None and kb < 1):
        print(f"cublas_fixedpoint_model: BITS must be 23..79 and KB positive (got {bits}, {kb})", file=sys.stderr)
        return 2
    try:
        return run(argv[1], argv[2], argv[3], bits, kb, rows)
    except (OSError, ValueError) as e:
        print(f"cublas_fixedpoint_model: {e}", file=sys.stderr)
        return 2


def run(command, directory, case, bits, kb, rows):
    if command == "trace":
        a = np.load(os.path.join(directory, case + "_A.npy"))
        b = np.load(os.path.join(directory, case + "_B.npy"))
        kb = kb or kblock_size(a.shape[0], b.shape[1], a.shape[1])
        print(case, bits, "bits, K-block", kb, ":", trace(a[:rows], b, bits, kb))
        return 0
    return 0 if replay(directory, case, bits, kb, rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
