"""The example kernel of ozaki2_int8_numpy.py in PyTorch: the same method (its own moduli, its own
scaling, exact integer GEMMs, the CRT), on torch tensors from end to end, as a kernel author
porting to PyTorch would write it. Its stages go to ozref as torch tensors (through DLPack; CPU
tensors here, CUDA tensors the same way). The CRT's big integers are Python's, as in NumPy's."""

import math

import numpy as np
import torch

from ozaki2_int8_numpy import MODULI, crt_weights, stages_of, words


def balanced(x, p):
    """The balanced residue of integer tensor x modulo p, in [-floor(p/2), ceil(p/2) - 1]."""
    h = p // 2
    return torch.remainder(x + h, p) - h


def shifts(x, dim, bits):
    """Per line (row of A: dim 1; column of B: dim 0), the shift that puts its largest magnitude
    just below 2^bits (0 for an all-zero line)."""
    top = x.abs().amax(dim=dim)
    e = torch.frexp(top).exponent  # top < 2^e
    return torch.where(top > 0, bits - e, torch.zeros_like(e)).to(torch.int32)


def kernel(A, B, moduli=MODULI, bugs=()):
    """C = A @ B (float64 tensors) and its stages as {stage: {array: tensor}} under ozref's names.
    `bugs`: "lost-sign" flips the sign of A'[0, 1]."""
    m, k = A.shape
    n = B.shape[1]
    P, weights = crt_weights(moduli)
    bits = (P.bit_length() - 2 - math.ceil(math.log2(k))) // 2
    s, t = shifts(A, 1, bits), shifts(B, 0, bits)
    a1 = torch.trunc(torch.ldexp(A, s[:, None].to(torch.float64)))
    b1 = torch.trunc(torch.ldexp(B, t[None, :].to(torch.float64)))
    if "lost-sign" in bugs:
        a1[0, 1] = -a1[0, 1]
    ia, ib = a1.to(torch.int64), b1.to(torch.int64)
    ra = torch.stack([balanced(ia, p) for p in moduli]).to(torch.int8)
    rb = torch.stack([balanced(ib.T, p) for p in moduli]).to(torch.int8)  # by columns: n x k
    gemm = torch.einsum("tik,tjk->tij", ra.to(torch.int64), rb.to(torch.int64)).to(torch.int32)  # wraps past 2^31, as INT32 does
    reduced = torch.stack([balanced(gemm[i].to(torch.int64), p) for i, p in enumerate(moduli)]).to(torch.int16)
    r = reduced.tolist()
    cp = [[sum(r[q][i][j] * w for q, w in enumerate(weights)) % P for j in range(n)] for i in range(m)]
    cp = [[x - P if x > P // 2 else x for x in row] for row in cp]
    e = -(s[:, None].to(torch.int64) + t[None, :])
    C = torch.tensor([[math.ldexp(float(cp[i][j]), int(e[i, j])) for j in range(n)] for i in range(m)], dtype=torch.float64)
    W = max(2, (P.bit_length() + 1 + 63) // 64)  # the schema's W: P/2 and a sign, at least two words
    crt_words = torch.from_numpy(words(np.array(cp, dtype=object), W))
    return C, stages_of(s, t, a1, b1, ra, rb, gemm, reduced, crt_words, C)
