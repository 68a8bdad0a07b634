#include "infer/protocol.hpp"

#include <sstream>
#include <vector>

#include "common/error.hpp"
#include "mma/execute.hpp"

namespace ozref::infer {

std::string format_query(const MmaRecord& q) {
  std::string line = q.op + " " + to_hex(q.a) + " " + to_hex(q.b) + " " + to_hex32(q.c);
  if (!q.scale_a.empty() || !q.scale_b.empty()) line += " " + to_hex(q.scale_a) + " " + to_hex(q.scale_b);
  return line;
}

MmaRecord parse_query(const std::string& line, const std::string& where) {
  std::istringstream words(line);
  std::vector<std::string> w;
  for (std::string word; words >> word;) w.push_back(word);
  if (w.size() != 4 && w.size() != 6)
    throw InputError(where + ": a query is 'OP A B C' or 'OP A B C SCALE_A SCALE_B', got " + std::to_string(w.size()) + " words: " + quoted_excerpt(line));
  MmaRecord q;
  q.op = w[0];
  q.a = from_hex(w[1], where + ": A");
  q.b = from_hex(w[2], where + ": B");
  q.c = word_from_hex(w[3], where + ": C");
  if (w.size() == 6) {
    q.scale_a = from_hex(w[4], where + ": SCALE_A");
    q.scale_b = from_hex(w[5], where + ": SCALE_B");
  }
  return q;
}

uint32_t parse_answer(const std::string& line, const std::string& where) {
  std::string d = line;
  while (!d.empty() && (d.back() == '\r' || d.back() == ' ')) d.pop_back();
  return word_from_hex(d, where + ": the answer " + quoted_excerpt(line));
}

int serve(const mma::ArchSpec& arch, const std::string& op, std::istream& in, std::ostream& out) {
  if (!op.empty()) mma::instruction(arch, op);  // refuse an op the spec lacks before reading
  return serve([&](const MmaRecord& q) { return mma::execute(mma::instruction(arch, q.op), {q.a, q.b, q.c, q.scale_a, q.scale_b}); }, op,
               in, out);
}

int serve(const Oracle& answer, const std::string& op, std::istream& in, std::ostream& out) {
  size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = "stdin:" + std::to_string(line_number);
    const MmaRecord q = parse_query(line, where);
    if (!op.empty() && q.op != op) throw InputError(where + ": this server answers only " + op + ", not " + quoted_excerpt(q.op));
    try {
      out << to_hex32(answer(q)) << "\n" << std::flush;
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
  }
  return 0;
}

}  // namespace ozref::infer
