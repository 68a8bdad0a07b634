"""The scheme options as Python keywords: the same declarations as the command's flags (one list in
the library, include/ozref/scheme_options.hpp), checked by name before the library sees them."""

import re

import numpy as np
import pytest

import ozref


def test_every_declared_option_is_a_keyword_and_a_flag(ozref_cli):
    declared = ozref.scheme_options()
    assert {d["field"] for d in declared} >= {"moduli", "mode", "kblock", "moduli_list", "mantissa_bits"}
    for verb in ("run", "schema", "lockstep", "fuzz"):
        code, out, _ = ozref_cli(verb, "--help")
        assert code == 0
        flags = set(re.findall(r"^\s+(--[a-z-]+)", out, re.M))
        missing = [d["name"] for d in declared if "--" + d["name"] not in flags]
        assert not missing, f"ozref {verb} --help lacks {missing}"
    for d in declared:
        assert d["type"] in ("text", "count", "count-list") and d["schemes"] and d["help"]
        assert set(d["schemes"]) <= set(ozref.schemes())


def test_a_keyword_reaches_the_scheme_as_the_flag_does(ozref_cli, tmp_path):
    rng = np.random.default_rng(7)
    A, B = rng.standard_normal((5, 40)), rng.standard_normal((40, 3))
    np.save(tmp_path / "a.npy", A), np.save(tmp_path / "b.npy", B)
    r = ozref.run("ozaki2-int8", A, B, moduli=9, mode="fast", kblock=16, verify="none", threads=1, arch=None, crt=None)
    code, out, err = ozref_cli("run", "--moduli", 9, "--mode", "fast", "--kblock", 16, "--a", tmp_path / "a.npy", "--b",
                               tmp_path / "b.npy", "--out", tmp_path / "c.npy", "--verify", "none", "--threads", 1)
    assert code == 0, err
    assert r.report["options"] == {"arch": "ideal", "moduli": 9, "mode": "fast", "kblock": 16, "crt": "exact"}
    assert r.c.tobytes() == np.load(tmp_path / "c.npy").tobytes()


@pytest.mark.parametrize("keywords,message", [
    ({"moduli": 1}, r"^moduli: 1 is not an integer in \[2, 64\]$"),
    ({"moduli": True}, r"^moduli: True is not a positive integer$"),
    ({"kblock": 2**31}, r"^kblock: 2147483648 is not an integer in \[1, 2147483647\]$"),
    ({"moduli_list": "256,255"}, r"^moduli_list: '256,255' is not a list of integers$"),
    ({"moduli_list": [256, 0]}, r"^moduli_list: 0 is not a positive integer$"),
    ({"moduli_list": [256, None]}, r"^moduli_list: None is not an integer$"),
    ({"arch": 5}, r"^arch: expected a string, got int 5$"),
    ({"mode": 3}, r"^mode: expected a string, got int 3$"),
    ({"modes": "fast"}, r"^unknown option 'modes' \(options: arch, op, moduli, "),
    ({"slices": 3}, r"ozaki2-int8 takes no --slices"),
])
def test_a_wrong_keyword_is_refused_by_name(keywords, message):
    with pytest.raises(ozref.InputError, match=message):
        ozref.run("ozaki2-int8", np.ones((2, 4)), np.ones((4, 2)), **keywords)
