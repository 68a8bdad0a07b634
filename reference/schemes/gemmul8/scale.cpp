// scale: each row's and column's shift as GEMMul8 v2.0.14 computes it (shifts.hpp): fast from the
// line's maximum and sum of squares (line_norms.hpp), accurate from the bound GEMM's maxima.
#include <algorithm>
#include <string>

#include "schemes/gemmul8/line_norms.hpp"
#include "schemes/gemmul8/shifts.hpp"
#include "schemes/gemmul8/stages.hpp"
#include "schemes/ozaki2/stages.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

struct Shifts {
  std::vector<LineShift> rows, cols;
};

// The largest magnitude of each line (rows of A, columns of B).
void line_maxima(MatrixView<double> x, bool rows, std::vector<double>& out) {
  out.assign(rows ? x.rows : x.cols, 0.0);
  for (size_t i = 0; i < x.rows; ++i)
    for (size_t j = 0; j < x.cols; ++j) {
      double& m = out[rows ? i : j];
      m = std::max(m, std::fabs(x(i, j)));
    }
}

Shifts fast_shifts(const Setup& s, MatrixView<double> a, MatrixView<double> b) {
  std::vector<double> amax(s.m), sa(s.m), bmax(s.n), sb(s.n);
  row_norms(a, amax.data(), sa.data());
  column_norms(b, bmax.data(), sb.data());
  Shifts out;
  const int N = static_cast<int>(s.N);
  for (size_t i = 0; i < s.m; ++i) out.rows.push_back(fast_line_shift(amax[i], sa[i], N, s.log2p, s.lg2));
  for (size_t j = 0; j < s.n; ++j) out.cols.push_back(fast_line_shift(bmax[j], sb[j], N, s.log2p, s.lg2));
  return out;
}

// u = 5 - ilogb(line max) and the bound GEMM's line maxima (GEMMul8's find_max: from 0).
Shifts accurate_shifts(const Setup& s, MatrixView<double> a, MatrixView<double> b, const uint32_t* c_hi) {
  std::vector<double> amax, bmax;
  line_maxima(a, true, amax);
  line_maxima(b, false, bmax);
  std::vector<int32_t> row_max(s.m, 0), col_max(s.n, 0);
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) {
      const int32_t c = static_cast<int32_t>(c_hi[i * s.n + j]);
      row_max[i] = std::max(row_max[i], c), col_max[j] = std::max(col_max[j], c);
    }
  Shifts out;
  const int N = static_cast<int>(s.N);
  for (size_t i = 0; i < s.m; ++i) out.rows.push_back(accurate_line_shift(accurate_bound_exponent(amax[i]), row_max[i], N, s.log2p, s.lg2));
  for (size_t j = 0; j < s.n; ++j) out.cols.push_back(accurate_line_shift(accurate_bound_exponent(bmax[j]), col_max[j], N, s.log2p, s.lg2));
  return out;
}

Shifts shifts_of(const Setup& s, const Arrays& in) {
  const MatrixView<double> a = ozaki2::part_of(in.get({kInputStage, "a"}), 0, s.m, s.k);
  const MatrixView<double> b = ozaki2::part_of(in.get({kInputStage, "b"}), 0, s.k, s.n);
  if (s.mode == Mode::Fast) return fast_shifts(s, a, b);
  return accurate_shifts(s, a, b, in.data<uint32_t>({ozaki2::Bound::kName, "c"}));
}

// Each line's shift against the range its log2 window allows; the approximation-dependent lines
// counted in a note.
void check_lines(const char* side, const std::vector<LineShift>& want, const int32_t* got, StageReport& report, size_t& dependent) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] < want[i].lowest || got[i] > want[i].highest)
      report.violate(std::string(side) + " " + std::to_string(i) + ": shift " + std::to_string(got[i]) + " is not GEMMul8's (" +
                     (want[i].lowest == want[i].highest ? std::to_string(want[i].lowest)
                                                        : std::to_string(want[i].lowest) + ".." + std::to_string(want[i].highest)) +
                     ")");
    if (want[i].dependent()) {
      if (dependent++ < 3)
        report.note(std::string(side) + " " + std::to_string(i) + ": shift " + std::to_string(want[i].lowest) + ".." +
                    std::to_string(want[i].highest) + " by __log2f's approximation (model: " + std::to_string(want[i].shift) + ")");
    }
  }
}

}  // namespace

std::vector<ArrayRef> Scale::inputs() const {
  if (s_->mode == Mode::Fast) return {{kInputStage, "a"}, {kInputStage, "b"}};
  return {{kInputStage, "a"}, {kInputStage, "b"}, {ozaki2::Bound::kName, "c"}};
}

std::vector<ArraySpec> Scale::outputs() const {
  return {{"row_shift", DType::I4, {{"m", s_->m}}, {}}, {"col_shift", DType::I4, {{"n", s_->n}}, {}}};
}

void Scale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Shifts sh = shifts_of(*s_, in);
  int32_t* row = out.data<int32_t>(ref("row_shift"));
  int32_t* col = out.data<int32_t>(ref("col_shift"));
  for (size_t i = 0; i < s_->m; ++i) row[i] = sh.rows[i].shift;
  for (size_t j = 0; j < s_->n; ++j) col[j] = sh.cols[j].shift;
}

// Contract (cheap): each shift is the formula's for some log2 in __log2f's error window (exactly
// the recorded H200 value where a recording lists the line). Notes: the lines whose shift the
// approximation decides (approximation-dependent), and where __log2f's model came from.
void Scale::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Shifts sh = shifts_of(*s_, in);
  size_t rows = 0, cols = 0;
  check_lines("row", sh.rows, out.data<int32_t>(ref("row_shift")), report, rows);
  check_lines("column", sh.cols, out.data<int32_t>(ref("col_shift")), report, cols);
  report.note("__log2f: " + std::string(s_->lg2.loaded ? "H200 recording " : "correctly rounded log2 (") + s_->lg2.source +
              (s_->lg2.loaded ? "" : ")") + "; approximation-dependent: " + std::to_string(rows) + " of " + std::to_string(s_->m) +
              " rows, " + std::to_string(cols) + " of " + std::to_string(s_->n) + " columns");
}

}  // namespace ozref::schemes::gemmul8
