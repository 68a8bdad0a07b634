"""AMD CDNA3's FP16/BF16 MFMA accumulation as MMA-Sim publishes it (microsoft/MMA-Sim,
mmasim/simulator/amd.py and functions.py, amd_fused_dot_add), written here independently of ozref's
C++ model, in exact rational arithmetic, to serve as a black box and as the oracle of the cdna3 spec.

The rule: K in consecutive groups of min(8, K), each group's FP32 result the next group's C. In a
group, the nonzero products a*b (exact; a subnormal operand keeps its format's least exponent) are
aligned on the largest product exponent ea + eb and each is truncated toward zero to 24 fraction
bits below it; their sum and C are then aligned on the larger of the two exponents, the sum floored
to 31 fraction bits and C to 24; the two are added and rounded to FP32, nearest-even. Special values
are settled group by group, with the running sum as C: NaN operands, 0 * inf and inf - inf give NaN
(written 7fc00000), other infinities their sign, and a finite product of 2^128 or more (BF16) counts
as an infinity of its sign.

  python3 amd_cdna3_model.py                serve the line protocol (docs/infer.md) on stdin/stdout
  python3 amd_cdna3_model.py check OZREF N  N random queries against `OZREF serve --arch cdna3`
"""

import random
import re
import subprocess
import sys
from fractions import Fraction
from math import floor

NAN = 0x7FC00000
FORMATS = {"f16": (5, 10), "bf16": (8, 7)}  # exponent bits, fraction bits


def decode(bits, exponent_bits, fraction_bits):
    """(value, kind) of an IEEE binary format: kind "finite", "inf" or "nan"."""
    bias = (1 << (exponent_bits - 1)) - 1
    sign = -1 if bits >> (exponent_bits + fraction_bits) & 1 else 1
    e = bits >> fraction_bits & ((1 << exponent_bits) - 1)
    f = bits & ((1 << fraction_bits) - 1)
    if e == (1 << exponent_bits) - 1:
        return (sign, "inf") if f == 0 else (0, "nan")
    if e == 0:
        return sign * Fraction(f, 1 << fraction_bits) * Fraction(2) ** (1 - bias), "finite"
    return sign * (1 + Fraction(f, 1 << fraction_bits)) * Fraction(2) ** (e - bias), "finite"


def exponent_of(value, least):
    """floor(log2 |value|), no lower than the format's least normal exponent."""
    x = abs(value)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    return max(e, least)


def to_fp32(value):
    """value rounded to FP32, nearest-even, as bits (overflow: infinity; zero: +0)."""
    if value == 0:
        return 0
    sign = 0x80000000 if value < 0 else 0
    x = abs(value)
    e = exponent_of(x, -126)
    units = x / Fraction(2) ** (e - 23)  # the significand in units of the last kept bit
    q = floor(units)
    rest = units - q
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and q % 2):
        q += 1
    if q == 1 << 24:
        q, e = 1 << 23, e + 1
    if e > 127:
        return sign | 0x7F800000
    if q < 1 << 23:  # subnormal (e == -126)
        return sign | q
    return sign | (e + 127) << 23 | (q - (1 << 23))


def group_result(products, c):
    """One group: `products` as (significand, exponent) pairs, c an exact value; the FP32 bits."""
    terms = [(s, e) for s, e in products if s != 0]
    top = None
    total = Fraction(0)
    if terms:
        m1 = max(e for _, e in terms)
        s = sum(Fraction(int(sig * Fraction(2) ** (24 + e - m1)), 1 << 24) for sig, e in terms)  # int(): toward zero
    ec = exponent_of(c, -126) if c != 0 else None
    candidates = ([m1] if terms else []) + ([ec] if ec is not None else [])
    if not candidates:
        return 0
    top = max(candidates)
    if terms:
        total += Fraction(floor(s * Fraction(2) ** (31 + m1 - top)), 1 << 31)
    if ec is not None:
        total += Fraction(floor(c / Fraction(2) ** ec * Fraction(2) ** (24 + ec - top)), 1 << 24)
    return to_fp32(total * Fraction(2) ** top)


def special(pairs, c, c_kind):
    """The group's special result (NaN, or an infinity) as bits, or None: NaN operands, 0 * inf and
    inf - inf give NaN; a finite product of 2^128 or more counts as an infinity of its sign."""
    nan, plus, minus = c_kind == "nan", c_kind == "inf" and c > 0, c_kind == "inf" and c < 0
    for (x, kx), (y, ky) in pairs:
        if "nan" in (kx, ky) or ("inf" in (kx, ky) and (x == 0 and kx == "finite" or y == 0 and ky == "finite")):
            nan = True
        elif "inf" in (kx, ky):
            plus, minus = plus or x * y > 0, minus or x * y < 0
    if nan or (plus and minus):
        return NAN
    if plus or minus:
        return 0x7F800000 if plus else 0xFF800000
    huge = [x * y for (x, _), (y, _) in pairs if abs(x * y) >= Fraction(2) ** 128]
    if huge:
        return NAN if max(huge) > 0 > min(huge) else (0x7F800000 if huge[0] > 0 else 0xFF800000)
    return None


def group_of(a, b, acc, least):
    """One group of the chain: its special result, or its fused sum with the running sum as C."""
    c, c_kind = decode(acc, 8, 23)
    settled = special(list(zip(a, b)), c, c_kind)
    if settled is not None:
        return settled
    products = [(x / Fraction(2) ** exponent_of(x, least) * y / Fraction(2) ** exponent_of(y, least),
                 exponent_of(x, least) + exponent_of(y, least)) if x != 0 and y != 0 else (0, 0)
                for (x, _), (y, _) in zip(a, b)]
    return group_result(products, c)


def execute(op, a_hex, b_hex, c_bits):
    k = int(re.search(r"x(\d+)(?:_\d+b)?_b?f16$", op).group(1))
    exponent_bits, fraction_bits = FORMATS[op.rsplit("_", 1)[1]]
    least = 2 - (1 << (exponent_bits - 1))
    a = [decode(int(a_hex[4 * i:4 * i + 4], 16), exponent_bits, fraction_bits) for i in range(k)]
    b = [decode(int(b_hex[4 * i:4 * i + 4], 16), exponent_bits, fraction_bits) for i in range(k)]
    acc = c_bits
    group = min(8, k)
    for g in range(0, k, group):
        acc = group_of(a[g:g + group], b[g:g + group], acc, least)
    return acc


def serve():
    for line in sys.stdin:
        op, a_hex, b_hex, c_hex = line.split()[:4]
        print("%08x" % execute(op, a_hex, b_hex, int(c_hex, 16)), flush=True)


def element(rng, exponent_bits, fraction_bits):
    """Mostly values of nearby exponents, some subnormals, zeros and specials."""
    width = 1 + exponent_bits + fraction_bits
    draw = rng.random()
    if draw < 0.02:
        return rng.randrange(1 << width)  # any pattern, specials included
    if draw < 0.1:
        return rng.randrange(1 << fraction_bits) | rng.randrange(2) << (width - 1)  # subnormal or zero
    bias = (1 << (exponent_bits - 1)) - 1
    e = max(1, min((1 << exponent_bits) - 2, bias + rng.randint(-6, 6)))
    return rng.randrange(2) << (width - 1) | e << fraction_bits | rng.randrange(1 << fraction_bits)


def check(ozref, count):
    rng = random.Random(20261205)
    print(f"seed 20261205")
    ops = [f"v_mfma_f32_{shape}_{f}" for f in ("f16", "bf16") for shape in ("32x32x8", "16x16x16", "32x32x4_2b", "16x16x4_4b", "4x4x4_16b")]
    # Hand-derived cases (tests/mma/t-float-mma.cpp derives them): a tiny negative C floored to
    # -2^-24 (1 - 2^-24, where NVIDIA's truncation gives 1), a tiny positive one dropped, and the
    # products' sum floored onto an FP32 tie (truncation toward zero would round up instead).
    # BF16 products of 2^128 count as infinities (+inf; +inf and -inf: NaN), and a group that
    # overflowed to +inf meets a -inf operand in the next group: NaN.
    zero7, zero6 = "0000" * 7, "0000" * 6
    queries = [("v_mfma_f32_32x32x8_f16", "3c00" + zero7, "3c00" + zero7, 0xB0800000),
               ("v_mfma_f32_32x32x8_f16", "3c00" + zero7, "3c00" + zero7, 0x30800000),
               ("v_mfma_f32_32x32x8_f16", "8c000010" + zero6, "0c000010" + zero6, 0x3F800003),
               ("v_mfma_f32_32x32x8_bf16", "7f007f00" + zero6, "4000bf80" + zero6, 0),
               ("v_mfma_f32_32x32x8_bf16", "7f007f00" + zero6, "4000c000" + zero6, 0),
               ("v_mfma_f32_16x16x16_bf16", "7f00" * 8 + "ff80" + zero7, "3f80" * 9 + zero7, 0)]
    derived = [0x3F7FFFFF, 0x3F800000, 0x3F800002, 0x7F800000, NAN, NAN]
    for _ in range(count):
        op = rng.choice(ops)
        k = int(re.search(r"x(\d+)(?:_\d+b)?_b?f16$", op).group(1))
        e, f = FORMATS[op.rsplit("_", 1)[1]]
        a = "".join("%04x" % element(rng, e, f) for _ in range(k))
        b = "".join("%04x" % element(rng, e, f) for _ in range(k))
        c = element(rng, 8, 23) if rng.random() < 0.8 else 0
        queries.append((op, a, b, c))
    text = "".join(f"{op} {a} {b} {c:08x}\n" for op, a, b, c in queries)
    answers = subprocess.run([ozref, "serve", "--arch", "cdna3"], input=text, capture_output=True, text=True, check=True).stdout.split()
    wrong_derived = [i for i, want in enumerate(derived) if execute(*queries[i]) != want]
    if wrong_derived:
        print(f"the model misses hand-derived cases {wrong_derived}")
        return 1
    differing = [(q, d) for q, d in zip(queries, answers) if int(d, 16) != execute(q[0], q[1], q[2], q[3])]
    for q, d in differing[:5]:
        print(f"DIFFERS: {q[0]} {q[1]} {q[2]} {q[3]:08x}: ozref {d}, model {execute(q[0], q[1], q[2], q[3]):08x}")
    print(f"amd_cdna3_model: {len(queries)} cases (seed 20261205; {len(derived)} hand-derived), {len(answers)} answers, "
          f"{len(differing)} differing")
    return 0 if len(answers) == len(queries) and not differing else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], int(sys.argv[3])))
    serve()
