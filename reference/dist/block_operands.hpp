// The operands of one rank's block of C, read straight from the .npy files: the block's rows of
// A (all of K) and columns of B, and never the rest of either file.
#pragma once
#include <memory>
#include <string>

#include "api/operands.hpp"
#include "dist/process_grid.hpp"
#include "io/npy_block.hpp"

namespace ozref::dist {

struct OperandFiles {
  std::unique_ptr<NpyBlockFile> a, b;
  size_t m = 0, k = 0, n = 0;
};

// A opened and its header checked before B is opened, with the words load_operands uses for the
// same faults (a malformed file, not a 2-D f8 or f4 matrix, shapes that do not agree). With a
// folder, the paths are names of files in it, opened relative to its handle (io/folder.hpp).
OperandFiles open_operand_files(const std::string& a_path, const std::string& b_path, const Folder* folder = nullptr);

// The operands of `block`; InputError when they and the block's exact product would not fit in
// the memory budget.
Operands read_block_operands(OperandFiles& files, const Block& block);

}  // namespace ozref::dist
