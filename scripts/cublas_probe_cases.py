#!/usr/bin/env python3
"""Inputs for device/probes/cublas_emu_replay.cu (decoding cuBLAS 13.1's FP64 emulation, docs/third-party.md).

Usage: cublas_probe_cases.py DIR [seed]. Writes DIR/cases.txt and DIR/<case>_A.bin, _B.bin (raw f8,
column-major). Each case isolates one question:
  sym       k = 1, A = B^T = 64 random values: is C(a, b) = C(b, a)?
  twoterm   k = 1, b = 1 + 2^-t (t = 1..52): a + a 2^-t, how two shifted copies of a are added.
  onedigit  k = 1, b = d/64 (d = 64..127, one top digit only): a times one digit.
  kacc      A = 1 (8 x 1024), B random: C = the column sums, the K accumulation alone.
  near2     k = 1, B = 1, a around 2 - 2^-6: where the scale steps up a binade.
"""
import random
import struct
import sys


def sig(r, e=0):  # a random 53-bit significand times 2^e, random sign
    return (-1) ** r.getrandbits(1) * ((1 << 52) | r.getrandbits(52)) * 2.0 ** (e - 52)


def write(d, name, m, n, k, a_cm, b_cm, cases):
    for tag, v in (("A", a_cm), ("B", b_cm)):
        with open(f"{d}/{name}_{tag}.bin", "wb") as f:
            f.write(struct.pack(f"<{len(v)}d", *v))
    cases.append(f"{name} {m} {n} {k}")


def main():
    d = sys.argv[1]
    r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 13)
    cases = []
    v = [sig(r) for _ in range(64)]
    write(d, "sym", 64, 64, 1, v, v, cases)
    a = [sig(r) for _ in range(256)]
    write(d, "twoterm", 256, 52, 1, a, [1 + 2.0 ** -t for t in range(1, 53)], cases)
    write(d, "onedigit", 256, 64, 1, a, [dd / 64 for dd in range(64, 128)], cases)
    kb = [sig(r, -r.randrange(4)) for _ in range(1024 * 16)]
    write(d, "kacc", 8, 16, 1024, [1.0] * (8 * 1024), kb, cases)
    near = [(2 - 2.0 ** -6) + (i - 128) * 2.0 ** -20 + r.getrandbits(30) * 2.0 ** -52 for i in range(256)]
    write(d, "near2", 256, 1, 1, near, [1.0], cases)
    with open(f"{d}/cases.txt", "w") as f:
        f.write("\n".join(cases) + "\n")


if __name__ == "__main__":
    main()
