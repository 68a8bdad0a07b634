"""One case of the GPU suite (device/run_gpu_tests.sh): the verdict on an `ozref lockstep --json`
report, its exit code and the lockstep arguments it ran with.

What must have run on the GPU is derived here from the CPU's stage list (the report's stages) and
the request (--scheme, --arch, --op, --gemm, --mode, --crt), never from the twins' own list (the
report's gpu_stages): a stage that moved to the CPU fails the case even when the twins' list moved
with it. The device's record of what it ran (device_ran: kernel launches per stage and the GEMM
kernel with its instruction, or cuBLASLt's algorithm) is held to that expectation.

Usage: python3 lockstep_case.py REPORT RC EXPECT CHECK [LOCKSTEP ARGUMENTS...]
  EXPECT: the allowed exit codes, "0" or "0,1"
  CHECK: identical | identical-inexact-gemms | fault:STAGE | fault-first:STAGE | presence-fails:STAGE
Prints one line, PASS or FAIL and why.
"""
import json
import re
import sys

# The GEMM kernels ozref's device library has, by the instruction's family, and the compute
# capabilities each runs on (device/gemm/gpu_gemm.cpp's table, restated as the hardware's facts:
# wgmma is sm_90a's, tcgen05 sm_100a's, mma.sync's kind::f8f6f4 sm_120a's).
def kernel_of(op):
    if op.startswith("wgmma."):
        return "wgmma_gemm", {90}
    if op.startswith("tcgen05."):
        return "tcgen05_gemm", {100}
    if "kind::f8f6f4" in op:
        return "mma_sync_gemm", {120}
    return "mma_sync_gemm", {90, 100, 120}


def option(args, name, default=None):
    for i, a in enumerate(args[:-1]):
        if a == name:
            return args[i + 1]
    return default


def device_sm(report):
    m = re.search(r"\(sm_(\d+),", report.get("device", ""))
    return int(m.group(1)) if m else None


def requested_op(report, args):
    """(the low-precision instruction asked for, whether the request names it exactly): the
    scheme's resolution of --op or --arch, else --op; ozaki1's report names none: the family of its
    first choice by --arch (several signednesses with --slicing cublas)."""
    op = report.get("resolved", {}).get("instruction") or option(args, "--op")
    if op:
        return op, True
    arch = option(args, "--arch", "ideal")
    fp4 = option(args, "--scheme", "ozaki2-int8").endswith("fp4")
    if arch == "sm_100":
        return "tcgen05.mma.cta_group::1.kind::" + ("f8f6f4.e2m1.e2m1" if fp4 else "i8.s8.s8"), False
    return "mma.sync.aligned.m16n8k32.row.col." + ("kind::f8f6f4.f32.e2m1.e2m1.f32" if fp4 else "s32.s8.s8.s32"), False


def expected_gemm(report, args):
    """(what the gemm stage's device record must name, or begin with where inexact; whether exact;
    whether it runs on this GPU)."""
    if option(args, "--gemm", "mma") == "cublaslt":
        return "cuBLASLt", False, True
    op, exact = requested_op(report, args)
    kernel, runs_on = kernel_of(op)
    return (f"{kernel} {op}" if exact else f"{kernel} "), exact, device_sm(report) in runs_on


def cpu_only_stages(report, args):
    """The stages of the CPU's list that stay on the CPU for this request."""
    scheme = report["scheme"]
    _, _, gemms_here = expected_gemm(report, args)
    stay = set()
    if scheme == "rare":
        stay |= {"scale", "round"}  # rare's own scaling and rounding have no twins
        if option(args, "--crt", "exact") == "dd":
            stay.add("unscale")  # its double-double unscale adds the correction: CPU
        if not gemms_here:
            stay |= {"gemm", "correction"}
    elif scheme.startswith("ozaki2-"):
        if option(args, "--mode", "accurate") == "gemmul8-fast":
            stay.add("scale")
        if not gemms_here:
            stay.add("gemm")
        if not gemms_here or scheme == "ozaki2-fp4":
            stay.add("bound")  # fp4's bound raises its operands to E2M1's grid on the CPU
    elif not gemms_here:  # ozaki1-*, int8-on-fp4
        stay.add("gemm")
    return stay


def expected_gpu_stages(report, args):
    stay = cpu_only_stages(report, args)
    return [s["name"] for s in report["stages"] if s["name"] not in stay]


def presence_problems(report, args):
    """Why the device did not run what the request asks of it (empty: it did)."""
    expected = expected_gpu_stages(report, args)
    ran = report.get("device_ran", {})
    present = {s["name"] for s in report["stages"] if s.get("present")}
    problems = []
    for name in expected:
        launches = sum(ran.get(name, {}).get("launches", {}).values())
        if name not in present or launches == 0:
            problems.append(f"{name} not on the GPU ({launches} launches)")
    for name in sorted(present - set(expected)):
        problems.append(f"{name} on the GPU, expected on the CPU")
    if option(args, "--gemm") == "wgmma-fused" and "reduce" in expected:
        fused = [k for k in ran.get("reduce", {}).get("gemms", {}) if k.startswith("wgmma_gemm_reduced ")]
        if not fused:
            problems.append("reduce ran no wgmma_gemm_reduced (--gemm wgmma-fused)")
    gemm, exact, here = expected_gemm(report, args)
    if "gemm" in expected and here:
        kernels = list(ran.get("gemm", {}).get("gemms", {}))
        wrong = [k for k in kernels if (k != gemm if exact else not k.startswith(gemm))]
        if not kernels or wrong:
            problems.append(f"gemm ran {kernels or 'no GEMM'}, expected {gemm}")
    return problems


def verdict(report, rc, expect, check, args):
    if str(rc) not in expect.split(","):
        return f"FAIL exit {rc}, expected {expect}"
    stages = report["stages"]
    differing = [s["name"] for s in stages if not s["identical"]]
    unverified = [s["name"] for s in stages if s["checked"] and not s["verified"]]
    unwritten = [s["first_unwritten"] for s in stages if s.get("unwritten_elements")]
    problems = presence_problems(report, args)
    if check.startswith("presence-fails:"):
        stage = check.split(":")[1]
        ok = not differing and any(p.startswith(stage + " ") for p in problems)
        return ("PASS" if ok else "FAIL") + f" presence check with {stage}'s twin disabled: {problems or 'passed'}"
    if unwritten:
        return f"FAIL never written: {unwritten[0]}"
    if problems:
        return f"FAIL presence: {'; '.join(problems)}"
    ran = f"gpu stages {len(expected_gpu_stages(report, args))}/{len(stages)}"
    if check in ("identical", "identical-inexact-gemms"):
        # identical-inexact-gemms: the GEMMs' contract (exact sums) may fail, as on wgmma past K = 64;
        # both sides must still agree bit for bit at every stage.
        allowed = {"gemm", "bound"} if check != "identical" else set()
        ok = not differing and set(unverified) <= allowed
        return ("PASS" if ok else "FAIL") + f" {ran}, differing {differing}, unverified {unverified}"
    kind, stage = check.split(":")
    # fault: resynchronised, only the planted stage differs; fault-first: free-running, the GPU's
    # own chain carries the fault on, so the planted stage is the first to differ.
    ok = differing == [stage] if kind == "fault" else differing[:1] == [stage]
    return ("PASS" if ok else "FAIL") + f" fault planted in {stage}: differing {differing}, violations at {unverified}"


def main(argv):
    path, rc, expect, check, args = argv[1], int(argv[2]), argv[3], argv[4], argv[5:]
    try:
        with open(path) as f:
            report = json.load(f)
    except Exception as e:  # an empty or partial report: the lockstep failed before writing it
        print(f"FAIL exit {rc}, no report ({e})")
        return
    print(verdict(report, rc, expect, check, args))


if __name__ == "__main__":
    main(sys.argv)
