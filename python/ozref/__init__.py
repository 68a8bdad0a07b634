"""ozref: bit-exact references for GEMM emulation on tensor cores (docs/python.md).

The functions take NumPy arrays, and PyTorch, CuPy or JAX tensors through DLPack; they give the
results of the ozref command's verbs (exact, check, run, mma-check, verify-trace, lockstep) and
raise InputError (a ValueError) with the command's messages for bad input.
"""

import json as _json
import os as _os
from typing import Optional, Union

import numpy as _np

from . import _arguments as _args
from . import _ozref
from ._arrays import byte_rows as _byte_rows
from ._arrays import host_array as _host_array
from ._ozref import InputError
from ._results import RunResult, StageReport

__all__ = ["InputError", "GpuUnavailable", "RunResult", "StageReport", "exact", "check", "run", "mma", "instruction",
           "instructions", "architectures", "schemes", "schema", "TraceWriter", "write_trace", "verify_stages", "verify_trace",
           "lockstep", "fuzz", "testing"]


class GpuUnavailable(RuntimeError):
    """lockstep() found no GPU it can use, or ozref was built without CUDA (the reason is the message)."""


def _device(device):
    """"cpu" or "gpu", as `--device` takes it."""
    if not isinstance(device, str) or device not in ("cpu", "gpu"):
        raise InputError(f"device: expected cpu or gpu, got {_args._shown(device)}")
    return device


def exact(A, B, *, dtype="float64", threads: int = 0, device: str = "cpu") -> _np.ndarray:
    """The exact product A @ B rounded once to `dtype` (float64 or float32), as `ozref exact`;
    device="gpu" computes it on the GPU (bit for bit the same; InputError without a usable GPU)."""
    try:
        wanted = _np.dtype(dtype)
    except TypeError:
        raise InputError(f"dtype: expected float64 or float32, got {_args._shown(dtype)}") from None
    if wanted not in (_np.float64, _np.float32):
        raise InputError(f"dtype: expected float64 or float32, got {wanted}")
    fp64, fp32, _, _ = _ozref.exact(_host_array(A, "argument A"), _host_array(B, "argument B"), _args.threads(threads),
                                    _device(device))
    return fp64 if wanted == _np.float64 else fp32


def check(A, B, C, *, threads: int = 0, at_least: Optional[float] = None, metric: str = "maxnorm",
          device: str = "cpu") -> dict:
    """C against the exact product of A and B: the report `ozref check --json` prints (a float64 C
    against the product rounded to FP64, a float32 C against it rounded to FP32). With `at_least`,
    as `--at-least BITS --metric METRIC`: the report's "gate" holds the verdict (passed, bits,
    message). device="gpu" computes the exact product on the GPU, as `--device gpu` (the same report;
    InputError without a usable GPU)."""
    if at_least is not None and (isinstance(at_least, bool) or not isinstance(at_least, (int, float, _np.integer, _np.floating))):
        raise InputError(f"at_least: {_args._shown(at_least)} is not a number")
    if not isinstance(metric, str) or metric not in ("maxnorm", "elementwise"):
        raise InputError(f"metric: expected maxnorm or elementwise, got {_args._shown(metric)}")
    return _json.loads(_ozref.check(_host_array(A, "argument A"), _host_array(B, "argument B"),
                                    _host_array(C, "argument C"), _args.threads(threads),
                                    None if at_least is None else float(at_least), metric, _device(device)))


def _mantissa_bits(value):
    """cublas-fixedpoint@13.1's mantissa bits: None (not given), an integer, or the command's text;
    the library checks the value (23..127, "dynamic" or "dynamic:N")."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, _np.integer)):
        raise InputError(f"mantissa_bits: {_args._shown(value)} is not an integer")
    return str(int(value))


def _moduli_list(value):
    """A kernel's own moduli: None (not given) or a sequence of integers; the library checks them
    (2..32 pairwise-coprime moduli in 3..256)."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(f"moduli_list: {value!r} is not a list of integers")
    out = []
    for m in value:
        if isinstance(m, bool) or not isinstance(m, (int, _np.integer)) or m < 1:
            raise InputError(f"moduli_list: {m!r} is not a positive integer")
        out.append(int(m))
    return out


def _run_options(arch, op, mode, crt, slicing, accumulate, moduli, slices, mantissa_bits, kblock, complex_product, verify, threads,
                 dump, moduli_list=None):
    moduli, slices, kblock = _args.count(moduli, "moduli"), _args.count(slices, "slices"), _args.count(kblock, "kblock")
    t = _args.text
    return _ozref.RunOptions(t(arch, "arch", False), t(op, "op"), t(mode, "mode"), t(crt, "crt"), t(slicing, "slicing"),
                             t(accumulate, "accumulate"), moduli, slices, _mantissa_bits(mantissa_bits), kblock,
                             t(complex_product, "complex_product"), t(verify, "verify"), _args.threads(threads),
                             _args.path(dump, "dump"), _moduli_list(moduli_list))


def run(scheme: str, A, B, *, arch: str = "ideal", op: Optional[str] = None, mode: Optional[str] = None,
        crt: Optional[str] = None, slicing: Optional[str] = None, accumulate: Optional[str] = None,
        moduli: Optional[int] = None, slices: Optional[int] = None, mantissa_bits: Optional[Union[int, str]] = None,
        kblock: Optional[int] = None, complex_product: Optional[str] = None, verify: Optional[str] = None, threads: int = 0,
        dump=None, moduli_list=None) -> RunResult:
    """A scheme on the CPU emulator, every stage verified, as `ozref run --a A.npy --b B.npy`.
    complex128 A and B make a complex run (complex_product: "3m" or, ozaki2-int8, "gaussian").
    `dump`: a folder for the trace of every stage. `moduli_list` (ozaki2-int8): the kernel's own
    pairwise-coprime moduli in place of `moduli`."""
    options = _run_options(arch, op, mode, crt, slicing, accumulate, moduli, slices, mantissa_bits, kblock, complex_product, verify,
                           threads, dump, moduli_list)
    report, c, code = _ozref.run(_args.text(scheme, "scheme", False), _host_array(A, "argument A"), _host_array(B, "argument B"),
                                 options)
    return RunResult(_json.loads(report), c, code)


def schema(scheme: str, m: int, n: int, k: int, *, complex: bool = False, arch: str = "ideal", op: Optional[str] = None,
           mode: Optional[str] = None, crt: Optional[str] = None, slicing: Optional[str] = None, accumulate: Optional[str] = None,
           moduli: Optional[int] = None, slices: Optional[int] = None, mantissa_bits: Optional[Union[int, str]] = None,
           kblock: Optional[int] = None, complex_product: Optional[str] = None, moduli_list=None) -> dict:
    """What a trace of `scheme` holds for an m x k by k x n product, as `ozref schema --json`: every
    stage in order with its arrays (name, dtype, shape, symbolic, meaning, allowed), what it reads,
    its kind ("function", "choice", "rounding"), and the scheme's constants (moduli, P, CRT weights
    as decimal strings, max_k)."""
    options = _run_options(arch, op, mode, crt, slicing, accumulate, moduli, slices, mantissa_bits, kblock, complex_product, None,
                           0, None, moduli_list)
    return _json.loads(_ozref.schema(scheme, _args.count(m, "m"), _args.count(n, "n"), _args.count(k, "k"), options, bool(complex)))


_SCHEME_OPTIONS = ("arch", "op", "mode", "crt", "slicing", "accumulate", "moduli", "slices", "mantissa_bits", "kblock",
                   "complex_product", "moduli_list")


def _scheme_options(options, verify=None, threads=0):
    """A scheme's options given as keywords (those of run()), as the extension takes them."""
    unknown = sorted(set(options) - set(_SCHEME_OPTIONS))
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r} (options: {', '.join(_SCHEME_OPTIONS)})")
    o = {name: options.get(name) for name in _SCHEME_OPTIONS}
    return _run_options(o["arch"] or "ideal", o["op"], o["mode"], o["crt"], o["slicing"], o["accumulate"], o["moduli"], o["slices"],
                        o["mantissa_bits"], o["kblock"], o["complex_product"], verify, threads, None, o["moduli_list"])


def _stage_arrays(stages):
    """{stage: {array: data}} as (stage, array, host array) tuples."""
    if not isinstance(stages, dict):
        raise InputError(f"stages: expected a dict {{stage: {{array: data}}}}, got {type(stages).__name__}")
    out = []
    for stage, arrays in stages.items():
        if not isinstance(arrays, dict):
            raise InputError(f"stages[{stage!r}]: expected a dict {{array: data}}, got {type(arrays).__name__}")
        for name, data in arrays.items():
            out.append((str(stage), str(name), _host_array(data, f"{stage}.{name}")))
    return out


class TraceWriter:
    """A trace folder that `ozref verify-trace` reads, written from a kernel's arrays: each array is
    checked against the scheme's schema (ozref.schema) when added, and finish() writes the arrays
    and then manifest.json, with every hash, atomically. As a context manager it finishes on a
    normal exit. Options as run()'s keywords."""

    def __init__(self, path, scheme: str, m: int, n: int, k: int, *, complex: bool = False, **options):
        self._writer = _ozref.TraceWriter(str(path), scheme, _args.count(m, "m"), _args.count(n, "n"), _args.count(k, "k"), _scheme_options(options),
                                          bool(complex))

    def add(self, stage: str, array: str, data) -> None:
        """Array `array` of stage `stage` ("input" for a and b): NumPy, or a tensor through DLPack."""
        self._writer.add(stage, array, _host_array(data, f"{stage}.{array}"))

    def finish(self) -> None:
        self._writer.finish()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.finish()
        return False


def _input_planes(x, name):
    """A scheme's input as a trace holds it: f8 (m x k), or for complex128 the 2 x m x k planes."""
    x = _host_array(x, name)
    if x.dtype == _np.complex128:
        return _np.ascontiguousarray(_np.stack([x.real, x.imag]))
    return x


def write_trace(path, scheme: str, A, B, stages: dict, **options) -> None:
    """A trace folder of `scheme` for A @ B holding A, B and `stages` ({stage: {array: data}}, the
    names of ozref.schema), written through TraceWriter. Options as run()'s keywords."""
    a, b = _host_array(A, "argument A"), _host_array(B, "argument B")
    if a.ndim != 2 or b.ndim != 2:
        raise InputError(f"A and B must be matrices, got {a.ndim} and {b.ndim} dimensions")
    with TraceWriter(path, scheme, a.shape[0], b.shape[1], a.shape[1], complex=a.dtype == _np.complex128, **options) as w:
        w.add("input", "a", _input_planes(a, "argument A"))
        w.add("input", "b", _input_planes(b, "argument B"))
        for stage, name, data in _stage_arrays(stages):
            w.add(stage, name, data)


def verify_stages(scheme: str, A, B, stages: dict, *, verify: Optional[str] = None, reproducers=None, threads: int = 0,
                  **options) -> RunResult:
    """A kernel's stage arrays ({stage: {array: data}}, any subset of ozref.schema's stages)
    verified in memory as verify_trace verifies a trace: the same report. `reproducers`: a folder
    for the first differing element of each GEMM stage. Options as run()'s keywords."""
    report, c, code = _ozref.verify_stages(scheme, _host_array(A, "argument A"), _host_array(B, "argument B"), _stage_arrays(stages),
                                           _scheme_options(options, verify, threads), _args.path(reproducers, "reproducers"))
    return RunResult(_json.loads(report), c, code)


def verify_trace(path, *, a=None, b=None, verify: Optional[str] = None, reproducers=None, threads: int = 0) -> RunResult:
    """A trace folder verified stage by stage, as `ozref verify-trace PATH` (a, b: .npy files of the
    inputs when the trace holds none)."""
    in_memory = "arrays in memory: ozref.verify_stages"
    options = _ozref.VerifyTraceOptions(_args.path(a, "a", instead=in_memory), _args.path(b, "b", instead=in_memory),
                                        _args.text(verify, "verify"), _args.path(reproducers, "reproducers"), _args.threads(threads))
    report, c, code = _ozref.verify_trace(_args.path(path, "path", False), options)
    return RunResult(_json.loads(report), c, code)


def lockstep(scheme: str, A, B, *, lockstep: str = "resync", gemm: str = "mma", fault: Optional[str] = None,
             arch: str = "ideal", op: Optional[str] = None, mode: Optional[str] = None, crt: Optional[str] = None,
             slicing: Optional[str] = None, accumulate: Optional[str] = None, moduli: Optional[int] = None,
             slices: Optional[int] = None, mantissa_bits: Optional[Union[int, str]] = None, kblock: Optional[int] = None,
             complex_product: Optional[str] = None, verify: Optional[str] = None, threads: int = 0, dump=None,
             moduli_list=None) -> RunResult:
    """A scheme on the GPU twins of its stages and on the CPU, compared stage by stage, as
    `ozref lockstep`. Raises GpuUnavailable (with the reason) where no GPU can be used."""
    options = _ozref.LockstepOptions(_run_options(arch, op, mode, crt, slicing, accumulate, moduli, slices, mantissa_bits, kblock,
                                                  complex_product, verify, threads, dump, moduli_list),
                                     _args.text(lockstep, "lockstep", False), _args.text(gemm, "gemm", False), _args.text(fault, "fault"))
    available, why_not, _, result = _ozref.lockstep(_args.text(scheme, "scheme", False), _host_array(A, "argument A"),
                                                    _host_array(B, "argument B"), options)
    if not available:
        raise GpuUnavailable(why_not)
    report, c, code = result
    return RunResult(_json.loads(report), c, code)


def _array_converter(array_type):
    """Turns the fuzzer's NumPy operands into the subject's arrays."""
    if array_type == "numpy":
        return lambda x: x
    if array_type == "torch":
        import torch
        return torch.from_numpy
    if array_type == "cupy":
        import cupy
        return cupy.asarray
    raise InputError(f"array_type: expected numpy, torch or cupy, got {array_type!r}")


def fuzz(subject, *, at_least: Optional[float] = None, metric: str = "maxnorm", properties: str = "", generators: str = "",
         seconds: float = 60.0, cases: int = 0, first_case: int = 0, seed: Optional[int] = None, max_m: int = 16,
         max_n: int = 16, max_k: int = 64, timeout: float = 10.0, shrink_seconds: float = 30.0, out=None, replay=None,
         threads: int = 1, array_type: str = "numpy", arch: str = "ideal", op: Optional[str] = None,
         mode: Optional[str] = None, crt: Optional[str] = None, slicing: Optional[str] = None,
         accumulate: Optional[str] = None, moduli: Optional[int] = None, slices: Optional[int] = None,
         mantissa_bits: Optional[Union[int, str]] = None, kblock: Optional[int] = None) -> dict:
    """Property-based testing of a GEMM against the exact product, with shrinking, as `ozref fuzz`
    (docs/fuzz.md). `subject`: a callable C = subject(A, B) on `array_type` arrays (numpy, torch or
    cupy; it may return any of them), or a name as `ozref fuzz --subject` takes it (a scheme with its
    options, "exact", "exec:CMD", "dlopen:LIB:SYMBOL"). Returns the report: report.json's when a
    property failed (report["failed"] is True; the reproducer in `out` when given), else the summary."""
    o = _ozref.FuzzOptions()
    o.at_least, o.metric, o.properties, o.generators = at_least, metric, properties, generators
    o.seconds, o.cases, o.first_case, o.seed = seconds, cases, first_case, seed
    o.max_m, o.max_n, o.max_k, o.timeout, o.shrink_seconds = max_m, max_n, max_k, timeout, shrink_seconds
    o.out, o.replay, o.threads = _args.path(out, "out"), _args.path(replay, "replay"), _args.threads(threads)
    o.set_scheme(_run_options(arch, op, mode, crt, slicing, accumulate, moduli, slices, mantissa_bits, kblock, None, None, 0, None))
    if callable(subject):
        convert = _array_converter(array_type)
        _, report = _ozref.fuzz_function(lambda a, b: _host_array(subject(convert(a), convert(b)), "the subject's C"), o)
    else:
        _, report = _ozref.fuzz_named(str(subject), o)
    return _json.loads(report)


def generate(generator: str, m: int, n: int, k: int, seed: int = 0):
    """(A, B, label): operands from the fuzzer's catalogue (docs/fuzz.md, "Generators"), A m x k
    and B k x n, a function of the seed alone; label names the parameter drawn
    ("exponent-span:60"). ozref.strategies turns this into Hypothesis strategies."""
    return _ozref.generate(_args.text(generator, "generator", False), _args.count(m, "m"), _args.count(n, "n"), _args.count(k, "k"),
                           _args.seed(seed))


def generators() -> list:
    """The names of the fuzzer's generators, in the catalogue's order."""
    return _ozref.generator_names()


def mma(op: str, a, b, c, *, arch: str = "sm_90", scale_a=None, scale_b=None):
    """D = the instruction `op` (a PTX op string) of `arch`'s model on one output element's operands,
    as bit patterns: a and b the element's row of A and column of B along K as the instruction's
    operand bytes (bytes or uint8), c the accumulator's 32-bit pattern. With 2-D a and b (one row
    per element) and a 1-D c, D for every row (a uint32 array); else D as an int."""
    op, arch = _args.text(op, "op", False), _args.text(arch, "arch", False)
    single = _np.ndim(c) == 0
    rows_a, rows_b = _byte_rows(a, "argument a"), _byte_rows(b, "argument b")
    try:
        cs = _np.ascontiguousarray(_np.atleast_1d(_np.asarray(c, dtype=_np.int64)))
    except (TypeError, ValueError, OverflowError):
        cs = None
    if cs is None or cs.ndim != 1 or (cs.size and (cs.min() < 0 or cs.max() > 0xFFFFFFFF)):
        raise InputError("argument c: expected 32-bit patterns (0 .. 0xFFFFFFFF), one integer or a 1-D array of them")
    empty = _np.zeros((len(cs), 0), dtype=_np.uint8)
    sa = _byte_rows(scale_a, "argument scale_a") if scale_a is not None else empty
    sb = _byte_rows(scale_b, "argument scale_b") if scale_b is not None else empty
    d = _ozref.mma(op, rows_a, rows_b, cs.astype(_np.uint32), sa, sb, arch)
    return int(d[0]) if single and len(d) == 1 else d


def instruction(op: str, arch: str = "sm_90") -> dict:
    """What the model knows of an instruction: kind, k, operand and scale bytes, evidence."""
    return _ozref.instruction(_args.text(op, "op", False), _args.text(arch, "arch", False))


def instructions(arch: str = "sm_90") -> list:
    return _ozref.instructions(_args.text(arch, "arch", False))


def architectures() -> list:
    return _ozref.architectures()


def schemes() -> list:
    return _ozref.schemes()


from . import testing  # noqa: E402  (it uses the functions above)
