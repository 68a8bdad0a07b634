"""device/lockstep_case.py on hand-made lockstep reports (no GPU needed): the expectation of what
runs on the GPU comes from the CPU's stage list and the request, so a stage that left the GPU, a
GEMM on another kernel, an unwritten element or a misplaced fault fails the case. Oracle: the
stage lists `ozref run --json` gives for each request, and what the request asks, written here by hand.
Usage: python3 lockstep_case_test.py PATH/TO/device/lockstep_case.py"""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location("lockstep_case", sys.argv[1])
lc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lc)

INT8 = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
WG8 = "wgmma.mma_async.sync.aligned.m64nNk32.s32.s8.s8"
FP4 = "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32"
OZAKI2 = ["bound", "scale", "truncate", "residues", "gemm", "reduce", "crt", "unscale"]
RARE = ["scale", "round", "residues", "gemm", "reduce", "correction", "crt", "unscale"]
FP4_STAGES = ["bound", "scale", "truncate", "residues", "split", "gemm", "recombine", "crt", "unscale"]
OZAKI1 = ["scale", "slices", "gemm", "accumulate", "unscale"]


def report(scheme, stages, on_gpu, gemms=None, instruction=None, sm=90, differing=(), unwritten=None):
    """A report as `ozref lockstep --json` writes it: the stages in on_gpu present and launched."""
    ran = {s: {"launches": {f"{s}.cu:10": 2}, "gemms": {}} for s in on_gpu}
    if "gemm" in ran and gemms:
        ran["gemm"]["gemms"] = {g: 4 for g in gemms}
    rows = []
    for s in stages:
        row = {"name": s, "present": s in on_gpu, "identical": s not in differing, "checked": True, "verified": True,
               "unwritten_elements": 0, "first_unwritten": ""}
        if unwritten and s == unwritten[0]:
            row.update(identical=False, unwritten_elements=1, first_unwritten=unwritten[1])
        rows.append(row)
    resolved = {"instruction": instruction} if instruction else {"slices": 4}
    return {"scheme": scheme, "device": f"NVIDIA H200 (sm_{sm}, 132 SMs)", "resolved": resolved,
            "gpu_stages": list(on_gpu), "device_ran": ran, "stages": rows}


def without(stages, *names):
    return [s for s in stages if s not in names]


cases = [
    # (name, report, exit code, [allowed exit codes@]check (allowed: the exit code), arguments, verdict must begin with)
    ("ozaki2-int8 all on the GPU", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8), 0, "identical", [], "PASS"),
    ("a stage moved to the CPU with its twin list", report("ozaki2-int8", OZAKI2, without(OZAKI2, "residues"), [f"mma_sync_gemm {INT8}"], INT8),
     0, "identical", [], "FAIL presence: residues not on the GPU"),
    ("the disabled twin detected", report("ozaki2-int8", OZAKI2, without(OZAKI2, "residues"), [f"mma_sync_gemm {INT8}"], INT8),
     0, "presence-fails:residues", [], "PASS"),
    ("a disabled twin that still ran", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8),
     0, "presence-fails:residues", [], "FAIL"),
    ("wgmma asked, mma.sync ran", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], WG8), 0, "identical", ["--op", WG8], "FAIL presence: gemm ran"),
    ("wgmma asked, wgmma ran", report("ozaki2-int8", OZAKI2, OZAKI2, [f"wgmma_gemm {WG8}"], WG8), 0, "identical", ["--op", WG8], "PASS"),
    ("a GEMM stage that launched nothing", report("ozaki2-int8", OZAKI2, OZAKI2, [], INT8), 0, "identical", [], "FAIL presence: gemm ran no GEMM"),
    ("cuBLASLt asked and ran", report("ozaki2-int8", OZAKI2, OZAKI2, ["cuBLASLt algo 21, tile 18, stages 9"], INT8), 0, "identical",
     ["--gemm", "cublaslt"], "PASS"),
    ("cuBLASLt asked, ozref's kernel ran", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8), 0, "identical",
     ["--gemm", "cublaslt"], "FAIL"),
    ("rare --crt dd: unscale on the CPU", report("rare", RARE, without(RARE, "scale", "round", "unscale"), [f"mma_sync_gemm {INT8}"], INT8), 0,
     "identical", ["--scheme", "rare", "--crt", "dd"], "PASS"),
    ("rare --crt dd: unscale on the GPU is unexpected", report("rare", RARE, without(RARE, "scale", "round"), [f"mma_sync_gemm {INT8}"], INT8), 0,
     "identical", ["--scheme", "rare", "--crt", "dd"], "FAIL presence: unscale on the GPU"),
    ("rare: unscale must be on the GPU", report("rare", RARE, without(RARE, "scale", "round", "unscale"), [f"mma_sync_gemm {INT8}"], INT8), 0,
     "identical", ["--scheme", "rare"], "FAIL presence: unscale not on the GPU"),
    ("ozaki2-fp4 on an H200: bound and gemm on the CPU", report("ozaki2-fp4", FP4_STAGES, without(FP4_STAGES, "bound", "gemm"), None, FP4), 0,
     "identical", ["--scheme", "ozaki2-fp4", "--arch", "sm_120"], "PASS"),
    ("ozaki2-fp4 on an sm_120: gemm must be on the GPU", report("ozaki2-fp4", FP4_STAGES, without(FP4_STAGES, "bound", "gemm"), None, FP4, sm=120), 0,
     "identical", ["--scheme", "ozaki2-fp4", "--arch", "sm_120"], "FAIL presence: gemm not on the GPU"),
    ("ozaki1-int8 --slicing cublas: several signednesses on mma.sync",
     report("ozaki1-int8", OZAKI1, OZAKI1, ["mma_sync_gemm mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32", f"mma_sync_gemm {INT8}"]), 0, "identical",
     ["--scheme", "ozaki1-int8", "--slicing", "cublas"], "PASS"),
    ("ozaki1-fp4 --arch sm_100 on an H200: gemm on the CPU", report("ozaki1-fp4", OZAKI1, without(OZAKI1, "gemm")), 0, "identical",
     ["--scheme", "ozaki1-fp4", "--arch", "sm_100"], "PASS"),
    ("ozaki2-int8 --mode fast: no bound stage", report("ozaki2-int8", without(OZAKI2, "bound"), without(OZAKI2, "bound"), [f"mma_sync_gemm {INT8}"], INT8),
     0, "identical", ["--mode", "fast"], "PASS"),
    ("an element never written", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8, unwritten=("reduce", "reduce.c[0, 1, 2]: never written")),
     1, "0,1@identical", [], "FAIL never written: reduce.c[0, 1, 2]"),
    ("free-running: the planted stage differs first", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8, differing=("residues", "gemm", "crt")),
     1, "fault-first:residues", [], "PASS"),
    ("resynchronised: later stages must not differ", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8, differing=("residues", "gemm")),
     1, "fault:residues", [], "FAIL"),
    ("wgmma-fused: reduce ran the fused kernel", dict(report("ozaki2-int8", OZAKI2, OZAKI2, [f"wgmma_gemm {WG8}"], WG8),
     device_ran={**{s: {"launches": {"x.cu:1": 1}, "gemms": {}} for s in OZAKI2}, "gemm": {"launches": {"wgmma_gemm.cu:290": 16}, "gemms": {f"wgmma_gemm {WG8}": 16}},
                 "reduce": {"launches": {"wgmma_gemm.cu:290": 1}, "gemms": {f"wgmma_gemm_reduced {WG8}": 1}}}), 0, "identical",
     ["--gemm", "wgmma-fused", "--op", WG8], "PASS"),
    ("wgmma-fused: reduce on the plain twin", report("ozaki2-int8", OZAKI2, OZAKI2, [f"wgmma_gemm {WG8}"], WG8), 0, "identical",
     ["--gemm", "wgmma-fused", "--op", WG8], "FAIL presence: reduce ran no wgmma_gemm_reduced"),
    ("an exit code not allowed", report("ozaki2-int8", OZAKI2, OZAKI2, [f"mma_sync_gemm {INT8}"], INT8), 1, "0@identical", [], "FAIL exit 1"),
]

failed = 0
for name, r, rc, check, args, want in cases:
    expect, check = check.split("@") if "@" in check else (str(rc), check)
    got = lc.verdict(r, rc, expect, check, args)
    if not got.startswith(want):
        failed += 1
        print(f"FAIL {name}: got '{got}', wanted '{want}...'")
seed = int(os.environ.get("OZREF_SEED", "0x5eed2026"), 0)
print(f"  lockstep-case verdicts: {len(cases)} cases (seed {seed}), {failed} failed")
sys.exit(1 if failed else 0)
