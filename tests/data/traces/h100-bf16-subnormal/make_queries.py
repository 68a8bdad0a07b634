# Queries for the bf16 subnormal sweep (README.md): one line-protocol query per line (docs/infer.md).
# Usage: python3 make_queries.py OUT SEED COUNT
import random, sys
rng = random.Random(int(sys.argv[2]))
op = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
def bf16(e, neg):  # unbiased exponent e (normal: -126..127)
    return (0x8000 if neg else 0) | ((e + 127) << 7) | rng.getrandbits(7)
with open(sys.argv[1], "w") as f:
    for _ in range(int(sys.argv[3])):
        a, b = [], []
        terms = rng.choice([1, 2, 3, 4, 8, 16])
        slots = rng.sample(range(16), terms)
        for kk in range(16):
            if kk in slots:
                target = rng.randint(-175, -115)
                ea = rng.randint(max(-126, target - 127), min(127, target + 126))
                eb = target - ea
                if not -126 <= eb <= 127:
                    ea, eb = -60, target + 60
                a.append(bf16(ea, rng.random() < 0.5)); b.append(bf16(eb, rng.random() < 0.5))
            else:
                a.append(0); b.append(0)
        r = rng.random()
        c = 0 if r < 0.4 else (rng.getrandbits(23) | (0x80000000 if rng.random() < 0.5 else 0)) if r < 0.8 else ((rng.randint(1, 8) << 23) | rng.getrandbits(23))
        f.write(f"{op} {''.join('%04x' % x for x in a)} {''.join('%04x' % x for x in b)} {c:08x}\n")
