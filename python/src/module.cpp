// ozref._ozref: the extension under the Python package ozref (python/ozref/__init__.py turns its
// plain results into the package's objects). Every call goes through the public C++ interface
// (include/ozref/), releases the GIL while the library computes, and raises the command's
// messages (errors.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "errors.hpp"
#include "ozref/ozref.hpp"

namespace py = pybind11;
using namespace ozref;
using ozref::python::array_ref;
using ozref::python::to_numpy;

namespace {

using Array = py::array;

// A scheme run's result for the package: its report (the command's JSON), C, and the exit code.
py::tuple run_tuple(api::RunResult&& r) {
  py::object c = r.c_imag.rows == 0 ? py::object(to_numpy(std::move(r.c))) : py::object(ozref::python::to_numpy_complex(r.c, r.c_imag));
  return py::make_tuple(r.json, c, r.exit_code);
}

// `scheme_options`: the options as a manifest's JSON (the package builds it from the keywords).
api::RunOptions run_options(const std::string& scheme_options, const std::string& verify, int threads, const std::string& dump) {
  return {.scheme = api::scheme_options_from_json(scheme_options, "options"), .verify = verify, .threads = threads, .dump = dump};
}

py::tuple exact(const Array& a, const Array& b, int threads, const std::string& device) {
  const api::ArrayRef ra = array_ref(a, "argument A"), rb = array_ref(b, "argument B");
  api::ExactProduct e;
  {
    py::gil_scoped_release unlocked;
    e = api::exact(ra, rb, threads, device);
  }
  return py::make_tuple(to_numpy(std::move(e.fp64)), to_numpy(std::move(e.fp32)), to_numpy(std::move(e.residual)), e.k, e.complex);
}

// The report as JSON; with a floor (at_least not None) it holds the gate's verdict under "gate".
std::string check(const Array& a, const Array& b, const Array& c, int threads, std::optional<double> at_least, const std::string& metric,
                  const std::string& device) {
  const api::ArrayRef ra = array_ref(a, "argument A"), rb = array_ref(b, "argument B"), rc = array_ref(c, "argument C");
  std::optional<api::AccuracyFloor> floor;
  if (at_least) floor = api::AccuracyFloor{*at_least, metric};
  py::gil_scoped_release unlocked;
  return api::check(ra, rb, rc, threads, floor, device).json;
}

py::tuple run(const std::string& scheme, const Array& a, const Array& b, const api::RunOptions& options) {
  const api::ArrayRef ra = array_ref(a, "argument A"), rb = array_ref(b, "argument B");
  api::RunResult r;
  {
    py::gil_scoped_release unlocked;
    r = api::run(scheme, ra, rb, options);
  }
  return run_tuple(std::move(r));
}

py::tuple verify_trace(const std::string& dir, const api::VerifyTraceOptions& options) {
  api::RunResult r;
  {
    py::gil_scoped_release unlocked;
    r = api::verify_trace(dir, options);
  }
  return run_tuple(std::move(r));
}

py::tuple lockstep(const std::string& scheme, const Array& a, const Array& b, const api::LockstepOptions& options) {
  const api::ArrayRef ra = array_ref(a, "argument A"), rb = array_ref(b, "argument B");
  api::LockstepResult r;
  {
    py::gil_scoped_release unlocked;
    r = api::lockstep(scheme, ra, rb, options);
  }
  if (!r.available) return py::make_tuple(false, r.why_not, r.device, py::none());
  return py::make_tuple(true, r.why_not, r.device, run_tuple(std::move(r.result)));
}

std::span<const uint8_t> bytes_of(const py::array_t<uint8_t, py::array::c_style>& a) { return {a.data(), static_cast<size_t>(a.size())}; }

py::array_t<uint32_t> mma(const std::string& op, const py::array_t<uint8_t, py::array::c_style>& a,
                          const py::array_t<uint8_t, py::array::c_style>& b, const py::array_t<uint32_t, py::array::c_style>& c,
                          const py::array_t<uint8_t, py::array::c_style>& scale_a, const py::array_t<uint8_t, py::array::c_style>& scale_b,
                          const std::string& arch) {
  const api::MmaBatch x{bytes_of(a), bytes_of(b), {c.data(), static_cast<size_t>(c.size())}, bytes_of(scale_a), bytes_of(scale_b)};
  std::vector<uint32_t> d;
  {
    py::gil_scoped_release unlocked;
    d = api::mma(op, x, arch);
  }
  return py::array_t<uint32_t>(static_cast<py::ssize_t>(d.size()), d.data());
}

// A Python callable as the library's GemmFunction: called with the GIL held, on float64 NumPy
// arrays; its result read back as a C-contiguous float64 array (a Python exception propagates to the
// fuzzer, which reports it as a finding). The callable is held through a shared pointer, so that
// the library copies and drops the function without the GIL and without touching its reference count.
api::GemmFunction python_gemm(const std::shared_ptr<py::function>& f) {
  return [f](const api::Matrix<double>& a, const api::Matrix<double>& b) {
    py::gil_scoped_acquire locked;
    py::array_t<double> pa({a.rows, a.cols}, a.data.data()), pb({b.rows, b.cols}, b.data.data());
    const auto c = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure((*f)(pa, pb));
    if (!c || c.ndim() != 2) throw InputError("the subject returned no 2-D float array");
    return api::Matrix<double>{static_cast<size_t>(c.shape(0)), static_cast<size_t>(c.shape(1)), std::vector<double>(c.data(), c.data() + c.size())};
  };
}

py::tuple fuzz_result(const api::FuzzResult& r) { return py::make_tuple(r.failed, r.json); }

// verify_stages's arrays: (stage, array, ndarray) tuples; the ndarrays outlive the call.
py::tuple verify_stages(const std::string& scheme, const Array& a, const Array& b, const std::vector<py::tuple>& stages,
                        const api::RunOptions& options, const std::string& reproducers) {
  const api::ArrayRef ra = array_ref(a, "argument A"), rb = array_ref(b, "argument B");
  std::vector<api::StageArray> given;
  for (const py::tuple& t : stages) {
    const std::string stage = t[0].cast<std::string>(), array = t[1].cast<std::string>();
    given.push_back({stage, array, array_ref(t[2].cast<Array>(), stage + "." + array)});
  }
  api::RunResult r;
  {
    py::gil_scoped_release unlocked;
    r = api::verify_stages(scheme, ra, rb, given,
                           {.scheme = options.scheme, .verify = options.verify, .reproducers = reproducers, .threads = options.threads});
  }
  return run_tuple(std::move(r));
}

py::dict instruction_dict(const api::Instruction& i) {
  py::dict d;
  d["op"] = i.op, d["kind"] = i.kind, d["k"] = i.k, d["operand_bytes"] = i.operand_bytes, d["scale_bytes"] = i.scale_bytes;
  d["evidence"] = i.evidence;
  return d;
}

}  // namespace

PYBIND11_MODULE(_ozref, m) {
  m.doc() = "ozref's C++ library (the package ozref is its interface)";
  ozref::python::register_errors(m);
  py::class_<api::RunOptions>(m, "RunOptions").def(py::init(&run_options));
  py::class_<api::VerifyTraceOptions>(m, "VerifyTraceOptions")
      .def(py::init([](std::string a, std::string b, std::string verify, std::string reproducers, int threads) {
        return api::VerifyTraceOptions{std::move(a), std::move(b), std::move(verify), std::move(reproducers), threads};
      }));
  py::class_<api::LockstepOptions>(m, "LockstepOptions")
      .def(py::init([](api::RunOptions run, std::string lockstep, std::string gemm, std::string fault) {
        return api::LockstepOptions{std::move(run), std::move(lockstep), std::move(gemm), std::move(fault)};
      }));
  py::class_<api::FuzzOptions>(m, "FuzzOptions")
      .def(py::init<>())
      .def("set_scheme", [](api::FuzzOptions& o, const api::RunOptions& run) { o.scheme = run.scheme; })
      .def_readwrite("at_least", &api::FuzzOptions::at_least)
      .def_readwrite("metric", &api::FuzzOptions::metric)
      .def_readwrite("properties", &api::FuzzOptions::properties)
      .def_readwrite("generators", &api::FuzzOptions::generators)
      .def_readwrite("seconds", &api::FuzzOptions::seconds)
      .def_readwrite("cases", &api::FuzzOptions::cases)
      .def_readwrite("first_case", &api::FuzzOptions::first_case)
      .def_readwrite("seed", &api::FuzzOptions::seed)
      .def_readwrite("max_m", &api::FuzzOptions::max_m)
      .def_readwrite("max_n", &api::FuzzOptions::max_n)
      .def_readwrite("max_k", &api::FuzzOptions::max_k)
      .def_readwrite("timeout", &api::FuzzOptions::timeout)
      .def_readwrite("shrink_seconds", &api::FuzzOptions::shrink_seconds)
      .def_readwrite("out", &api::FuzzOptions::out)
      .def_readwrite("replay", &api::FuzzOptions::replay)
      .def_readwrite("threads", &api::FuzzOptions::threads);
  m.def("fuzz_named", [](const std::string& subject, const api::FuzzOptions& options) {
    api::FuzzResult r;
    {
      py::gil_scoped_release unlocked;
      r = api::fuzz(subject, options);
    }
    return fuzz_result(r);
  });
  m.def("fuzz_function", [](py::function subject, const api::FuzzOptions& options) {
    const auto held = std::make_shared<py::function>(std::move(subject));
    const api::GemmFunction f = python_gemm(held);
    api::FuzzResult r;
    {
      py::gil_scoped_release unlocked;
      r = api::fuzz(f, options);
    }
    return fuzz_result(r);
  });
  py::class_<api::TraceWriter>(m, "TraceWriter")
      .def(py::init([](const std::string& dir, const std::string& scheme, size_t rows, size_t cols, size_t depth, const api::RunOptions& options,
                       bool complex) { return api::TraceWriter(dir, scheme, rows, cols, depth, options.scheme, complex); }))
      .def("add", [](api::TraceWriter& w, const std::string& stage, const std::string& array, const Array& data) {
        w.add(stage, array, array_ref(data, stage + "." + array));
      })
      .def("finish", [](api::TraceWriter& w) {
        py::gil_scoped_release unlocked;
        w.finish();
      });
  m.def("generate", [](const std::string& generator, size_t rows, size_t cols, size_t depth, uint64_t seed) {
    api::GeneratedOperands x = api::generate(generator, rows, cols, depth, seed);
    return py::make_tuple(to_numpy(std::move(x.a)), to_numpy(std::move(x.b)), x.generator);
  });
  m.def("generator_names", &api::generator_names);
  m.def("verify_stages", &verify_stages);
  m.def("exact", &exact);
  m.def("check", &check);
  m.def("run", &run);
  m.def("verify_trace", &verify_trace);
  m.def("lockstep", &lockstep);
  m.def("mma", &mma);
  m.def("instruction", [](const std::string& op, const std::string& arch) { return instruction_dict(api::instruction(op, arch)); });
  m.def("instructions", [](const std::string& arch) {
    py::list out;
    for (const api::Instruction& i : api::instructions(arch)) out.append(instruction_dict(i));
    return out;
  });
  m.def("schema", [](const std::string& scheme, size_t rows, size_t cols, size_t depth, const api::RunOptions& options, bool complex) {
    return api::schema(scheme, rows, cols, depth, options.scheme, complex).json;
  });
  m.def("architectures", &api::architectures);
  m.def("schemes", &api::schemes);
  m.def("scheme_option_declarations", &api::scheme_option_declarations_json);
}
