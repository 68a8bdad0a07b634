// The family `infer` searches (docs/infer.md, "The family", with the source of each dimension): the
// specs that share an instruction's interface (its op, kind, K, operand formats, packing and
// scales) and differ in its datapath.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "mma/instruction.hpp"

namespace ozref::infer {

// Every member for `interface`'s op, in a fixed order. A member copies the interface's fields and
// sets the datapath's; members whose behaviour cannot differ (a rounding mode when no sum ever
// needs rounding) are listed once.
std::vector<mma::InstructionSpec> family(const mma::InstructionSpec& interface);

// The family's dimensions of a spec as (name, value) pairs, in a fixed order: what a member pins.
using Dimensions = std::vector<std::pair<std::string, std::string>>;
Dimensions dimensions(const mma::InstructionSpec& s);

// The interface of an op: its instruction in the first built-in spec that models it, or in `like`
// (a spec name or file) when given. InputError naming the op when none does.
mma::InstructionSpec interface_of(const std::string& op, const std::string& like);

}  // namespace ozref::infer
