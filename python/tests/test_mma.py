"""ozref.mma against `ozref mma-check` (records whose D the module computed must all be
reproduced; one changed D must not) and against integer arithmetic."""

import json

import numpy as np
import pytest

import ozref


def test_mma_is_what_mma_check_reproduces(tmp_path, rng, ozref_cli):
    records = []
    for ins in ozref.instructions("sm_90"):
        a = rng.integers(0, 256, (16, ins["operand_bytes"]), dtype=np.uint8) & 0x77  # finite, mostly
        b = rng.integers(0, 256, (16, ins["operand_bytes"]), dtype=np.uint8) & 0x77
        c = rng.integers(0, 2**30, 16, dtype=np.uint32)
        d = ozref.mma(ins["op"], a, b, c)
        assert d.dtype == np.uint32 and d.shape == (16,)
        assert int(d[5]) == ozref.mma(ins["op"], a[5].tobytes(), b[5], int(c[5]))  # one element alone
        for i in range(16):
            records.append({"op": ins["op"], "a": a[i].tobytes().hex(), "b": b[i].tobytes().hex(),
                            "c": f"{int(c[i]):08x}", "d": f"{int(d[i]):08x}"})
    changed = dict(records[-1], d=f"{int(records[-1]['d'], 16) ^ 1:08x}")
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records + [changed]))
    code, out, err = ozref_cli("mma-check", "--arch", "sm_90", "--trace", tmp_path / "t.jsonl")
    assert code == 1, err
    n = len(records)
    assert f"total: {n + 1} records, {n} matched, 1 mismatched" in out
    assert n >= 100


def test_mma_s8_is_the_integer_dot_product(rng):
    op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
    a = rng.integers(-128, 128, (50, 32), dtype=np.int8)
    b = rng.integers(-128, 128, (50, 32), dtype=np.int8)
    c = rng.integers(-2**31, 2**31, 50, dtype=np.int64)
    d = ozref.mma(op, a.view(np.uint8), b.view(np.uint8), c & 0xFFFFFFFF)
    expected = (np.sum(a.astype(np.int64) * b.astype(np.int64), axis=1) + c) & 0xFFFFFFFF  # wraps without .satfinite
    assert np.array_equal(d.astype(np.int64), expected)


def test_mma_e4m3_one_times_one():
    op = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"
    a = bytes([0x38] + [0] * 31)  # E4M3 1.0, then zeros
    assert ozref.mma(op, a, a, 0x3F800000) == 0x40000000  # 1 * 1 + 1.0f = 2.0f
    info = ozref.instruction(op)
    assert (info["k"], info["operand_bytes"], info["kind"]) == (32, 32, "float")


def test_mma_refusals_name_the_problem():
    op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
    with pytest.raises(ozref.InputError, match=r"a must hold 1 x 32 bytes, got 31"):
        ozref.mma(op, bytes(31), bytes(32), 0)
    with pytest.raises(ozref.InputError, match=r"does not model the instruction 'mma.nope'"):
        ozref.mma("mma.nope", bytes(32), bytes(32), 0)
    with pytest.raises(ozref.InputError, match=r"unknown architecture 'sm_1'"):
        ozref.mma(op, bytes(32), bytes(32), 0, arch="sm_1")
    with pytest.raises(ozref.InputError, match=r"argument c: expected 32-bit patterns"):
        ozref.mma(op, bytes(32), bytes(32), 2**32)
    rows = np.zeros((3, 32), dtype=np.uint8)
    with pytest.raises(ozref.InputError, match=r"c holds 2 accumulators, but a and b hold the operands of 3 elements"):
        ozref.mma(op, rows, rows, np.zeros(2, dtype=np.uint32))  # c's row count wrong: c is named, not a
    with pytest.raises(ozref.InputError, match=r"c holds 1 accumulators, but a and b hold the operands of 3 elements"):
        ozref.mma(op, rows, rows, 0)
    assert "sm_90" in ozref.architectures()
