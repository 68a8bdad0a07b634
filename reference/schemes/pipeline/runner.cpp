#include "schemes/pipeline/runner.hpp"

#include <chrono>
#include <map>
#include <optional>

#include "common/thread_scope.hpp"
#include "exact/exact_gemm.hpp"
#include "schemes/pipeline/array_window.hpp"
#include "schemes/pipeline/difference_pattern.hpp"
#include "schemes/pipeline/reproducer.hpp"
#include "common/seconds_since.hpp"
#include "schemes/common/scheme_inputs.hpp"
#include "trace/compare.hpp"

namespace ozref::schemes {
namespace {

using Clock = std::chrono::steady_clock;

class Runner {
 public:
  Runner(const Scheme& s, Arrays inputs, const RunOptions& o) : s_(s), o_(o), used_(std::move(inputs)) {
    if (o_.subject && o_.mode == Lockstep::FreeRunning) own_ = used_;
    for (size_t i = 0; i < s_.stages.size(); ++i) {
      std::vector<ArrayRef> reads = s_.stages[i]->inputs();
      if (o_.subject)
        for (const ArrayRef& r : o_.subject->extra_inputs(*s_.stages[i])) reads.push_back(r);
      for (const ArrayRef& r : reads) last_use_[r.key()] = i;
    }
  }

  SchemeResult run() {
    const auto start = Clock::now();
    s_.check_inputs(used_);
    for (TraceWriter* w : {o_.trace, o_.cpu_trace})
      for (const ArraySpec& spec : s_.input_specs())
        if (w) w->add(std::string(kInputStage), spec.name, used_.get({kInputStage, spec.name}).to_npy());
    for (size_t i = 0; i < s_.stages.size();) {
      const size_t end = group_end(i);
      if (o_.subject) stage_with_subject(*s_.stages[i]);
      else cpu_group(i, end);
      release_before(end);
      i = end;
    }
    r_.pipeline_seconds = seconds_since(start);
    finish(start);
    return std::move(r_);
  }

 private:
  // The stages run together with stage `first`: consecutive batched stages with the same batches
  // (CPU alone); otherwise `first` by itself.
  size_t group_end(size_t first) const {
    const size_t batches = s_.stages[first]->batches();
    size_t end = first + 1;
    if (o_.subject || batches < 2) return end;
    while (end < s_.stages.size() && s_.stages[end]->batches() == batches) ++end;
    return end;
  }

  bool checks(const Stage& st) const {
    return st.has_contract() && o_.verify != Verify::None && o_.verify >= st.checked_from();
  }

  // A batched output that no stage from `end` on reads, in a run without a trace: held one batch
  // at a time (the group's stages take each batch in turn).
  bool one_batch(const Stage& st, const ArraySpec& spec, size_t end) const {
    const ArrayRef r = st.ref(spec.name);
    if (o_.trace || st.batches() < 2 || r.key() == s_.result.key()) return false;
    const auto it = last_use_.find(r.key());
    return it == last_use_.end() || it->second < end;
  }

  // The stage's outputs in `into`; `end`: the end of its group (0: whole arrays).
  void allocate(const Stage& st, Arrays& into, size_t end) {
    for (const ArraySpec& spec : st.outputs()) {
      Tensor& t = into.put(st.ref(spec.name), Tensor(spec, end && one_batch(st, spec, end)));
      if (o_.verify != Verify::None || o_.subject) t.fill_canary();
    }
  }

  StageReport& open_report(const Stage& st) {
    r_.stages.push_back({});
    StageReport& rep = r_.stages.back();
    rep.name = std::string(st.name());
    rep.checked = checks(st);
    rep.has_contract = st.has_contract();
    return rep;
  }

  void cpu_group(size_t first, size_t end) {
    std::vector<size_t> reports;
    for (size_t i = first; i < end; ++i) {
      allocate(*s_.stages[i], used_, end);
      open_report(*s_.stages[i]);
      reports.push_back(r_.stages.size() - 1);
    }
    for (size_t t = 0; t < s_.stages[first]->batches(); ++t)
      for (size_t i = first; i < end; ++i) {
        const Stage& st = *s_.stages[i];
        StageReport& rep = r_.stages[reports[i - first]];
        timed(rep.seconds, [&] { st.compute(used_, used_, t); });
        if (rep.checked) timed(rep.verify_seconds, [&] { st.verify(used_, used_, t, o_.verify, rep); });
      }
    for (size_t i = first; i < end; ++i) trace(o_.trace, *s_.stages[i], used_);
  }

  // Whether the subject's outputs of `st` must equal the CPU's bit for bit.
  bool compared(const Stage& st) const {
    if (!o_.subject->provides(st)) return false;
    return st.kind() == StageKind::Function || (st.kind() == StageKind::Rounding && o_.subject->follows_rounding_order());
  }

  void stage_with_subject(const Stage& st) {
    StageReport& rep = open_report(st);
    StageComparison& cmp = rep.comparison;
    cmp.present = o_.subject->provides(st);
    const bool free = o_.mode == Lockstep::FreeRunning;
    Arrays used_out;
    allocate(st, used_out, 0);
    timed(rep.seconds, [&] {
      if (cmp.present) o_.subject->compute(st, used_, used_out);
      else compute_all(st, used_, used_out);
    });
    std::optional<Arrays> cpu_out;
    if (free) {
      allocate(st, *own_, 0);
      compute_all(st, *own_, *own_);
      cpu_out = Arrays();
    } else if (compared(st)) {
      cpu_out = Arrays();
      allocate(st, *cpu_out, 0);
      compute_all(st, used_, *cpu_out);
    }
    if (compared(st)) compare(st, used_out, free ? *own_ : *cpu_out, cmp);
    if (rep.checked)
      timed(rep.verify_seconds, [&] {
        for (size_t t = 0; t < st.batches(); ++t) st.verify(used_, used_out, t, o_.verify, rep);
      });
    trace(o_.trace, st, used_out);
    if (cpu_out) trace(o_.cpu_trace, st, free ? *own_ : *cpu_out);
    const bool pass_cpu_on = !free && cpu_out && rep.violations > 0 && o_.subject->computes_from_inputs();
    Arrays& next = pass_cpu_on ? *cpu_out : used_out;
    for (const ArraySpec& spec : st.outputs()) used_.put(st.ref(spec.name), std::move(next.get(st.ref(spec.name))));
  }

  static void compute_all(const Stage& st, const Arrays& in, Arrays& out) {
    for (size_t t = 0; t < st.batches(); ++t) st.compute(in, out, t);
  }

  void compare(const Stage& st, const Arrays& subject, const Arrays& cpu, StageComparison& cmp) {
    cmp.compared = true;
    const std::vector<ArraySpec> outputs = st.outputs();
    for (size_t x = 0; x < outputs.size(); ++x) {
      const ArraySpec& spec = outputs[x];
      const ArrayWindow window = o_.block ? window_of(spec, *o_.block) : ArrayWindow{};
      if (!window.speaks_for) continue;
      const Tensor &mine = subject.get(st.ref(spec.name)), &cpus = cpu.get(st.ref(spec.name));
      const ArrayDifference d = compare_arrays(mine, cpus);
      if (!d.differing) continue;
      const size_t words = integer_words(spec);  // C' counted and shown as integers, not 64-bit words
      const size_t unwritten = o_.subject->canary_filled() ? d.unwritten : 0;  // a trace's arrays hold no canary
      if (unwritten && cmp.unwritten == 0)
        cmp.first_unwritten = std::string(st.name()) + "." + spec.name + named_index(spec, mine.shape(), d.first_unwritten) + ": never written (the CPU's " +
                              element_text(cpus.dtype(), cpus.raw() + d.first_unwritten * dtype_size(cpus.dtype())) + ")";
      cmp.unwritten += unwritten;
      if (cmp.differing == 0) first_difference(st, spec, x, window, d, mine, cpus, subject, cmp, words);
      if (cmp.differing == 0 && !o_.block) cmp.first_difference += "; pattern: " + difference_pattern(mine, cpus, spec);
      cmp.differing += words > 1 ? differing_integers(mine, cpus, words) : d.differing;
    }
  }

  // The stage's first difference, named (and, in a block, placed) in the whole array, with its
  // reproducer for a GEMM stage: written, or in a block kept for the ranks to choose.
  void first_difference(const Stage& st, const ArraySpec& spec, size_t x, const ArrayWindow& window, const ArrayDifference& d,
                        const Tensor& mine, const Tensor& cpus, const Arrays& subject, StageComparison& cmp, size_t words) {
    const std::string& array = spec.name;
    const uint64_t at = o_.block ? window.whole_flat(d.first) : d.first;
    const std::string index = named_index(spec, o_.block ? window.whole_shape : mine.shape(), at);
    cmp.first_difference = std::string(st.name()) + "." + array + index + ": found " + d.left + ", expected " + d.right;
    if (words > 1) {  // the integer's index, without its word, and its value
      std::vector<size_t> integers = o_.block ? window.whole_shape : mine.shape();
      integers.pop_back();
      cmp.first_difference = std::string(st.name()) + "." + array + named_index(spec, integers, at / words) + ": " + integer_values(mine, cpus, d.first, words);
    }
    cmp.first_at = {x, 0, at};
    if (o_.reproducers.empty()) return;
    const auto element = st.gemm_element(used_, subject, array, d.first);
    if (!element) return;
    const Reproducer r = reproducer_of(st.name(), array, index, *element, mine, cpus, d.first);
    if (o_.block) cmp.pending = std::make_shared<const Reproducer>(r);
    else write_reproducer(o_.reproducers, r, cmp);
  }

  void trace(TraceWriter* w, const Stage& st, const Arrays& from) const {
    if (!w) return;
    for (const ArraySpec& spec : st.outputs()) w->add(std::string(st.name()), spec.name, from.get(st.ref(spec.name)).to_npy());
  }

  // Frees what no stage from `next` on reads (the inputs and the result stay).
  void release_before(size_t next) {
    for (const auto& [key, last] : last_use_)
      if (last < next && key.rfind(std::string(kInputStage) + ".", 0) != 0 && key != s_.result.key()) {
        const size_t dot = key.find('.');
        const ArrayRef r{std::string_view(key).substr(0, dot), std::string_view(key).substr(dot + 1)};
        used_.erase(r);
        if (own_) own_->erase(r);
      }
  }

  template <typename F>
  static void timed(double& seconds, F&& f) {
    const auto t0 = Clock::now();
    f();
    seconds += seconds_since(t0);
  }

  void finish(Clock::time_point start);

  const Scheme& s_;
  const RunOptions& o_;
  Arrays used_;               // the arrays each stage used
  std::optional<Arrays> own_;  // free-running: the CPU's own pipeline
  std::map<std::string, size_t> last_use_;
  SchemeResult r_;
};

void Runner::finish(Clock::time_point start) {
  const Tensor& c = used_.get(s_.result);
  const size_t mn = s_.m * s_.n;
  std::vector<double> computed(c.elements());
  for (size_t v = 0; v < c.elements(); ++v)
    computed[v] = c.dtype() == DType::I4 ? double(c.as<int32_t>()[v]) : c.as<double>()[v];
  r_.c = Matrix<double>(s_.m, s_.n);
  std::copy_n(computed.begin(), mn, r_.c.data.begin());
  if (s_.parts == 2) {
    r_.c_imag = Matrix<double>(s_.m, s_.n);
    std::copy_n(computed.begin() + static_cast<long>(mn), mn, r_.c_imag.data.begin());
  }
  settle_exactness(s_, r_);
  if (o_.measure_accuracy) {
    const Tensor &a = used_.get({kInputStage, "a"}), &b = used_.get({kInputStage, "b"});
    const StackedComplex x = real_operands(a, b, s_.parts, s_.m, s_.n, s_.k);
    r_.accuracy = measure(computed, exact_gemm(x.a, x.b, {.threads = o_.threads}));
  }
  r_.seconds = seconds_since(start);
}

}  // namespace

void settle_exactness(const Scheme& s, SchemeResult& r) {
  r.low_precision_gemms = s.low_precision_gemms;
  bool checked = false, held = true, verified = true;
  r.identical = true;
  for (const StageReport& rep : r.stages) {
    checked = checked || rep.condition_checked;
    held = held && rep.condition_held;
    verified = verified && rep.holds();
    r.identical = r.identical && rep.comparison.identical();
  }
  r.exactness_conditions = s.condition_by_construction || (checked && held);
  r.exact = verified && r.exactness_conditions && s.exact_by_design;
}

SchemeResult run_scheme(const Scheme& scheme, Arrays inputs, const RunOptions& options) {
  const ThreadScope threads(options.threads);
  return Runner(scheme, std::move(inputs), options).run();
}

}  // namespace ozref::schemes
