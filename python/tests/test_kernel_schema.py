"""ozref.schema, --moduli-list, ozref.TraceWriter / write_trace and ozref.verify_stages: what a kernel
author uses to verify their own kernel (docs/verify-trace.md). The schema is held to what
`ozref run --dump` actually writes; the constants to number theory done here with Python's
integers; the writer and the in-memory verification to verify-trace on the same arrays."""

import json
import math
import os
import re

import numpy as np
import pytest

import ozref
from conftest import untimed

# A kernel's own moduli (not GEMMul8's list): 256 and primes.
OWN = [256, 251, 241, 239, 233, 229, 227, 223]

CASES = [("ozaki2-int8", {}), ("ozaki2-int8", {"mode": "fast", "moduli_list": OWN}), ("ozaki2-int8", {"crt": "dd", "moduli": 5}),
         ("ozaki2-fp8", {"moduli": 4}), ("ozaki2-fp4", {"arch": "sm_120"}), ("rare", {}), ("ozaki1-int8", {"slices": 3}),
         ("int8-on-fp4", {"arch": "sm_120"})]


def operands(rng, m, n, k, integers=False):
    if integers:
        return rng.integers(-128, 128, (m, k)).astype(np.float64), rng.integers(-128, 128, (k, n)).astype(np.float64)
    return rng.standard_normal((m, k)), rng.standard_normal((k, n))


@pytest.mark.parametrize("scheme,options", CASES)
def test_schema_is_what_a_dump_holds(tmp_path, rng, scheme, options):
    m, n, k = 5, 3, 40
    A, B = operands(rng, m, n, k, integers=scheme == "int8-on-fp4")
    ozref.run(scheme, A, B, dump=tmp_path, **options)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    dumped = [(s["name"], [(a["name"], a["dtype"], a["shape"]) for a in s["arrays"]]) for s in manifest["stages"]]
    schema = ozref.schema(scheme, m, n, k, **options)
    listed = [("input", [(a["name"], a["dtype"], a["shape"]) for a in schema["inputs"]])]
    listed += [(s["name"], [(a["name"], a["dtype"], a["shape"]) for a in s["arrays"]]) for s in schema["stages"]]
    assert listed == dumped
    assert schema["options"] == manifest["options"] and schema["resolved"] == manifest["resolved"]
    print(f"{scheme} {options}: {len(listed)} stages as dumped")


def test_schema_constants_are_the_crt(rng):
    schema = ozref.schema("ozaki2-int8", 4, 4, 64, moduli_list=OWN)
    c = schema["constants"]
    moduli = [e["modulus"] for e in c["moduli"]]
    assert moduli == OWN
    P = math.prod(OWN)
    assert int(c["P"]) == P and abs(c["log2_P"] - math.log2(P)) < 1e-9
    for i, (p, w) in enumerate(zip(OWN, map(int, c["crt_weights"]))):
        assert 0 < w < P and w % p == 1 and all(w % q == 0 for j, q in enumerate(OWN) if j != i)
        assert c["moduli"][i]["residues"] == [-(p // 2), (p + 1) // 2 - 1]
    assert c["max_k"] == (2**31 - 1) // 128**2  # K 128^2 < 2^31: no INT32 product sum of residues overflows
    kinds = {s["name"]: s["kind"] for s in schema["stages"]}
    assert kinds["scale"] == "choice" and kinds["gemm"] == "function"
    assert next(s for s in schema["stages"] if s["name"] == "gemm")["reads"] == ["residues.a", "residues.b"]
    print(f"schema constants: {len(OWN)} weights checked against P = {P}")


def test_schema_command_is_the_module(ozref_cli):
    code, out, _ = ozref_cli("schema", "--scheme", "ozaki2-int8", "--moduli-list", ",".join(map(str, OWN)), "--m", 6, "--n", 2, "--k", 9,
                             "--json")
    assert code == 0 and json.loads(out) == ozref.schema("ozaki2-int8", 6, 2, 9, moduli_list=OWN)
    code, out, _ = ozref_cli("schema", "--scheme", "ozaki2-int8", "--moduli", 3, "--m", 6, "--n", 2, "--k", 9)
    assert code == 0
    assert "256  [-128, 127]  w = " in out and "gemm: a function of its inputs" in out and "c          i4 [3, 6, 2] (G x m x n)" in out


@pytest.mark.parametrize("moduli_list,scheme,why", [
    ([256, 254, 253], "ozaki2-int8", "not pairwise coprime: 256 and 254 share the factor 2"),
    ([256, 257], "ozaki2-int8", "modulus 257 (position 1) is outside 3..256"),
    ([251], "ozaki2-int8", "must hold 2..32 moduli, got 1"),
    ([251, 241], "ozaki2-fp8", "takes no --moduli-list"),
    ([251, 241], "gemmul8@2.0.14", "takes no --moduli-list"),
])
def test_moduli_list_refused_with_the_reason(ozref_cli, moduli_list, scheme, why):
    with pytest.raises(ozref.InputError, match=re.escape(why)):
        ozref.schema(scheme, 2, 2, 2, moduli_list=moduli_list)
    code, _, err = ozref_cli("schema", "--scheme", scheme, "--moduli-list", ",".join(map(str, moduli_list)), "--m", 2, "--n", 2, "--k", 2)
    assert code == 2 and why in err


def test_moduli_list_runs_exactly(rng):
    A, B = operands(rng, 7, 5, 100)
    r = ozref.run("ozaki2-int8", A, B, moduli_list=OWN[:5] + [211])
    assert r.exit_code == 0 and r.exact and r.report["options"]["moduli-list"] == OWN[:5] + [211]
    assert all(s.verified for s in r.stages if s.checked)


def kernel_example():
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "ozaki2_int8_numpy.py")
    spec = importlib.util.spec_from_file_location("ozaki2_int8_numpy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_in_memory_is_verify_trace(tmp_path, rng, ozref_cli):
    kernel = kernel_example()
    A, B = operands(rng, 6, 5, 48)
    _, stages = kernel.kernel(A, B)
    options = {"mode": "fast", "moduli_list": list(kernel.MODULI)}
    memory = ozref.verify_stages("ozaki2-int8", A, B, stages, **options)
    ozref.write_trace(tmp_path / "t", "ozaki2-int8", A, B, stages, **options)
    files = ozref.verify_trace(tmp_path / "t")
    assert memory.exit_code == files.exit_code == 0
    assert all(s.present and s.identical is not False for s in memory.stages)
    strip = lambda r: {k: v for k, v in untimed(r.report).items() if k != "trace"}
    assert strip(memory) == strip(files)
    code, _, _ = ozref_cli("verify-trace", tmp_path / "t")
    assert code == 0
    print(f"in memory and from a trace: {len(memory.stages)} stages, identical reports")


def test_writer_checks_each_array_when_added(tmp_path):
    w = ozref.TraceWriter(tmp_path / "t", "ozaki2-int8", 4, 3, 8, moduli=3)
    with pytest.raises(ozref.InputError, match=r"gemm\.c is i8 \[3,4,3\]; the scheme.s is i4 \[3,4,3\] \(G x m x n\)"):
        w.add("gemm", "c", np.zeros((3, 4, 3), dtype=np.int64))
    with pytest.raises(ozref.InputError, match=r"stage \"gemms\" is not a stage of ozaki2-int8"):
        w.add("gemms", "c", np.zeros((3, 4, 3), dtype=np.int32))
    with pytest.raises(ozref.InputError, match=r"stage \"gemm\" of ozaki2-int8 has no array \"d\" \(its arrays: c\)"):
        w.add("gemm", "d", np.zeros((3, 4, 3), dtype=np.int32))
    w.add("scale", "row_shift", np.zeros(4, dtype=np.int32))
    with pytest.raises(ozref.InputError, match=r"stage \"scale\" is given without its array \"col_shift\" \(i4 \[3\], n\)"):
        w.finish()
    assert not (tmp_path / "t" / "manifest.json").exists()
    w.add("scale", "col_shift", np.zeros(3, dtype=np.int32))
    w.finish()
    manifest = json.loads((tmp_path / "t" / "manifest.json").read_text())
    assert [s["name"] for s in manifest["stages"]] == ["scale"] and len(manifest["stages"][0]["arrays"][0]["fnv1a64"]) == 16


def test_verify_trace_takes_paths_not_arrays(tmp_path):
    with pytest.raises(ozref.InputError, match=r"(?s)a: expected a path \(str, bytes or os.PathLike\), got ndarray .*\(arrays in memory: ozref.verify_stages\)"):
        ozref.verify_trace(tmp_path, a=np.zeros((2, 2)))


def test_verify_trace_help_names_every_level(ozref_cli):
    code, out, _ = ozref_cli("verify-trace", "--help")
    assert code == 0 and "none, cheap or full" in out


def test_manifest_scheme_refusal_names_the_file_and_fields(tmp_path, ozref_cli):
    manifest = {"scheme": "ozaki2-int8", "options": {"moduli": 99}, "m": 2, "n": 2, "k": 200000, "stages": []}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = ozref_cli("verify-trace", tmp_path)
    assert code == 2
    assert f"{tmp_path}/manifest.json: the fields \"scheme\", \"options\", \"m\", \"n\", \"k\": ozaki2-int8: --moduli must be 2..20, got 99" in err


def test_diff_says_a_scale_stage_is_a_free_choice(tmp_path, rng, ozref_cli):
    kernel = kernel_example()
    A, B = operands(rng, 4, 3, 32)
    options = {"mode": "fast", "moduli_list": list(kernel.MODULI)}
    ozref.run("ozaki2-int8", A, B, dump=tmp_path / "ours", **options)
    ozref.write_trace(tmp_path / "theirs", "ozaki2-int8", A, B, kernel.kernel(A, B)[1], **options)
    code, out, _ = ozref_cli("diff", tmp_path / "ours", tmp_path / "theirs")
    assert code == 1 and "first divergence at stage 'scale'" in out
    assert "note: 'scale' is a free choice of each kernel" in out and "ozref verify-trace judges each stage" in out


def test_readme_names_the_interpreter_with_numpy():
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")).read()
    assert 'PYTHONPATH=build/python /usr/bin/python3 -c "import ozref"' in readme


def test_in_memory_reproducer_on_request(tmp_path, rng, ozref_cli):
    kernel = kernel_example()
    A, B = operands(rng, 4, 3, 40)
    _, stages = kernel.kernel(A, B)
    stages["gemm"]["c"][2, 1, 2] += 1  # one INT32 output off by one
    options = {"mode": "fast", "moduli_list": list(kernel.MODULI)}
    quiet = ozref.verify_stages("ozaki2-int8", A, B, stages, **options)
    assert quiet.stage("gemm").reproducer in (None, "") and not os.listdir(tmp_path)
    r = ozref.verify_stages("ozaki2-int8", A, B, stages, reproducers=tmp_path / "rep", **options)
    gemm = r.stage("gemm")
    assert r.exit_code == 1 and gemm.identical is False and gemm.differing_elements == 1
    # named as its violation is: the array's axes, the modulus by its value
    assert gemm.first_difference.startswith(f"gemm.c[modulus {kernel.MODULI[2]}, i 1, j 2]: found "), gemm.first_difference
    assert gemm.first_violation.startswith(f"gemm.c[modulus {kernel.MODULI[2]}, i 1, j 2]: found "), gemm.first_violation
    code, out, _ = ozref_cli("mma-check", "--gemm", gemm.reproducer, "--arch", "ideal")
    assert code == 1 and "the subject differs from the model" in out  # the element replayed: the kernel's output is not the model's


def test_k_past_the_bound_is_the_kernels_defect_at_gemm(tmp_path, ozref_cli):
    """K = 131072 = max_k + 1 with A' = B' = 128: modulus 256's balanced residues are -128, so each
    INT32 sum is 131072 * 128^2 = 2^31, one past INT32. The trace and verify_stages accept the K
    (ozref run refuses it) and report every such sum at gemm, expected beside found."""
    k = 131072
    A, B = np.ones((1, k)), np.ones((k, 2))
    stages = {"scale": {"row_shift": np.full(1, 7, np.int32), "col_shift": np.full(2, 7, np.int32)}}  # 1 * 2^7 = 128
    r = ozref.verify_stages("ozaki2-int8", A, B, stages, mode="fast")
    gemm = r.stage("gemm")
    assert r.exit_code == 1 and gemm.verified is False and gemm.violations == 2  # modulus 256, both columns
    assert re.match(r"gemm\.c\[modulus 256, i 0, j 0\]: found -2147483648, expected 2147483648, the exact sum of its 131072 products: "
                    r"past the INT32 range, so the accumulator wrapped", gemm.first_violation), gemm.first_violation
    assert all(s.verified is not False for s in r.stages if s.name != "gemm")  # the other moduli: |r| <= 127 stays within INT32
    ozref.write_trace(tmp_path / "t", "ozaki2-int8", A, B, stages, mode="fast")
    code, out, _ = ozref_cli("verify-trace", tmp_path / "t")
    assert code == 1 and "accumulator wrapped" in out
    code, _, err = ozref_cli("run", "--scheme", "ozaki2-int8", "--m", "1", "--n", "1", "--k", str(k))
    assert code == 2 and "exceeds the bound 131071" in err
    schema = ozref.schema("ozaki2-int8", 1, 2, k, mode="fast")
    assert schema["constants"]["max_k"] == 131071
    print("K past the bound: 1 trace, 2 wrapped sums found at gemm")


def test_kblock_kernel_past_the_bound_verifies(tmp_path, ozref_cli):
    """The same K = 131072 with the kernel saying it splits K into two blocks of 65536 (option
    kblock): each INT32 sum is 2^30, so nothing wraps, ozref follows the blocks (gemm.c gains the
    axis B) and the kernel verifies; `ozref run --kblock` runs the K that one GEMM cannot."""
    k, kblock = 131072, 65536
    A, B = np.ones((1, k)), np.ones((k, 2))
    stages = {"scale": {"row_shift": np.full(1, 7, np.int32), "col_shift": np.full(2, 7, np.int32)}}
    r = ozref.verify_stages("ozaki2-int8", A, B, stages, mode="fast", kblock=kblock)
    assert r.exit_code == 0 and all(s.verified is not False for s in r.stages), [(s.name, s.first_violation) for s in r.stages]
    schema = ozref.schema("ozaki2-int8", 1, 2, k, mode="fast", kblock=kblock)
    gemm = next(a for s in schema["stages"] if s["name"] == "gemm" for a in s["arrays"])
    assert gemm["shape"] == [16, 2, 1, 2] and gemm["symbolic"] == "G x B x m x n", gemm
    assert schema["constants"]["kblocks"] == 2
    code, out, _ = ozref_cli("run", "--scheme", "ozaki2-int8", "--m", "2", "--n", "3", "--k", str(k), "--kblock", str(kblock))
    assert code == 0 and "exact (all stages verified, bound held): yes" in out, out
    code, _, err = ozref_cli("run", "--scheme", "ozaki2-int8", "--m", "1", "--n", "1", "--k", str(k), "--kblock", str(k))
    assert code == 2 and "--kblock 131072 exceeds the bound 131071" in err, err
    code, _, err = ozref_cli("run", "--scheme", "ozaki2-fp8", "--m", "1", "--n", "1", "--k", "8", "--kblock", "4")
    assert code == 2 and "takes no --kblock" in err, err
    print("K-blocks: K = 131072 in 2 blocks verified, ozref run past the one-GEMM bound exact")
