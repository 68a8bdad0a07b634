"""ozref.run and ozref.verify_trace against `ozref run` and `ozref verify-trace` on the same
inputs: the same C bytes, the same reports (timings aside), the same refusals."""

import json

import numpy as np
import pytest

import ozref
from conftest import cli_json, untimed


def saved(tmp_path, rng, m, n, k, dtype=np.float64):
    A = rng.standard_normal((m, k)).astype(dtype)
    B = rng.standard_normal((k, n)).astype(dtype)
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "b.npy", B)
    return A, B, str(tmp_path / "a.npy"), str(tmp_path / "b.npy")


def names_of(result, a_path, b_path):
    """The command's report names the files; the module's the arguments."""
    report = dict(result.report)
    assert report["source"] == "argument A, argument B"
    report["source"] = f"{a_path}, {b_path}"
    return report


@pytest.mark.parametrize("scheme", ozref.schemes())
def test_run_is_what_the_command_computes(tmp_path, rng, ozref_cli, scheme):
    A, B, a, b = saved(tmp_path, rng, 14, 11, 50)
    code, out, err = ozref_cli("run", "--scheme", scheme, "--a", a, "--b", b, "--out", tmp_path / "c.npy", "--json")
    if code == 2:  # a scheme that refuses these inputs: the module must refuse them in the same words
        with pytest.raises(ozref.InputError) as e:
            ozref.run(scheme, A, B)
        assert err.endswith(str(e.value).replace("argument A", a).replace("argument B", b) + "\n")
        return
    r = ozref.run(scheme, A, B)
    assert r.exit_code == code
    assert r.c.tobytes() == np.load(tmp_path / "c.npy").tobytes()
    assert untimed(names_of(r, a, b)) == untimed(cli_json(out))
    assert [s.name for s in r.stages] == [s["name"] for s in cli_json(out)["stages"]]


def test_run_with_options_complex_inputs_and_a_refusal(tmp_path, rng, ozref_cli):
    A, B, a, b = saved(tmp_path, rng, 9, 7, 33)
    r = ozref.run("ozaki2-int8", A, B, moduli=8, mode="fast")
    assert (r.report["options"]["moduli"], r.report["options"]["mode"]) == (8, "fast")
    assert r.passed and r.stage("crt").verified
    Ac = A + 1j * rng.standard_normal(A.shape)
    Bc = B - 1j * rng.standard_normal(B.shape)
    np.save(tmp_path / "ac.npy", Ac)
    np.save(tmp_path / "bc.npy", Bc)
    code, out, err = ozref_cli("run", "--complex", "--a", tmp_path / "ac.npy", "--b", tmp_path / "bc.npy", "--out",
                               tmp_path / "cc.npy", "--json")
    assert code == 0, err
    rc = ozref.run("ozaki2-int8", Ac, Bc)
    assert rc.c.dtype == np.complex128
    assert rc.c.tobytes() == np.load(tmp_path / "cc.npy").tobytes()
    code, out, err = ozref_cli("run", "--complex", "--complex-product", "gaussian", "--a", tmp_path / "ac.npy", "--b",
                               tmp_path / "bc.npy", "--out", tmp_path / "cg.npy", "--json")
    assert code == 0, err
    rg = ozref.run("ozaki2-int8", Ac, Bc, complex_product="gaussian")
    assert rg.report["options"]["complex-product"] == "gaussian" and rg.report["low_precision_gemms"] == 2 * 16 + 1
    assert rg.c.tobytes() == np.load(tmp_path / "cg.npy").tobytes()
    with pytest.raises(ozref.InputError, match="gaussian is a complex ozaki2-int8 product"):
        ozref.run("ozaki2-int8", A, B, complex_product="gaussian")
    with pytest.raises(ozref.InputError, match="moduli"):
        ozref.run("ozaki2-int8", A, B, moduli=99)
    with pytest.raises(ozref.InputError, match="nosuch"):
        ozref.run("nosuch", A, B)
    with pytest.raises(ozref.InputError, match=r"^moduli: -3 is not a positive integer$"):
        ozref.run("ozaki2-int8", A, B, moduli=-3)
    with pytest.raises(ozref.InputError, match=r"^threads: 5000 is not in \[0, 1024\]"):
        ozref.run("ozaki2-int8", A, B, threads=5000)


def test_verify_trace_is_what_the_command_reports(tmp_path, rng, ozref_cli):
    A, B, a, b = saved(tmp_path, rng, 10, 12, 64)
    r = ozref.run("ozaki2-int8", A, B, dump=tmp_path / "trace")
    assert r.passed
    manifest = json.loads((tmp_path / "trace" / "manifest.json").read_text())
    assert manifest["scheme"] == "ozaki2-int8" and len(manifest["stages"]) > 3
    code, out, err = ozref_cli("verify-trace", tmp_path / "trace", "--json")
    assert code == 0, err
    v = ozref.verify_trace(tmp_path / "trace")
    assert untimed(v.report) == untimed(cli_json(out))
    assert v.passed and v.report["identical"]
    assert any(s.compared for s in v.stages)
    # A trace whose GEMM output was changed: both sides find the same first difference.
    gemm = next(s for s in manifest["stages"] if s["name"] == "gemm")
    path = tmp_path / "trace" / gemm["arrays"][0]["file"]
    x = np.load(path)
    x.flat[3] += 1
    np.save(path, x)
    for s in manifest["stages"]:
        for arr in s["arrays"]:
            arr.pop("fnv1a64", None)  # the manifest's hash would refuse the edited file
    (tmp_path / "trace" / "manifest.json").write_text(json.dumps(manifest))
    code, out, _ = ozref_cli("verify-trace", tmp_path / "trace", "--json")
    bad = ozref.verify_trace(tmp_path / "trace")
    assert code == 1 and bad.exit_code == 1
    assert untimed(bad.report) == untimed(cli_json(out))
    assert not bad.stage("gemm").identical


def test_verify_trace_of_no_trace_raises_the_commands_message(tmp_path, ozref_cli):
    code, _, err = ozref_cli("verify-trace", tmp_path / "none")
    assert code == 2
    with pytest.raises(ozref.InputError) as e:
        ozref.verify_trace(tmp_path / "none")
    assert err == f"ozref verify-trace: error: {e.value}\n"


def test_lockstep_says_why_it_cannot_run(rng, ozref_cli):
    code, out, _ = ozref_cli("lockstep", "--m", "8", "--n", "8", "--k", "16")
    A, B = rng.standard_normal((8, 16)), rng.standard_normal((16, 8))
    if code != 77:
        assert ozref.lockstep("ozaki2-int8", A, B).passed
        return
    with pytest.raises(ozref.GpuUnavailable) as e:
        ozref.lockstep("ozaki2-int8", A, B)
    assert str(e.value) and str(e.value) in out
    with pytest.raises(ozref.InputError, match=r"unknown --lockstep 'sideways'"):
        ozref.lockstep("ozaki2-int8", A, B, lockstep="sideways")
