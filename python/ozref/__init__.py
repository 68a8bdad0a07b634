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
           "instructions", "architectures", "schemes", "scheme_options", "schema", "TraceWriter", "write_trace", "verify_stages", "verify_trace",
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
    device="gpu" computes it on the GPU (bit for bit the same; InputError without a usable GPU).
    A complex128 A or B makes a complex product: complex128 (or complex64 for dtype float32),
    each part rounded once."""
    try:
        wanted = _np.dtype(dtype)
    except TypeError:
        raise InputError(f"dtype: expected float64 or float32, got {_args._shown(dtype)}") from None
    if wanted not in (_np.float64, _np.float32):
        raise InputError(f"dtype: expected float64 or float32, got {wanted}")
    fp64, fp32, _, _, is_complex = _ozref.exact(_host_array(A, "argument A"), _host_array(B, "argument B"),
                                                _args.threads(threads), _device(device))
    if is_complex:  # m x 2n: each element's real part, then its imaginary part
        fp64, fp32 = fp64.view(_np.complex128), fp32.view(_np.complex64)
    return fp64 if wanted == _np.float64 else fp32


def check(A, B, C, *, threads: int = 0, at_least: Optional[float] = None, metric: str = "maxnorm",
          device: str = "cpu") -> dict:
    """C against the exact product of A and B: the report `ozref check --json` prints (a float64 C
    against the product rounded to FP64, a float32 C against it rounded to FP32; a complex128 C,
    part by part, for a complex128 A or B). With `at_least`,
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


# The scheme options, each declared once in the library (include/ozref/scheme_options.hpp): name,
# type, range, the schemes that take it and its help. scheme_options() shows them.
_DECLARED = _json.loads(_ozref.scheme_option_declarations())
_SCHEME_OPTIONS = ("arch",) + tuple(d["field"] for d in _DECLARED)


def scheme_options() -> list:
    """Every scheme option run(), schema(), lockstep(), fuzz(), TraceWriter and verify_stages take
    as a keyword: dicts of field (the keyword), name (the command's --name), type (text, count or
    count-list), least and greatest (a count's range, or each list element's), schemes (those that
    take it) and help. `arch` (the MMA model, every scheme) comes besides them."""
    return [dict(d) for d in _DECLARED]


def _text_option(value, name):
    """A text option; cublas-fixedpoint@13.1's mantissa bits may also be given as an integer."""
    if name == "mantissa_bits" and not isinstance(value, str):
        if not _args._is_integer(value):
            raise InputError(f"mantissa_bits: {_args._shown(value)} is not an integer")
        return str(int(value))
    return _args.text(value, name, False)


def _count_option(value, d):
    """A count option: an integer in its declared range."""
    name, least, greatest = d["field"], d["least"], d["greatest"]
    if value is None:  # an element of a list (a keyword of None is not given)
        raise InputError(f"{name}: None is not an integer")
    value = _args.count(value, name)
    if not least <= value <= greatest:
        raise InputError(f"{name}: {value} is not an integer in [{least}, {greatest}]")
    return value


def _count_list_option(value, d):
    """A list option (moduli_list): a sequence of integers, each in its declared range."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(f"{d['field']}: {_args._shown(value)} is not a list of integers")
    return [_count_option(x, d) for x in value]


def _scheme_options(options, verify=None, threads=0, dump=None):
    """A scheme's options given as keywords (scheme_options() lists them), checked and passed to the
    extension as the manifest's JSON."""
    unknown = sorted(set(options) - set(_SCHEME_OPTIONS))
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r} (options: {', '.join(_SCHEME_OPTIONS)})")
    arch = options.get("arch")
    given = {"arch": "ideal" if arch is None else _args.text(arch, "arch", False)}
    forms = {"text": lambda v, d: _text_option(v, d["field"]), "count": _count_option, "count-list": _count_list_option}
    for d in _DECLARED:
        value = options.get(d["field"])
        if value is not None:
            given[d["name"]] = forms[d["type"]](value, d)
    return _ozref.RunOptions(_json.dumps(given), _args.text(verify, "verify"), _args.threads(threads), _args.path(dump, "dump"))


def run(scheme: str, A, B, *, verify: Optional[str] = None, threads: int = 0, dump=None, **options) -> RunResult:
    """A scheme on the CPU emulator, every stage verified, as `ozref run --a A.npy --b B.npy`.
    complex128 A and B make a complex run. `dump`: a folder for the trace of every stage.
    `options`: the scheme's options as keywords (arch="sm_90", moduli=14, mode="fast", ...; every
    one with its help: scheme_options())."""
    report, c, code = _ozref.run(_args.text(scheme, "scheme", False), _host_array(A, "argument A"), _host_array(B, "argument B"),
                                 _scheme_options(options, verify, threads, dump))
    return RunResult(_json.loads(report), c, code)


def schema(scheme: str, m: int, n: int, k: int, *, complex: bool = False, **options) -> dict:
    """What a trace of `scheme` holds for an m x k by k x n product, as `ozref schema --json`: every
    stage in order with its arrays (name, dtype, shape, symbolic, meaning, allowed), what it reads,
    its kind ("function", "choice", "rounding"), and the scheme's constants (moduli, P, CRT weights
    as decimal strings, max_k). Options as run()'s keywords."""
    return _json.loads(_ozref.schema(scheme, _args.count(m, "m"), _args.count(n, "n"), _args.count(k, "k"), _scheme_options(options),
                                     bool(complex)))


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
             verify: Optional[str] = None, threads: int = 0, dump=None, **options) -> RunResult:
    """A scheme on the GPU twins of its stages and on the CPU, compared stage by stage, as
    `ozref lockstep`. Options as run()'s keywords. Raises GpuUnavailable (with the reason) where no
    GPU can be used."""
    options = _ozref.LockstepOptions(_scheme_options(options, verify, threads, dump), _args.text(lockstep, "lockstep", False),
                                     _args.text(gemm, "gemm", False), _args.text(fault, "fault"))
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
         threads: int = 1, array_type: str = "numpy", **options) -> dict:
    """Property-based testing of a GEMM against the exact product, with shrinking, as `ozref fuzz`
    (docs/fuzz.md). `subject`: a callable C = subject(A, B) on `array_type` arrays (numpy, torch or
    cupy; it may return any of them), or a name as `ozref fuzz --subject` takes it (a scheme, its
    options as run()'s keywords; "exact", "exec:CMD", "dlopen:LIB:SYMBOL"). Returns the report: report.json's when a
    property failed (report["failed"] is True; the reproducer in `out` when given), else the summary."""
    o = _ozref.FuzzOptions()
    o.at_least, o.metric, o.properties, o.generators = at_least, metric, properties, generators
    o.seconds, o.cases, o.first_case, o.seed = seconds, cases, first_case, seed
    o.max_m, o.max_n, o.max_k, o.timeout, o.shrink_seconds = max_m, max_n, max_k, timeout, shrink_seconds
    o.out, o.replay, o.threads = _args.path(out, "out"), _args.path(replay, "replay"), _args.threads(threads)
    o.set_scheme(_scheme_options(options))
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
