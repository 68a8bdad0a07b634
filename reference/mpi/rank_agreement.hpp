// Ranks started differently (mpirun's MPMD syntax `-n 1 ozref exact ... : -n 1 ozref check ...`,
// a node whose copy of an input differs) must neither compute parts of different products nor wait
// forever in a collective that the others never call. Two agreements, one collective each, stop
// every rank with exit 2 and one message (rank 0's) instead (docs/scale.md):
// - command_line_disagreement, the first collective of every run and the same for every verb:
//   each rank's FNV-1a hash of its argument list, gathered on every rank (and on a difference the
//   lists themselves, so that rank 0 can name the first argument that differs);
// - agree_on_inputs, before a distributed verb reads anything: every input file's size and FNV-1a
//   hash of all its bytes (or why it cannot be read), gathered on every rank. Equal arguments and
//   equal input bytes leave the ranks nothing to differ in: shapes, dtypes and values come from
//   the bytes, options from the arguments.
#pragma once
#include <string>
#include <vector>

namespace ozref::mpi {

// Collective over every rank: empty when every rank was given the same arguments (argv[1..]),
// else the message naming the first rank and argument that differ from rank 0's.
std::string command_line_disagreement(int argc, const char* const* argv);

struct NamedInput {
  std::string option;  // "--a", "the trace's manifest"
  std::string path;
};

// Collective over every rank: InputError on every rank, naming the first input and rank whose
// bytes differ from rank 0's, unless every rank reads the same bytes from every input (or fails
// to read it alike, which the verb then reports as one process would).
void agree_on_inputs(const std::vector<NamedInput>& inputs);

}  // namespace ozref::mpi
