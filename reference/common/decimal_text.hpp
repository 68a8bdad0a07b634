// The numbers a user types (numeric options of every verb, `--dist phi:X` and `integers:R`,
// `--mantissa-bits dynamic:N`), read by one grammar (docs/user-guide.md): plain decimals only,
// digits with at most one '.' (a real), a leading '-' only where the range has negative values;
// no '+', exponent, hexadecimal, spaces, NaN or infinity, and nothing wraps around.
#pragma once
#include <optional>
#include <string>

namespace ozref {

// Whether `text` is a decimal integer ([-]digits) within [lo, hi].
bool decimal_integer_in(const std::string& text, long long lo, unsigned long long hi);

// The value of `text` as a plain decimal ([-]digits, [-]digits.digits, [-].digits, [-]digits.),
// a finite double within [lo, hi] (rounded to nearest); nullopt for any other text.
std::optional<double> decimal_in(const std::string& text, double lo, double hi);

}  // namespace ozref
