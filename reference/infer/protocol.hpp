// The black-box line protocol (docs/infer.md, "The protocol"): an MMA under test reads one query
// per line and answers each with one line, in order.
//   query:  OP A B C [SCALE_A SCALE_B]   (single spaces; A, B and the scales as an MMA trace
//           record's hex strings, C as 8 hex digits)
//   answer: D                            (8 hex digits)
// Queries and answers are MmaRecords (io/mma_trace.hpp): an answer is a query's d.
#pragma once
#include <istream>
#include <ostream>
#include <string>

#include "infer/oracle.hpp"
#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"

namespace ozref::infer {

std::string format_query(const MmaRecord& q);  // one line, no newline
// InputError naming `where` (e.g. "stdin:3") for a malformed line.
MmaRecord parse_query(const std::string& line, const std::string& where);
uint32_t parse_answer(const std::string& line, const std::string& where);

// Answers every query read from `in` with `answer`, flushing each answer. `op`, when not empty, is
// the only op served (the others are refused). Returns 0 at the end of the input; InputError
// naming the line for a malformed query, an op not served, or what `answer` refuses.
int serve(const Oracle& answer, const std::string& op, std::istream& in, std::ostream& out);
// The same with `arch`'s model of each query's op as the answer (an op the spec lacks is refused).
int serve(const mma::ArchSpec& arch, const std::string& op, std::istream& in, std::ostream& out);

}  // namespace ozref::infer
