"""An Ozaki-II INT8 emulated DGEMM in NumPy, written from the papers and `ozref schema` alone: its
own moduli set, its own scaling, every intermediate returned as ozref's stages name them. It is
the kernel of the examples (examples/README.md): verify_stages and write_trace check it stage by
stage, and `bugs` plants the defects that tests/test_planted_bugs.py expects ozref to find.

C' = A' B' is recovered from its residues modulo pairwise-coprime moduli p_t (P their product) by
the CRT; A' = trunc(A 2^s), B' = trunc(2^t B) with the shifts chosen so that
sum_k |A'_ik| |B'_kj| < P/2, which makes C' exact; C = C' 2^-(s_i + t_j).
"""

import math

import numpy as np

# Not GEMMul8's list: primes below 256 and 256 itself, largest first after 256.
MODULI = (256, 251, 241, 239, 233, 229, 227, 223, 211, 199, 197, 193, 191, 181)


def balanced(x, p):
    """The balanced residue of integer array x modulo p, in [-floor(p/2), ceil(p/2) - 1]."""
    h = p // 2
    return (np.mod(x + h, p) - h).astype(np.int64)


def crt_weights(moduli):
    """w_t = (P/p_t) ((P/p_t)^-1 mod p_t): w_t = 1 mod p_t, 0 mod the others."""
    P = math.prod(moduli)
    return P, [(P // p) * pow(P // p, -1, p) for p in moduli]


def shifts(x, axis, bits):
    """Per line (row of A: axis 1; column of B: axis 0), the shift that puts the line's largest
    magnitude just below 2^bits (0 for an all-zero line)."""
    top = np.max(np.abs(x), axis=axis)
    e = np.frexp(top)[1]  # top < 2^e
    return np.where(top > 0, bits - e, 0).astype(np.int32)


def words(values, count):
    """Python integers as `count` 64-bit words each, two's complement, least significant first."""
    out = np.zeros(values.shape + (count,), dtype=np.uint64)
    for index, v in np.ndenumerate(values):
        u = int(v) % (1 << (64 * count))
        for w in range(count):
            out[index + (w,)] = (u >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out.view(np.int64)


def kernel(A, B, moduli=MODULI, bugs=(), kblock=None):
    """C = A @ B and the stages that make it: {stage: {array: ndarray}} with ozref's names, dtypes
    and shapes (ozref schema --scheme ozaki2-int8 --mode fast --moduli-list ...). `bugs`: defects
    to plant, by name (see below). `kblock`: split K into blocks of this depth, one INT32 GEMM
    each, as kernels past K = 131071 do (declared to ozref as the option kblock)."""
    m, k = A.shape
    n = B.shape[1]
    P, weights = crt_weights(moduli)
    if "crt-weight" in bugs:
        weights[1] += P // moduli[1]  # a weight no longer 1 modulo its own modulus
    # Each operand's lines below 2^bits with K 2^(2 bits) < P/2: the CRT bound holds by construction.
    bits = (P.bit_length() - 2 - math.ceil(math.log2(k))) // 2
    if "scaling-past-bound" in bugs:
        bits += 4
    s, t = shifts(A, 1, bits), shifts(B, 0, bits)
    a1 = np.trunc(np.ldexp(A, s[:, None]))
    b1 = np.trunc(np.ldexp(B, t[None, :]))
    if "lost-sign" in bugs:
        a1[0, 1] = abs(a1[0, 1]) if a1[0, 1] < 0 else -a1[0, 1]
    ia, ib = a1.astype(np.int64), b1.astype(np.int64)
    ra = np.stack([balanced(ia, p) for p in moduli]).astype(np.int8)
    rb = np.stack([balanced(ib.T, p) for p in moduli]).astype(np.int8)  # by columns: n x k
    if "residue-range" in bugs:  # the last modulus's first residue that r + p still fits INT8
        p = moduli[-1]
        where = np.argwhere(ra[-1].astype(np.int64) + p <= 127)[0]
        ra[(len(moduli) - 1, *where)] += p  # congruent, but outside the balanced range
    blocks = [slice(k0, k0 + kblock) for k0 in range(0, k, kblock)] if kblock and kblock < k else [slice(0, k)]
    c = np.stack([np.einsum("tik,tjk->tij", ra[:, :, kb].astype(np.int64), rb[:, :, kb].astype(np.int64)) for kb in blocks], axis=1)
    gemm = c.astype(np.int32)  # INT32 accumulators: a sum past 2^31 wraps, as on the hardware
    summed = gemm[:, :-1] if "last-kblock-dropped" in bugs else gemm
    reduced = np.stack([balanced(summed[i].astype(np.int64).sum(axis=0), p) for i, p in enumerate(moduli)]).astype(np.int16)
    if len(blocks) == 1:
        gemm = gemm[:, 0]  # one GEMM per modulus: the schema's N x m x n
    cp = np.empty((m, n), dtype=object)
    for i in range(m):
        for j in range(n):
            x = sum(int(reduced[t, i, j]) * w for t, w in enumerate(weights)) % P
            cp[i, j] = x - P if x > P // 2 else x
    e = -(s[:, None].astype(np.int64) + t[None, :])
    if "row-exponent" in bugs:
        e[min(3, m - 1), :] += 1  # one row unscaled by twice too much
    C = np.array([[math.ldexp(float(cp[i, j]), int(e[i, j])) for j in range(n)] for i in range(m)])
    W = max(2, (P.bit_length() + 1 + 63) // 64)  # the schema's W: P/2 and a sign, at least two words
    return C, stages_of(s, t, a1, b1, ra, rb, gemm, reduced, words(cp, W), C)


def stages_of(s, t, a1, b1, ra, rb, gemm, reduced, crt_words, C):
    """The intermediates under ozref's stage and array names (ozref schema)."""
    return {
        "scale": {"row_shift": s, "col_shift": t},
        "truncate": {"a": a1, "b": b1},
        "residues": {"a": ra, "b": rb},
        "gemm": {"c": gemm},
        "reduce": {"c": reduced},
        "crt": {"c": crt_words},
        "unscale": {"c": C},
    }
