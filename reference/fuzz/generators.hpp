// The catalogue of input generators (docs/fuzz.md lists them with what each makes): adversarial
// distributions for a GEMM, each drawing its parameter, and the shapes. A case is a function of its
// case seed alone, so that a printed seed makes it again.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_case.hpp"

namespace ozref::fuzz {

struct ShapeLimits {
  size_t max_m = 16, max_n = 16, max_k = 64;
};

// The names of the catalogue, in its order.
const std::vector<std::string>& generator_names();
// The generators a comma-separated list names (empty: all); InputError naming an unknown one.
std::vector<std::string> parse_generators(const std::string& list);

// The seed of case `index` of a campaign seeded with `run_seed`: splitmix64(splitmix64(run_seed) + index).
uint64_t case_seed(uint64_t run_seed, uint64_t index);

// Case `index`: a generator drawn from `generators`, a shape within `limits`, the operands.
FuzzCase generate_case(uint64_t run_seed, uint64_t index, const std::vector<std::string>& generators, const ShapeLimits& limits);
// The operands one generator makes for a shape the caller chose, from `seed` alone (what property
// testing libraries draw: they shrink the shape and the seed themselves). InputError for an unknown
// generator.
FuzzCase generate_operands(const std::string& generator, size_t m, size_t n, size_t k, uint64_t seed);

}  // namespace ozref::fuzz
